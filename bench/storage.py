"""The stored format's price per action: the engine's keyed format (format 6 since the standing choices; a keyed JSON
object, cards by name, tables/engine/storage.py) vs
format 4 (the positional JSON array it replaced, frozen below), both written and read by orjson.

    python -m bench storage [--deals 300] [--rounds 15] [--seed 1] [--family classic] [--seats 6]

The states are those of random legal play (bench/deals.py's players) after every action, a table of 6 (by default)
with every seat playing every deal. Each round writes every state in one format then the other (alternating which
goes first), then reads every text back; each side's median over the rounds is kept. Printed: microseconds per
action for dumps, loads and both, for each format, the difference, the sizes, and what a per-process memo of decoded
states (the door had one until issue 10) would save per action: one loads (never the dumps).
A door action costs milliseconds (bench door), so 2 % of it is well above the difference.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import orjson

from bench.deals import random_action
from tables.engine.play import Action, TableState
from tables.engine.seat import Seat

# --- format 4, frozen as it was before format 5 (tables/engine/play.py at commit 3b9ee34) ------------------------
_FIELDS_4 = (
    "version", "family", "ante", "has_bot", "pot", "rake_taken", "button", "dealer", "deal_no", "phase", "turn",
    "bet_level", "cap", "blind_last", "must_open", "first_move", "pending", "last_caller", "last_checker",
    "antes_only", "best", "svara_chain", "price", "svara_pot", "svara_dealer",
)
_LISTS_4 = ("order", "show_queue", "tied", "offers", "buyers")
_PHASES = frozenset(("waiting", "betting", "blind_round", "dark_round", "showdown", "split_choice", "svara_buy_in"))
_new = object.__new__


def dumps_4(self) -> str:
    return orjson.dumps((
        4, self.version, self.family, self.ante, self.has_bot, self.pot, self.rake_taken,
        self.button, self.dealer, self.deal_no, self.phase, self.turn, self.bet_level, self.cap,
        self.blind_last, self.must_open, self.first_move, self.pending, self.last_caller, self.last_checker,
        self.antes_only, self.best, self.svara_chain, self.price, self.svara_pot, self.svara_dealer,
        self.order, self.show_queue, self.tied, self.offers, self.buyers, self.result,
        [None if s.player is None else (
            s.player, s.name, s.stack, s.sitting_out, s.ready, s.leaving, s.in_deal, s.cards, s.opened,
            s.level, s.folded, s.all_in, s.blind, s.shown, s.unseen, s.choice,
        ) for s in self.seats],
    )).decode()


def _seat_from_row_4(row: list) -> Seat:
    seat = _new(Seat)
    (
        seat.player, seat.name, seat.stack, seat.sitting_out, seat.ready, seat.leaving, seat.in_deal, seat.cards,
        seat.opened, seat.level, seat.folded, seat.all_in, seat.blind, seat.shown, seat.unseen, seat.choice,
    ) = row
    seat.bot = False  # format 4 kept the table's has_bot only (derived from the seats since)
    seat.deal_me_in, seat.if_losing, seat.on_tie = False, None, None  # standing choices came with format 6
    return seat


def loads_4(text: str) -> TableState:
    try:
        data = orjson.loads(text)
    except (orjson.JSONDecodeError, TypeError) as error:
        raise ValueError(f"a stored table state is JSON text: {error}") from None
    if type(data) is not list or len(data) != len(_FIELDS_4) + len(_LISTS_4) + 3 or type(data[0]) is not int \
            or data[0] != 4:
        raise ValueError("not a stored table state of format 4")
    state = _new(TableState)
    (
        _, state.version, state.family, state.ante, _has_bot, state.pot, state.rake_taken, state.button,
        state.dealer, state.deal_no, state.phase, state.turn, state.bet_level, state.cap, state.blind_last,
        state.must_open, state.first_move, state.pending, state.last_caller, state.last_checker,
        state.antes_only, state.best, state.svara_chain, state.price, state.svara_pot, state.svara_dealer,
        state.order, state.show_queue, state.tied, state.offers, state.buyers, state.result, rows,
    ) = data
    state._legals = None
    if (type(state.family) is not str or state.family not in ("classic", "bulgarian") or type(state.phase) is not str
            or state.phase not in _PHASES or type(state.version) is not int or type(rows) is not list):
        raise ValueError("a broken stored table state: its version, family, phase or seats")
    if not 2 <= len(rows) <= (6 if state.family == "classic" else 8):
        raise ValueError("a broken stored table state: the number of seats")
    seats = []
    for row in rows:
        if row is None:
            seats.append(Seat())
        elif type(row) is list and len(row) == 16:
            seats.append(_seat_from_row_4(row))
        else:
            raise ValueError("a broken stored table state: a seat is not a row of its fields")
    state.seats = seats
    return state


FORMATS = {4: (dumps_4, loads_4), 5: (TableState.dumps, TableState.loads)}


# --- the states of random play ----------------------------------------------------------------------------------
def played_states(deals: int, seed: int, family: str, seats: int) -> list[TableState]:
    """A fresh TableState after every action of `deals` random deals (bench/deals.py's random players)."""
    rng = random.Random(seed)
    ante = 10
    state = TableState.new(family, ante, seats)
    for seat in range(seats):
        state.apply(Action("sit", seat=seat, player=f"{1000 + seat}", name=f"Player {seat}", amount=100 * ante))
    states = []
    while state.deal_no < deals or state.phase != "waiting":
        action = random_action(state, rng, ante)
        state.apply(action, rng)
        states.append(TableState.loads(state.dumps()))  # a copy: `state` goes on changing
    return states


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench storage", description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--family", choices=("classic", "bulgarian"), default="classic")
    parser.add_argument("--seats", type=int, default=6)
    args = parser.parse_args(argv)
    states = played_states(args.deals, args.seed, args.family, args.seats)
    for fmt, (dumps, loads) in FORMATS.items():  # both formats give back the same state
        for state in states[:: max(1, len(states) // 200)]:
            again = loads(dumps(state))
            if again.dumps() != state.dumps():
                raise SystemExit(f"format {fmt} did not give the state back")
    timings = {fmt: {"dumps": [], "loads": []} for fmt in FORMATS}
    sizes = {fmt: [len(dumps(s)) for s in states] for fmt, (dumps, _) in FORMATS.items()}
    clock = time.perf_counter
    for k in range(args.rounds):
        order = list(FORMATS) if k % 2 == 0 else list(reversed(FORMATS))
        for fmt in order:
            dumps, loads = FORMATS[fmt]
            started = clock()
            texts = [dumps(s) for s in states]
            middle = clock()
            for text in texts:
                loads(text)
            ended = clock()
            timings[fmt]["dumps"].append((middle - started) / len(states) * 1e6)
            timings[fmt]["loads"].append((ended - middle) / len(states) * 1e6)
    report = {"actions": len(states), "rounds": args.rounds, "family": args.family, "seats": args.seats}
    for fmt in FORMATS:
        dumps_us = statistics.median(timings[fmt]["dumps"])
        loads_us = statistics.median(timings[fmt]["loads"])
        report[f"format_{fmt}"] = {
            "dumps_us": round(dumps_us, 2), "loads_us": round(loads_us, 2), "both_us": round(dumps_us + loads_us, 2),
            "bytes_mean": round(statistics.mean(sizes[fmt])), "bytes_max": max(sizes[fmt]),
        }
    report["format_5_minus_4_us_per_action"] = round(report["format_5"]["both_us"] - report["format_4"]["both_us"], 2)
    report["memo_saves_us_per_action"] = report["format_5"]["loads_us"]  # a memo hit skips one loads
    print(json.dumps(report, indent=1))
    return 0
