"""`python -m tables.engine simulate`: random legal play, deal after deal, with the invariants checked in the loop.

    python -m tables.engine simulate --family classic --players 6 --deals 100000 --seed 1

Random players press New deal, open cards, check, bet, call, raise, fold, play blind / dark, show or fold at the
showdown, split or play on, buy into svaras, let clocks run out, and now and then stand up and sit again.
Prints one JSON object: deals, deals_per_second, svaras, splits, longest_svara_chain, invariant_violations.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from .actions import MOVE_KINDS, Action, IllegalAction
from .events import ChipsAdded, DealEnded, Event, Seated, SeatVacated, Split, Svara
from .play import TableState
from .rules import MAX_SEATS, MAX_STACK_ANTES, MIN_BUY_IN_ANTES, MIN_SEATS

GAME_KINDS = MOVE_KINDS - {"open"}  # the random players open cards on their own schedule


class RandomTable:
    """A table of random players, with the chip count it must keep (stacks + pot + rake)."""

    def __init__(self, family: str, players: int, ante: int = 10, *, seed: int | None = None,
                 timeouts: float = 0.05, leaving: float = 0.002, bots: bool = False) -> None:
        self.rng = random.Random(seed)
        self.state = TableState.new(family, ante, players)
        # Whether the players who sit are bots (no rake, RULES §8); seat 0 stays a person's, for bots never deal
        # among themselves.
        self.bots = bots
        self.timeouts = timeouts
        self.leaving = leaving
        self.chips = 0  # chips that came to the table and have not left it
        self.deals = self.svaras = self.splits = 0
        self.chain = self.longest_chain = 0
        self.violations: list[str] = []
        self.next_player = 0
        for seat in range(players):
            self._sit(seat)

    def _sit(self, seat: int) -> None:
        ante = self.state.ante
        amount = self.rng.randint(MIN_BUY_IN_ANTES, MAX_STACK_ANTES) * ante
        self.next_player += 1
        self.apply(Action("sit", seat=seat, player=f"p{self.next_player}", name=f"P{self.next_player}", amount=amount,
                          bot=self.bots and seat != 0))

    def apply(self, action: Action) -> list[Event]:
        events = self.state.apply(action, self.rng)
        for event in events:
            match event:
                case Seated(stack=stack):
                    self.chips += stack
                case ChipsAdded(amount=amount):
                    self.chips += amount
                case SeatVacated(stack=stack):
                    self.chips -= stack
                case DealEnded():
                    self.deals += 1
                    self.longest_chain = max(self.longest_chain, self.chain)
                    self.chain = 0
                case Svara(chain=chain):
                    self.svaras += 1
                    self.chain = chain
                case Split():
                    self.splits += 1
        self.check_invariants()
        return events

    def check_invariants(self) -> None:
        state = self.state
        total = state.pot + state.rake_taken
        for s in state.seats:
            if s.stack < 0:
                self.violations.append(f"negative stack {s.stack} at version {state.version}")
            total += s.stack
        if total != self.chips:
            self.violations.append(f"chips {total} != {self.chips} at version {state.version}")
            self.chips = total  # report once, not on every later action
        if state.pot < 0:
            self.violations.append(f"negative pot at version {state.version}")
        if state.cap >= 0 and state.turn >= 0:
            if any(lg.kind == "raise" for lg in state.legal_actions(state.turn)):
                self.violations.append(f"a raise is legal after an all-in at version {state.version}")

    def step(self) -> None:
        """One random legal action (or a timeout, or a seat change)."""
        state = self.state
        rng = self.rng
        if state.phase == "waiting":
            self._between_deals()
            return
        if rng.random() < self.leaving:
            seated = [i for i, s in enumerate(state.seats) if s.player is not None and not s.leaving]
            if seated:
                self.apply(Action("stand", seat=rng.choice(seated)))
                return
        if rng.random() < self.timeouts:  # every phase of a deal runs a clock
            self.apply(Action("timeout"))
            return
        if state.phase == "split_choice":
            seat = rng.choice(state.clock.seats)
        else:
            seat = state.turn
        legal = state.legal_actions(seat)
        opening = [lg for lg in legal if lg.kind == "open"]
        if opening and rng.random() < 0.3:
            lg = opening[0]
            self.apply(Action("open", seat=seat, card=lg.min))
            return
        moves = [lg for lg in legal if lg.kind in GAME_KINDS]
        lg = rng.choice(moves)
        amount = None
        if lg.min is not None and lg.max != lg.min:
            amount = lg.min if rng.random() < 0.6 else rng.randint(lg.min, min(lg.max, lg.min * 4))
        self.apply(Action(lg.kind, seat=seat, amount=amount))

    def _between_deals(self) -> None:
        state = self.state
        rng = self.rng
        ante = state.ante
        for i, s in enumerate(state.seats):
            if s.player is None:
                self._sit(i)
                return
            if s.stack < ante or (s.stack < MIN_BUY_IN_ANTES * ante and rng.random() < 0.5):
                self.apply(Action("add_chips", seat=i, amount=MAX_STACK_ANTES * ante - s.stack))
                return
            if s.sitting_out and s.stack >= ante:
                self.apply(Action("back", seat=i))
                return
        if state.clock is not None and rng.random() < self.timeouts:
            self.apply(Action("timeout"))
            return
        for i, s in enumerate(state.seats):
            if not s.ready and not s.sitting_out and s.stack >= ante:
                self.apply(Action("new_deal", seat=i))
                return
        raise AssertionError("a table of random players is stuck between deals")

    def play_deals(self, deals: int) -> None:
        while self.deals < deals:
            self.step()


def run(args: argparse.Namespace) -> int:
    players = args.players
    if not MIN_SEATS <= players <= MAX_SEATS[args.family]:
        print(f"a {args.family} table seats {MIN_SEATS} to {MAX_SEATS[args.family]}", file=sys.stderr)
        return 2
    table = RandomTable(args.family, players, args.ante, seed=args.seed)
    started = time.perf_counter()
    try:
        table.play_deals(args.deals)
    except IllegalAction as error:  # a random legal action refused: a bug, counted as a violation
        table.violations.append(f"legal action refused: {error}")
    elapsed = time.perf_counter() - started
    result = {
        "family": args.family, "players": players, "seed": args.seed,
        "deals": table.deals, "deals_per_second": round(table.deals / elapsed, 1) if elapsed else None,
        "svaras": table.svaras, "splits": table.splits, "longest_svara_chain": table.longest_chain,
        "rake_taken": table.state.rake_taken, "invariant_violations": len(table.violations),
    }
    if table.violations:
        result["first_violations"] = table.violations[:5]
    print(json.dumps(result))
    return 1 if table.violations else 0


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "simulate", help="play random legal deals and check the invariants",
        description="Play random legal deals at one table and print a JSON summary.",
    )
    add_arguments(parser)
    parser.set_defaults(run=run)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--family", choices=("classic", "bulgarian"), default="classic")
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--ante", type=int, default=10)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tables.engine simulate")
    add_arguments(parser)
    return run(parser.parse_args(argv))
