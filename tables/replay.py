"""A finished deal step by step, as one viewer could see it then: built on the server from the stored events, so
a card the viewer may not see is never sent (RULES §3 D1, §6).

What a viewer sees: his own card from the step he opened it; anybody's cards from the step they were shown at the
showdown; a hand folded unseen never (its cards are not stored at all). Staff see every card the events hold.
The live table's view rules say the same (tables/engine/views.py); the check over many deals is
tests/history/test_replay_sight.py.

Each `Step` is one event the viewer may see, with the whole table as it stood after it (`Frame`): the page draws a
frame like the live table, and the text export (tables/hand_text.py) prints each step's line.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from .engine.cards import parse_hand
from .engine.points import hand_points
from .models import Deal, DealEvent, DealSeat

STAFF = "staff"  # the viewer who sees every card the events hold
# The engine's reasons (a pot's, a seat's sitting out), marked for the catalogue: a line says them in the viewer's
# language (the text export in English, tables/history_views.py).
REASONS = {
    "best hand": gettext_noop("best hand"),
    "all others folded": gettext_noop("all others folded"),
    "all checked (D17)": gettext_noop("all checked (D17)"),
    "split": gettext_noop("split"),
    "less than one ante (D16)": gettext_noop("less than one ante (D16)"),
    "no New deal in time": gettext_noop("no New deal in time"),
}


@dataclass(frozen=True, slots=True)
class SeatFrame:
    seat: int
    name: str
    bot: bool
    stack: int
    level: int = 0  # put in beyond the ante in this deal
    status: str = "playing"  # playing, folded, all_in
    cards: tuple[str | None, str | None, str | None] = (None, None, None)  # None: face down for this viewer
    opened: int = 0  # how many cards he has open (everybody knows the count)
    shown: bool = False
    points: float | None = None
    hand_name: str | None = None


@dataclass(frozen=True, slots=True)
class Frame:
    pot: int
    dealer: int | None
    seats: tuple[SeatFrame, ...]
    phase: str = "betting"


@dataclass(frozen=True, slots=True)
class Step:
    kind: str  # the event's type
    line: str  # what happened, in words (one line of the text export)
    seat: int | None  # who acted, if one seat did
    frame: Frame
    version: int = 0  # the table's version the event came with (its place in the table's story)


@dataclass(frozen=True, slots=True)
class Replay:
    deal: Deal
    viewer: int | str | None  # his seat in this deal, or STAFF
    seats: tuple[DealSeat, ...]
    steps: tuple[Step, ...] = field(default=())

    def to_json(self) -> dict:
        return {"viewer": self.viewer, "steps": [asdict(step) for step in self.steps]}


def viewer_seat(deal: Deal, user) -> int | str | None:
    """The viewer's seat in the deal, STAFF for staff who did not play it, None for anyone else."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    seat = next((s.seat for s in deal.players.all() if s.user_id == user.pk), None)
    if seat is not None and not user.is_staff:
        return seat
    return STAFF if user.is_staff else None


def build(deal: Deal, viewer: int | str | None) -> Replay:
    """The deal's steps for `viewer` (a seat of the deal, STAFF, or None: only what every player saw)."""
    stored = list(
        DealEvent.objects.filter(table_id=deal.table_id, deal_number=deal.number, svara=deal.svara)
        .order_by("version", "index")
        .values_list("version", "event")
    )
    seats = tuple(sorted(deal.players.all(), key=lambda s: s.seat))
    family = deal.table.family
    return Replay(deal, viewer, seats, tuple(_steps(deal, family, viewer, seats, stored)))


def _names(seats, events) -> dict[int, str]:
    names = {s.seat: s.name for s in seats}
    for event in events[:1]:
        if event["type"] == "deal_started":
            for seat, name in zip(event["seats"], event.get("names", ()), strict=False):
                names.setdefault(seat, name)
    return names


