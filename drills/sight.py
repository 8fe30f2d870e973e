"""What a client may see, stated once more from the rules and checked frame by frame against the stored truth.

This is deliberately not the engine's view function (tables/engine/views.py) called again: it restates the rules
(D1: a player learns his own card when he opens it; §6: shown hands are everybody's, a hand folded unseen is
nobody's; a spectator sees no hidden card) and compares every frame a client received with the truth stored at
the frame's version (drills/truth.py). Any card a frame holds where the rules do not put one is a leak, and so
is a card that differs from the truth, a seat that is not the viewer's, points of a hand the viewer may not see,
or the stored text itself.

`plant` is the checker's self-check: it turns an honest frame into a leaking one in each of the ways a view could
leak (as a deliberately leaking view function would), and the drill proves every planted leak is caught.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass

from tables.engine.cards import ALL_CARDS
from tables.engine.seat import ALL_OPENED

CARD = re.compile(r"^(?:[6-9]|10|[JQKA])[♠♥♦♣]$")
# Only the stored text names these keys together: a frame holding it holds every card dealt.
STORED_TEXT = re.compile(r'"format"|"cards"\s*:\s*\[\s*\d')


@dataclass(frozen=True, slots=True)
class Leak:
    table_id: int
    version: int | None
    viewer: int | None  # the user id, None for a spectator
    where: str
    what: str

    def __str__(self) -> str:
        who = "a spectator" if self.viewer is None else f"user {self.viewer}"
        return f"table {self.table_id} v{self.version}, {who}, {self.where}: {self.what}"


def card_text(index: int) -> str:
    return str(ALL_CARDS[index])


def seat_of(state, user_id: int | None) -> int | None:
    if user_id is None:
        return None
    for index, seat in enumerate(state.seats):
        if seat.player is not None and seat.player == str(user_id):
            return index
    return None


def may_see(state, seat_index: int, card: int, viewer_seat: int | None) -> bool:
    """D1 and §6: a shown hand is public (a hand folded unseen never is); an unshown card only to its owner, and
    only once he opened it."""
    s = state.seats[seat_index]
    if s.shown and not s.unseen:
        return True
    return seat_index == viewer_seat and bool(s.opened >> card & 1)


def dealt(state, seat_index: int) -> bool:
    s = state.seats[seat_index]
    return state.phase != "waiting" and s.in_deal and s.cards is not None


class Checker:
    """Checks frames of one table against its truth; counts what it checked and collects the leaks."""

    def __init__(self, truth):
        self.truth = truth
        self.leaks: list[Leak] = []
        self.frames = 0
        self.cards_seen = 0  # cards frames showed, each one checked against the truth
        self.unverifiable = 0
        self.shown_to: dict[int, int] = {}  # a player's last snapshot version: his next one's events span since

    def check(self, message: dict, viewer: int | None) -> list[Leak]:
        before = len(self.leaks)
        self.frames += 1
        kind = message.get("type")
        version = message.get("version")
        allowed: set[tuple] = set()  # where cards may stand in this frame (each place checked on its own)
        if kind == "snapshot":
            allowed = self._snapshot(message, viewer) | self._history(message, viewer) | self._events(message, viewer)
            if viewer is not None and isinstance(version, int):
                self.shown_to[viewer] = version
        self._stray_cards(message, allowed, viewer, version)
        self._server_seed(message, viewer, version)
        return self.leaks[before:]

    def _server_seed(self, message: dict, viewer, version) -> None:
        """The server seed of the running (or coming) deal is the server's alone until that deal is over: whoever
        knew it could read every card of the deal (docs/fair.md). Only its commitment may be in a frame."""
        state = self.truth.state(version) if isinstance(version, int) else None
        seed = getattr(state, "server_seed", None)
        if not seed:
            return
        for path, value in _strings(message, ()):
            if seed in value.lower():
                self._leak(version, viewer, "/".join(map(str, path)), "the server seed of the running deal")

    def _leak(self, version, viewer, where: str, what: str) -> None:
        self.leaks.append(Leak(self.truth.table_id, version, viewer, where, what))

    def _state_at(self, version, viewer):
        state = self.truth.state(version) if isinstance(version, int) else None
        if state is None:
            self.unverifiable += 1
            self._leak(version, viewer, "version", "no stored truth at this version: the frame cannot be checked")
        return state

    # --- a snapshot ---

    def _snapshot(self, message: dict, viewer) -> set[tuple]:
        version = message.get("version")
        state = self._state_at(version, viewer)
        if state is None:
            return set()
        me = seat_of(state, viewer)
        view = message.get("state")
        if not isinstance(view, dict):
            self._leak(version, viewer, "state", f"not a view but {type(view).__name__}")
            return set()
        if message.get("seat") != me or view.get("you") != me:
            self._leak(version, viewer, "seat", f"frame says seat {message.get('seat')}/{view.get('you')}, "
                                                f"the truth {me}")
        seats = view.get("seats") or []
        if len(seats) != len(state.seats):
            self._leak(version, viewer, "seats", f"{len(seats)} seats, the truth {len(state.seats)}")
            return set()
        allowed = set()
        for i, out in enumerate(seats):
            s = state.seats[i]
            if s.player is None:
                if out is not None:
                    self._leak(version, viewer, f"seat {i}", "an empty seat shows a player")
                continue
            if not isinstance(out, dict):
                self._leak(version, viewer, f"seat {i}", "a seated player is missing")
                continue
            expected = []
            if dealt(state, i):
                expected = [card_text(c) if may_see(state, i, k, me) else None for k, c in enumerate(s.cards)]
            cards = out.get("cards")
            if cards != expected:
                self._leak(version, viewer, f"seat {i} cards", f"{cards}, the rules allow {expected}")
            self.cards_seen += sum(c is not None for c in expected)
            allowed.update(("seat", i, k) for k, c in enumerate(expected) if c is not None and cards
                           and k < len(cards) and cards[k] == c)
            whole = dealt(state, i) and ((s.shown and not s.unseen) or (i == me and s.opened == ALL_OPENED))
            if not whole and (out.get("points") is not None or out.get("hand_name") is not None):
                self._leak(version, viewer, f"seat {i} points", f"{out.get('points')} {out.get('hand_name')!r} "
                                                                "of a hand this viewer may not see whole")
        allowed |= self._last_result(view.get("last_result"), state, version, viewer)
        return allowed

    def _last_result(self, result, state, version, viewer) -> set[tuple]:
        if state.result is None:
            if result is not None:
                self._leak(version, viewer, "last_result", "a result the truth does not hold")
            return set()
        if not isinstance(result, dict):
            self._leak(version, viewer, "last_result", "missing")
            return set()
        deal_no = state.result[0]
        before = self.truth.before_award(deal_no)
        allowed = set()
        shown_seats = set()
        for n, hand in enumerate(result.get("shown") or []):
            seat = hand.get("seat") if isinstance(hand, dict) else None
            if before is None or not isinstance(seat, int) or not 0 <= seat < len(before.seats):
                self._leak(version, viewer, "last_result", f"shown hand {hand!r} cannot be checked")
                continue
            s = before.seats[seat]
            truth = [card_text(c) for c in s.cards] if s.cards is not None else None
            if s.unseen or s.folded or hand.get("cards") != truth:
                self._leak(version, viewer, f"last_result shown seat {seat}",
                           f"{hand.get('cards')} (folded {s.folded}, unseen {s.unseen}, held {truth})")
                continue
            shown_seats.add(seat)
            self.cards_seen += 3
            allowed.update(("result", n, k) for k in range(3))
        for winner in result.get("winners") or []:
            if isinstance(winner, dict) and winner.get("seat") not in shown_seats and (
                    winner.get("points") is not None or winner.get("hand_name") is not None):
                self._leak(version, viewer, "last_result winners", f"points of an unshown hand: {winner!r}")
        return allowed

    # --- events ---

    def _events(self, message: dict, viewer) -> set[tuple]:
        """The events a snapshot carries: those of the change it shows, or of a run of changes committed together
        (an action and its standing answers, notify.coalesced): checked against every state since the player's
        last snapshot (a spectator's socket is not told apart from another's: a run's bound)."""
        version = message.get("version")
        if not message.get("events") or not isinstance(version, int):
            return set()
        state = self.truth.state(version)
        if state is None:  # the snapshot's own check has said so
            return set()
        from tables.services.door import STANDING_ANSWERS_MAX  # Django is set up once frames come

        since = self.shown_to.get(viewer) if viewer is not None else None
        # Otherwise the most changes one door call commits: an action and its standing answers.
        span = version - since if since is not None and since < version else 1 + STANDING_ANSWERS_MAX
        states = [state] + [self.truth.state(v) for v in range(version - 1, max(version - 1 - span, -1), -1)]
        return self._logged_cards(message.get("events"), "event", states, version, viewer)

    # --- the history a first snapshot carries (a reloaded page's log of the running deal) ---

    def _history(self, message: dict, viewer) -> set[tuple]:
        """The log's cards, checked against the stored truth of every version of the deal up to this one."""
        history = message.get("history")
        version = message.get("version")
        if not isinstance(history, dict) or not isinstance(version, int):
            return set()
        past = self._deal_states(version)  # newest first, with the state just before the deal last
        if not past:
            return set()
        return self._logged_cards(history.get("log"), "history", past, version, viewer)

    def _logged_cards(self, events, place: str, states: list, version, viewer) -> set[tuple]:
        """The cards of a list of events (a snapshot's, or a reloaded page's log): a card the viewer's own seat
        opened, private to him, or a hand shown, each held in one of `states` (newest first; for a shown hand, in
        the change between two neighbours). The allowed places are (place, event's index, card's index)."""
        me = seat_of(states[0], viewer)
        where = "history log" if place == "history" else "event"
        allowed = set()
        for n, event in enumerate(events or []):
            if not isinstance(event, dict):
                continue
            private_to = event.get("private_to")
            if private_to is not None and private_to != me:
                self._leak(version, viewer, f"{where} {n}", f"private to seat {private_to}, the viewer is at {me}")
                continue
            kind = event.get("type")
            if kind == "card_opened":
                seat, index = event.get("seat"), event.get("index")
                held = {_opened_card(s, seat, index) for s in states if s is not None} - {None}
                if private_to != me or seat != me or event.get("card") not in held:
                    self._leak(version, viewer, f"{where} {n} card_opened",
                               f"{event.get('card')} of seat {seat} (viewer at {me}, held {sorted(held)})")
                    continue
                self.cards_seen += 1
                allowed.add((place, n, 0))
            elif kind == "showdown_shown":
                seat, cards = event.get("seat"), event.get("cards")
                pairs = zip(states, states[1:], strict=False)
                if not any(self._shown_at(now, before, seat, cards) for now, before in pairs):
                    self._leak(version, viewer, f"{where} {n} showdown_shown",
                               f"{cards} of seat {seat}, not a hand shown at this version")
                    continue
                self.cards_seen += 3
                allowed.update((place, n, k) for k in range(3))
        return allowed

    def _deal_states(self, version: int, limit: int = 5000) -> list:
        states, deal = [], None
        while version >= 0 and len(states) < limit:
            state = self.truth.state(version)
            if state is None:
                break
            states.append(state)
            if deal is None:
                deal = state.deal_no
            elif state.deal_no != deal:
                break  # the state just before the deal: a hand shown at the deal's first change needs it
            version -= 1
        return states

    @staticmethod
    def _shown_at(state, before, seat, cards) -> bool:
        """A hand shown in the change from `before` to `state`, with the cards it held: still shown now (and not
        folded unseen); or, if the deal ended in this change, among the stored result's shown hands; or, if a
        svara dealt anew in this change, a hand that was in the deal and not folded just before."""
        if not isinstance(seat, int) or not isinstance(cards, list) or before is None:
            return False
        if not 0 <= seat < len(before.seats) or before.seats[seat].cards is None:
            return False
        held = before.seats[seat]
        if [card_text(c) for c in held.cards] != cards or not held.in_deal or held.folded or held.unseen:
            return False
        now = state.seats[seat]
        if state.in_deal and now.cards == held.cards:
            return now.shown and not now.unseen
        if state.in_deal:  # a svara: the tied hands were shown, then new cards dealt
            return state.svara_chain > before.svara_chain
        shown = state.last_result["shown"] if state.result is not None else []
        return any(h["seat"] == seat and h["cards"] == cards for h in shown)

    # --- anything else ---

    def _stray_cards(self, message: dict, allowed: set[tuple], viewer, version) -> None:
        """Every card anywhere in the frame must stand in a place checked above; the stored text never appears."""
        for path, value in _strings(message, ()):
            if CARD.match(value):
                place = _place(path)
                if place is None or place not in allowed:
                    self._leak(version, viewer, "/".join(map(str, path)), f"card {value} where none may be")
            elif STORED_TEXT.search(value):
                self._leak(version, viewer, "/".join(map(str, path)), "the stored text of the state")


def _card_at(state, seat, index):
    if not isinstance(seat, int) or not isinstance(index, int) or not 0 <= seat < len(state.seats):
        return None
    cards = state.seats[seat].cards
    return card_text(cards[index]) if cards is not None and 0 <= index < len(cards) else None


def _opened_card(state, seat, index):
    """The card at that place if its seat had opened it in this state (D1: an own card is known once opened)."""
    card = _card_at(state, seat, index)
    return card if card is not None and state.seats[seat].opened >> index & 1 else None


def _strings(value, path):
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _strings(item, (*path, index))


def _place(path: tuple) -> tuple | None:
    """Where a card string stands, in the terms `allowed` uses."""
    match path:
        case ("state", "seats", int(seat), "cards", int(k)):
            return ("seat", seat, k)
        case ("state", "last_result", "shown", int(n), "cards", int(k)):
            return ("result", n, k)
        case ("events", int(n), "card"):
            return ("event", n, 0)
        case ("events", int(n), "cards", int(k)):
            return ("event", n, k)
        case ("history", "log", int(n), "card"):
            return ("history", n, 0)
        case ("history", "log", int(n), "cards", int(k)):
            return ("history", n, k)
    return None


# --- the self-check: leaks planted into honest frames ---

LEAK_KINDS = ("own_unopened", "others_unopened", "spectator_hidden", "folded_unseen", "folded_unseen_result",
              "points", "stored_text", "private_event", "history_log", "server_seed")


def plant(kind: str, message: dict, viewer: int | None, truth) -> dict | None:
    """The frame a leaking view would have sent instead of `message`: one hidden thing of `kind` added, from the
    truth. None when this frame has nothing of that kind to leak (e.g. no folded-unseen hand at this version)."""
    version = message.get("version")
    state = truth.state(version) if isinstance(version, int) else None
    if state is None:
        return None
    me = seat_of(state, viewer)
    if kind == "private_event":
        if message.get("type") != "snapshot" or not message.get("events"):
            return None
        for i, s in enumerate(state.seats):
            if i != me and dealt(state, i) and not (s.shown and not s.unseen):
                forged = copy.deepcopy(message)
                forged["events"].append({"type": "card_opened", "seat": i, "index": 0,
                                         "card": card_text(s.cards[0]), "private_to": i})
                return forged
        return None
    if message.get("type") != "snapshot":
        return None
    if kind == "history_log":
        return _with_history_card(message, state, me, Checker(truth)._deal_states(version))
    if kind == "server_seed":
        forged = copy.deepcopy(message)
        forged["state"]["fair"] = {**forged["state"].get("fair", {}), "server_seed": state.server_seed}
        return forged
    if kind == "stored_text":
        forged = copy.deepcopy(message)
        forged["state"]["debug"] = truth.versions[version].state
        return forged
    if kind == "folded_unseen_result":
        before = truth.before_award(state.result[0]) if state.result is not None else None
        for i, s in enumerate(before.seats if before is not None else ()):
            if s.unseen and s.cards is not None:
                forged = copy.deepcopy(message)
                forged["state"]["last_result"]["shown"].append(
                    {"seat": i, "cards": [card_text(c) for c in s.cards], "points": None, "hand_name": None})
                return forged
        return None
    for i, s in enumerate(state.seats):
        if not dealt(state, i):
            continue
        for k, card in enumerate(s.cards):
            if may_see(state, i, k, me):
                continue
            hidden = card_text(card)
            if kind == "own_unopened" and i == me and not s.folded:
                return _with_seat(message, i, k, hidden)
            if kind == "others_unopened" and me is not None and i != me and not s.unseen:
                return _with_seat(message, i, k, hidden)
            if kind == "spectator_hidden" and me is None and not s.unseen:
                return _with_seat(message, i, k, hidden)
            if kind == "folded_unseen" and s.unseen:
                return _with_seat(message, i, None, [card_text(c) for c in s.cards])
            if kind == "points" and not s.unseen:
                p = state._points(i)
                forged = copy.deepcopy(message)
                forged["state"]["seats"][i]["points"], forged["state"]["seats"][i]["hand_name"] = p.points, p.name
                return forged
    return None


def _with_history_card(message: dict, state, me: int | None, past: list) -> dict | None:
    """A reloaded page's log that names a card its viewer has not opened (as if it were his own opened card); not
    one he opened earlier in this deal's svara chain, which an honest log names too."""
    for i, s in enumerate(state.seats):
        if not dealt(state, i):
            continue
        for k, card in enumerate(s.cards):
            opened_before = any(_opened_card(p, i, k) == card_text(card) for p in past)
            if not may_see(state, i, k, me) and not (i == me and opened_before):
                forged = copy.deepcopy(message)
                history = forged.setdefault("history", {})
                if not isinstance(history, dict):
                    return None
                history.setdefault("log", []).append(
                    {"type": "card_opened", "seat": i, "index": k, "card": card_text(card), "private_to": me})
                return forged
    return None


def _with_seat(message: dict, seat: int, k: int | None, cards) -> dict:
    forged = copy.deepcopy(message)
    if k is None:
        forged["state"]["seats"][seat]["cards"] = cards
    else:
        forged["state"]["seats"][seat]["cards"][k] = cards
    return forged
