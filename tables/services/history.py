"""Hand histories: a `Deal` row opens at `deal_started` and closes at `deal_ended`; every event in between is
appended as a `DealEvent` row (one insert per action, nothing rewritten). The deal's players are `DealSeat` rows,
inserted with the deal and given their results when it ends, in the door's transaction. The row opens with the
deal's commitment and its chain's first row closes with the fairness record (docs/fair.md): the server seed is
revealed only then.

A svara is a deal of its own (RULES §7): the deal it came out of closes at the `svara` event and the svara's row
opens there, linked to it (`Deal.previous`); its players are the tied, and each buyer joins at his `buy_in`."""

from __future__ import annotations

from dataclasses import dataclass

from .. import reads
from ..engine.events import (
    Ante,
    BuyIn,
    ChipsAdded,
    DealEnded,
    DealStarted,
    Event,
    LevelsReturned,
    PotAwarded,
    Seated,
    SeatVacated,
    Split,
    Svara,
    _Award,
    _Put,
)  # fmt: skip
from ..engine.fair import FairRecord, commitment
from ..models import Deal, DealEvent, DealSeat, Table
from . import statements
from .statements import Closing, Opening

AWARDS = (PotAwarded, Split)  # the events that award a pot (a split awards it too, rake and all: §7, §8)


@dataclass(frozen=True, slots=True)
class Sitter:
    """Who held a seat when the action began (a deal's players cannot change within one action)."""

    player: str | None
    name: str
    bot: bool


def roster(state) -> tuple[Sitter, ...]:
    """Each seat's holder before an action is applied: a seat vacated by the action's deal end keeps its name."""
    return tuple(Sitter(s.player, s.name or "", bool(s.bot)) for s in state.seats)


def record(
    table: Table, deal_before: int | None, svara_before: int, version: int, events: list[Event], now,
    sitters: tuple[Sitter, ...] = (), stacks: dict[int, int] | None = None, fair: FairRecord | None = None,
    openings: list[Opening] | None = None, ended: Ended | None = None,
) -> list[DealEvent]:  # fmt: skip
    """One action's events as the rows to append to the deal they belong to (the door writes them with the state:
    statements.write_action); a deal's rows (Deal, DealSeat) open and close here. `deal_before` is the number of the
    deal running before the action (None between deals), `svara_before` its place in a svara chain: events between
    deals (sitting down, pressing New deal) belong to no deal. `sitters` (roster) and `stacks` (seat: stack, before
    the action) name the players and their stacks when a deal starts; `fair` is the state's fairness record after
    the action (of the deal it started or ended). With `openings`, a deal started is not inserted here but added to
    that list, for the caller's own statement to insert: only for an action that starts a deal and does nothing
    else to a deal's rows (a buy-in or a svara needs the new row's id here). With `ended`, likewise a deal (not a
    svara) ended is closed from the stored events it holds and added to its list (optimistic.py)."""
    deal, svara = deal_before, svara_before if deal_before is not None else 0
    running = dict(stacks or {})  # each seat's stack as the events go (what a deal's start shows)
    rows = []
    opened: dict[tuple[int, int], int] = {}  # the ids of the deals opened in this action, by (number, svara)
    for index, event in enumerate(events):
        if isinstance(event, DealStarted):
            deal, svara = event.deal_no, 0
            committed = commitment(fair.server_seed) if fair is not None and fair.deal_no == deal else ""
            opening = _opening(table, deal, 0, None, event.seats, sitters, running, now, committed)
            if openings is None:
                opened[deal, 0] = statements.open_deal(opening)
            else:
                openings.append(opening)
        if deal is None:
            _follow_stacks(running, event)
            continue
        rows.append(DealEvent(table_id=table.pk, deal_number=deal, svara=svara, version=version, index=index,
                              event=event.to_json()))  # fmt: skip
        if isinstance(event, BuyIn):
            running[event.seat] = event.stack + event.price  # his stack when he joined the svara
            _join(table, opened.get((deal, svara)) or _deal_id(table, deal, svara), event.seat, sitters, running, now)
        _follow_stacks(running, event)
        if isinstance(event, Svara):
            _close(table, deal, svara, rows, now, tied=event.seats)
            previous = opened.get((deal, svara)) or _deal_id(table, deal, svara)
            svara = event.chain
            opening = _opening(table, deal, svara, previous, event.seats, sitters, running, now)
            opened[deal, svara] = statements.open_deal(opening)
        elif isinstance(event, DealEnded):
            _close(table, deal, svara, rows, now, fair=fair if fair is not None and fair.deal_no == deal else None,
                   ended=ended)  # fmt: skip
            deal, svara = None, 0
    return rows


def _follow_stacks(running: dict[int, int], event: Event) -> None:
    match event:
        case Ante(seats=seats, ante=ante):
            for seat in seats:
                running[seat] = running.get(seat, ante) - ante
        case _Put(seat=seat, stack=stack) | BuyIn(seat=seat, stack=stack) | ChipsAdded(seat=seat, stack=stack):
            running[seat] = stack
        case Seated(seat=seat, stack=stack):
            running[seat] = stack
        case SeatVacated(seat=seat):
            running.pop(seat, None)
        case LevelsReturned(returned=returned):
            for seat, chips in returned.items():
                running[seat] = running.get(seat, 0) + chips
        case _Award(winners=winners):
            for winner in winners:
                running[winner.seat] = running.get(winner.seat, 0) + winner.amount