def _steps(deal, family, viewer, seats, stored):
    names = _names(seats, [event for _, event in stored])
    steps: list[Step] = []  # gathered, not yielded: an "opened" rewrites the frame of the card_opened before it
    table: dict[int, SeatFrame] = {
        s.seat: SeatFrame(s.seat, s.name, s.bot, s.stack) for s in seats
    }
    pot = deal.previous.pot if deal.svara and deal.previous_id else 0
    dealer = None
    phase = "svara_buy_in" if deal.svara else "betting"

    def who(seat) -> str:
        return names.get(seat, f"seat {seat + 1}")

    def put(seat, **changes):
        if seat not in table:  # a seat the stored players do not name (a history older than them)
            table[seat] = SeatFrame(seat, who(seat), False, 0)
        table[seat] = replace(table[seat], **changes)

    def looked_points(seat):
        cards = table[seat].cards
        if None in cards:
            return None, None
        p = hand_points(family, parse_hand(" ".join(cards)))
        return p.points, p.name

    sees_all = viewer == STAFF
    last_private = None  # (seat, index) of a card_opened the viewer saw: its "opened" is the same step
    for version, event in stored:
        kind = event["type"]
        seat = event.get("seat")
        line = None
        match kind:
            case "deal_started":
                dealer = event["dealer"]
                for s in event["seats"]:
                    put(s)
                players = ", ".join(_("%(name)s (seat %(seat)s, %(stack)s)") % {
                    "name": who(s), "seat": s + 1, "stack": table[s].stack} for s in event["seats"])
                line = _("Deal %(deal)s at table %(table)s (%(family)s, ante %(ante)s), dealer %(dealer)s; %(players)s") % {
                    "deal": deal.number, "table": deal.table_id, "family": _(family), "ante": deal.table.ante,
                    "dealer": who(dealer), "players": players}  # fmt: skip
            case "ante":
                for s in event["seats"]:
                    put(s, stack=table.get(s, SeatFrame(s, who(s), False, 0)).stack - event["ante"])
                pot = event["pot"]
                line = _("%(names)s put in the ante of %(ante)s (pot %(pot)s)") % {
                    "names": ", ".join(who(s) for s in event["seats"]), "ante": event["ante"], "pot": pot}  # fmt: skip
            case "card_opened":
                if not (sees_all or viewer == seat):
                    continue
                cards = list(table[seat].cards)
                cards[event["index"]] = event["card"]
                put(seat, cards=tuple(cards))
                points, name = looked_points(seat)
                put(seat, points=points, hand_name=name)
                last_private = (seat, event["index"])
                line = _("%(name)s opens card %(n)s: %(card)s") % {"name": who(seat), "n": event["index"] + 1,
                                                                     "card": event["card"]}  # fmt: skip
            case "opened":
                put(seat, opened=event["count"])
                if last_private is not None and last_private[0] == seat:
                    last_private = None
                    steps[-1] = replace(steps[-1], frame=_frame(pot, dealer, table, phase))
                    continue
                line = _("%(name)s opens a card (%(count)s of 3 open)") % {"name": who(seat), "count": event["count"]}
            case "bet" | "call" | "raise" | "blind" | "dark":
                put(seat, level=event["level"], stack=event["stack"])
                pot = event["pot"]
                said = {"bet": _("%(name)s bets %(amount)s (level %(level)s, pot %(pot)s)"),
                        "call": _("%(name)s calls %(amount)s (level %(level)s, pot %(pot)s)"),
                        "raise": _("%(name)s raises to %(amount)s (level %(level)s, pot %(pot)s)"),
                        "blind": _("%(name)s bets blind %(amount)s (level %(level)s, pot %(pot)s)"),
                        "dark": _("%(name)s bets in the dark %(amount)s (level %(level)s, pot %(pot)s)")}[kind]
                if kind == "blind" and event.get("unblind"):
                    said = _("%(name)s looks and doubles to %(amount)s (level %(level)s, pot %(pot)s)")
                amount = event["added"] if kind == "call" else event["level"]
                line = said % {"name": who(seat), "amount": amount, "level": event["level"], "pot": pot}  # fmt: skip
            case "check":
                line = _("%(name)s checks") % {"name": who(seat)}
            case "fold":
                put(seat, status="folded")
                line = (_("%(name)s folds (left the table)") if event.get("leaving") else _("%(name)s folds")) % {
                    "name": who(seat)}  # fmt: skip
            case "all_in":
                put(seat, status="all_in")
                line = _("%(name)s is all-in at level %(level)s") % {"name": who(seat), "level": event["level"]}
            case "levels_returned":
                for s, chips in event["returned"].items():
                    s = int(s)
                    put(s, stack=table[s].stack + chips, level=table[s].level - chips)
                pot = event["pot"]
                given = ", ".join(_("%(chips)s to %(name)s") % {"chips": chips, "name": who(int(s))}
                                  for s, chips in event["returned"].items())  # fmt: skip
                line = _("Levels above %(level)s go back (D6): %(given)s (pot %(pot)s)") % {
                    "level": event["level"], "given": given, "pot": pot}  # fmt: skip
            case "timeout":
                clock = {"move": _("to move"), "show": _("to show"), "split": _("to split or play on"),
                         "buy_in": _("to buy into the svara")}.get(event["clock"], event["clock"])  # fmt: skip
                line = _("Time ran out %(clock)s for %(names)s") % {
                    "clock": clock, "names": ", ".join(who(s) for s in event["seats"]) or _("nobody")}  # fmt: skip
            case "showdown_shown":
                phase = "showdown"
                put(seat, cards=tuple(event["cards"]), shown=True, points=event["points"],
                    hand_name=event.get("hand_name"))  # fmt: skip
                name = f" ({_(event['hand_name'])})" if event.get("hand_name") else ""
                line = _("%(name)s shows %(cards)s: %(points)s") % {
                    "name": who(seat), "cards": " ".join(event["cards"]), "points": _num(event["points"]) + name}  # fmt: skip
            case "folded_unseen":
                put(seat, status="folded")
                line = _("%(name)s folds unseen") % {"name": who(seat)}
            case "split_chosen":
                line = _("%(name)s wants to split") % {"name": who(seat)}
            case "play_on_chosen":
                line = _("%(name)s wants to play on") % {"name": who(seat)}
            case "svara":
                phase = "svara"
                line = _("Tie: svara %(n)s for %(names)s (pot %(pot)s, buy-in %(price)s)") % {
                    "n": event["chain"], "names": ", ".join(who(s) for s in event["seats"]), "pot": event["pot"],
                    "price": event["price"]}  # fmt: skip
            case "buy_in":
                put(seat, stack=event["stack"])
                pot = event["pot"]
                line = _("%(name)s buys into the svara for %(price)s (pot %(pot)s)") % {
                    "name": who(seat), "price": event["price"], "pot": pot}  # fmt: skip
            case "declined":
                line = _("%(name)s declines the svara") % {"name": who(seat)}
            case "svara_dealt":
                dealer = event["dealer"]
                phase = "betting"
                for s in event["seats"]:
                    put(s)
                line = _("Svara %(n)s dealt to %(names)s, dealer %(dealer)s (pot %(pot)s)") % {
                    "n": event["chain"], "names": ", ".join(who(s) for s in event["seats"]), "dealer": who(dealer),
                    "pot": event["pot"]}  # fmt: skip
            case "pot_awarded" | "split":
                phase = "over"
                for w in event["winners"]:
                    put(w["seat"], stack=table[w["seat"]].stack + w["amount"])
                shares = ", ".join(_("%(name)s takes %(amount)s") % {"name": who(w["seat"]), "amount": w["amount"]}
                                   for w in event["winners"])  # fmt: skip
                values = {"shares": shares, "pot": event["pot"], "rake": event["rake"],
                          "reason": _(REASONS.get(event["reason"], event["reason"]))}  # fmt: skip
                line = (_("%(shares)s (pot %(pot)s, rake %(rake)s): %(reason)s") if event["rake"]
                        else _("%(shares)s (pot %(pot)s): %(reason)s")) % values  # fmt: skip
                pot = 0
            case "deal_ended":
                phase = "over"
                line = _("The deal is over")
            case "stood":
                line = (_("%(name)s stands up (folds; the seat frees after the deal)") if event.get("leaving")
                        else _("%(name)s stands up")) % {"name": who(seat)}  # fmt: skip
            case "sat_out":
                line = (_("%(name)s sits out (%(reason)s)") if event.get("reason") else _("%(name)s sits out")) % {
                    "name": who(seat), "reason": _(REASONS.get(event.get("reason"), event.get("reason") or ""))}  # fmt: skip
            case _:
                line = kind.replace("_", " ") + (f": {who(seat)}" if seat is not None else "")
        last_private = None if kind != "card_opened" else last_private
        step = Step(kind, line, seat if isinstance(seat, int) else None, _frame(pot, dealer, table, phase), version)
        steps.append(step)
    return steps


def _num(points) -> str:
    return f"{points:g}"


def _frame(pot, dealer, table, phase) -> Frame:
    return Frame(pot, dealer, tuple(table[s] for s in sorted(table)), phase)