def _deal_id(table: Table, number: int, svara: int) -> int:
    return Deal.objects.filter(table=table, number=number, svara=svara).values_list("pk", flat=True).get()


def _opening(table, number, svara, previous, seats, sitters, running, now, committed: str = "") -> Opening:
    """The deal's row (a deal's own, not a svara's, with its commitment: docs/fair.md) and its players'."""
    deal = Deal(table=table, number=number, svara=svara, previous_id=previous, started_at=now, commitment=committed)
    return Opening(deal, [_seat_row(table, None, seat, sitters, running, now) for seat in seats])


def _join(table, deal_id: int, seat, sitters, running, now) -> None:
    """A svara's buyer joins its players (RULES §7)."""
    DealSeat.objects.bulk_create([_seat_row(table, deal_id, seat, sitters, running, now)])


def _seat_row(table, deal_id, seat, sitters, running, now) -> DealSeat:
    sitter = sitters[seat] if seat < len(sitters) else Sitter(None, "", False)
    return DealSeat(
        deal_id=deal_id, user_id=int(sitter.player), table=table, family=table.family, started_at=now, seat=seat,
        name=sitter.name, bot=sitter.bot, stack=max(running.get(seat, 0), 0),
    )  # fmt: skip


@dataclass
class Result:
    """What one deal brought one seat (a DealSeat's result fields)."""

    put_in: int = 0
    antes: int = 0
    won: int = 0
    tied: bool = False


def results(events: list[dict], tied: tuple[int, ...] = ()) -> dict[int, Result]:
    """Each seat's chips in and out of one deal (or svara), from its events' JSON."""
    by_seat: dict[int, Result] = {}

    def of(seat) -> Result:
        return by_seat.setdefault(int(seat), Result())

    for event in events:
        kind = event["type"]
        if kind == "ante":
            for seat in event["seats"]:
                of(seat).put_in += event["ante"]
                of(seat).antes += event["ante"]
        elif kind in ("bet", "call", "raise", "blind", "dark"):
            of(event["seat"]).put_in += event["added"]
        elif kind == "buy_in":
            of(event["seat"]).put_in += event["price"]
        elif kind == "levels_returned":
            for seat, chips in event["returned"].items():
                of(seat).put_in -= chips
        elif kind in ("pot_awarded", "split"):
            for winner in event["winners"]:
                of(winner["seat"]).won += winner["amount"]
    for seat in tied:
        of(seat).tied = True
    return by_seat


@dataclass
class Ended:
    """For `record` from a move without the lock: the deal's events stored before the action (read by the caller),
    and the closing of the deal, once `record` has made it, for the caller's statement."""

    stored: list[dict]
    closings: list[Closing]


def _close(table: Table, number: int, svara: int, new_rows: list[DealEvent], now, tied: tuple[int, ...] = (),
           fair: FairRecord | None = None, ended: Ended | None = None):
    """The deal's pot, rake and winners from its awards, its players' results from its events (those stored, and
    those of this action): one read and one statement (two on SQLite); with `ended`, neither (the caller's read, the
    caller's statement). At the chain's end, `fair` (the server seed revealed, the seeds, every deck dealt) goes to
    its first row: with it in the same update, or one more for a svara's end."""
    stored = reads.deal_events(table.pk, number, svara=svara) if ended is None else ended.stored
    events = [*stored, *(r.event for r in new_rows if r.deal_number == number and r.svara == svara)]
    kinds = {kind.type for kind in AWARDS}
    awards = [e for e in events if e["type"] in kinds]
    pot = max((e["pot"] for e in awards), default=0)
    if tied:  # ended in a tie: its pot carries over to the svara, nobody won it
        pot = next((e["pot"] for e in reversed(events) if e["type"] == "svara"), 0)
    record = {} if fair is None else {"server_seed": fair.server_seed, "seeds": [list(p) for p in fair.seeds],
                                      "decks": [d.to_json() for d in fair.decks]}
    closed = {"ended_at": now, "pot": pot, "rake": sum(e["rake"] for e in awards),
              "winners": [w for e in awards for w in e["winners"]], **(record if svara == 0 else {})}  # fmt: skip
    by_seat = results(events, tied)
    closing = Closing(number, svara, closed, {seat: _row(r, svara) for seat, r in by_seat.items()},
                      _row(Result(), svara))  # fmt: skip
    if ended is not None:
        ended.closings.append(closing)
        return
    statements.close_deal(table.pk, closing)
    if record and svara:  # a svara chain's end: its first row keeps the fairness record
        Deal.objects.filter(table=table, number=number, svara=0).update(**record)


def _row(r: Result, svara: int) -> tuple:
    """A seat's result as statements.close_deal takes it (its _RESULT_COLUMNS, in order)."""
    # played: beyond the ante (a bet, call, raise, blind or dark bet); in a svara (no ante) any chip, a buy-in too
    return r.put_in, r.won, r.won - r.put_in, r.won > 0, r.put_in > r.antes, r.tied, svara > 0 and r.won > 0
