"""`python -m bench bots [--deals N] [--jobs J] [--only NAME]`: how much the strong bot wins, in antes per 100 deals.

Every match-up plays N deals straight through the engine (`tables.engine.play`, no Django) with fixed seeds:
both families, heads-up and 6-handed; the strong bot against always-call, random legal play, the easy bot, and
itself (6-handed: one strong bot against five of the other kind; six strong bots for the self match). Each deal
starts from fresh 100-ante stacks (deals are independent samples) and the strong bot's seat rotates every deal,
so the dealer's position evens out. A deal runs to its end, svaras included; bot tables take no rake (§8).

The figure is the mean of the strong bot's per-deal result ×100, with a 95 % interval mean ± 1.96·sd/√n.
Targets: every match-up against another kind above zero (the whole interval), the self match containing zero.
The exit status is 1 when a target is missed. It also prints decisions per second (the cost of a bot's move).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from functools import partial

from tables.engine.play import Action, TableState
from tables.engine.strategy import SEAT_KINDS, decide

ANTE = 10
STACK_ANTES = 100
MAX_STEPS = 2000  # per deal; a deal that never ends is a bug, not a figure
OPPONENTS = ("call", "random", "easy", "strong")


# --- the players: each answers (view, legal, rng) -> action dict ------------------------------------------------


def play_always_call(view, legal, rng):
    """Calls anything, never bets or raises; shows at a showdown, splits ties, declines svara buy-ins."""
    kinds = {item.kind: item for item in legal}
    for kind in ("new_deal", "show", "split", "decline", "check", "call"):
        if kind in kinds:
            return {"kind": kind}
    for kind in ("blind", "dark", "bet"):  # a double owed (blind round) or the bulgarian bet after a dark bet
        if kind in kinds:
            return {"kind": kind, "amount": kinds[kind].min}
    if "open" in kinds:
        return {"kind": "open", "card": kinds["open"].min}
    return {"kind": sorted(kinds)[0], "amount": kinds[sorted(kinds)[0]].min}


def play_random(view, legal, rng):
    """Any legal action, uniformly; amounts uniform between the legal bounds (but always presses New deal)."""
    kinds = {item.kind: item for item in legal if item.kind not in SEAT_KINDS}
    if "new_deal" in kinds:
        return {"kind": "new_deal"}
    item = rng.choice(list(kinds.values()))
    if item.kind == "open":
        return {"kind": "open", "card": item.min}  # the first closed card
    if item.kind in ("bet", "raise", "dark") and item.min is not None:
        return {"kind": item.kind, "amount": rng.randint(item.min, max(item.min, item.max or item.min))}
    return {"kind": item.kind}


def _bot(level):
    def play(view, legal, rng):
        return decide(view(), legal, rng, level)

    return play


PLAYERS = {"call": play_always_call, "random": play_random, "easy": _bot("easy"), "strong": _bot("strong")}


# --- one deal, one match-up -------------------------------------------------------------------------------------


def _view(state, seat):
    return state.view(seat)


def _to_action(seat: int, choice: dict) -> Action:
    return Action(choice["kind"], seat=seat, amount=choice.get("amount"), card=choice.get("card"))


def play_deal(family: str, kinds: list[str], deck_rng: random.Random, rngs: list[random.Random], counter) -> list[int]:
    """One deal from fresh stacks: returns every seat's result in chips."""
    state = TableState.new(family, ANTE, len(kinds))
    stack = STACK_ANTES * ANTE
    # Bots at every seat but the first (no rake, as at a bot table, RULES §8); the engine deals only with a person
    # in the deal (bots never deal among themselves), so seat 0 sits as one: the flag changes nothing else.
    for seat in range(len(kinds)):
        state.apply(Action("sit", seat=seat, player=str(seat + 1), name=f"p{seat}", amount=stack, bot=seat != 0))
    for seat in range(len(kinds)):
        state.apply(Action("new_deal", seat=seat), rng=deck_rng)
    steps = 0
    while state.phase != "waiting":
        steps += 1
        if steps > MAX_STEPS:
            raise RuntimeError(f"a deal did not end after {MAX_STEPS} actions: {state.view(None)}")
        clock = state.clock
        acted = False
        for seat in clock.seats if clock is not None else ():
            legal = state.legal_actions(seat)
            if not legal:
                continue
            # The view is built only for a player who reads it (the bots); it is the costly part.
            choice = PLAYERS[kinds[seat]](partial(_view, state, seat), legal, rngs[seat])
            counter[0] += 1
            state.apply(_to_action(seat, choice), rng=deck_rng)
            acted = True
            break
        if not acted:
            state.apply(Action("timeout"), rng=deck_rng)
    return [seat.stack - stack for seat in state.seats]


def run_matchup(family: str, seats: int, opponent: str, deals: int, seed: int) -> dict:
    deck_rng = random.Random(seed)
    rngs = [random.Random(seed * 31 + seat + 1) for seat in range(seats)]
    results = []
    counter = [0]
    started = time.perf_counter()
    for deal in range(deals):
        hero = deal % seats  # rotate the strong bot's seat so the dealer's position evens out
        kinds = [opponent] * seats
        kinds[hero] = "strong"
        results.append(play_deal(family, kinds, deck_rng, rngs, counter)[hero] / ANTE)
    seconds = time.perf_counter() - started
    n = len(results)
    mean = sum(results) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in results) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n) if n else 0.0
    return {
        "family": family,
        "seats": seats,
        "opponent": opponent,
        "deals": n,
        "antes_per_100": round(100 * mean, 2),
        "low": round(100 * (mean - half), 2),
        "high": round(100 * (mean + half), 2),
        "seed": seed,
        "decisions": counter[0],
        "seconds": round(seconds, 1),
    }


def meets_target(row: dict) -> bool:
    if row["opponent"] == "strong":
        return row["low"] <= 0 <= row["high"]
    return row["low"] > 0


def _print_row(row: dict) -> None:
    interval = f"[{row['low']:+.2f}, {row['high']:+.2f}]"
    target = "contains 0" if row["opponent"] == "strong" else "> 0"
    verdict = "ok" if meets_target(row) else "MISSED"
    print(
        f"{row['family']:<10} {row['seats']:>5} {row['opponent']:<9} {row['deals']:>8} "
        f"{row['antes_per_100']:>+10.2f} {interval:>20}  {target} {verdict}",
        flush=True,
    )


def _run(args):
    return run_matchup(*args)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench bots", description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000, help="deals per match-up (default 100000)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--family", choices=("classic", "bulgarian"), action="append")
    parser.add_argument("--seats", type=int, choices=(2, 6), action="append")
    parser.add_argument("--opponent", choices=OPPONENTS, action="append")
    args = parser.parse_args(argv)
    if args.deals < 2:
        parser.error("--deals must be at least 2 (an interval needs two samples)")
    jobs = []
    for f_index, family in enumerate(args.family or ("classic", "bulgarian")):
        for seats in args.seats or (2, 6):
            for o_index, opponent in enumerate(args.opponent or OPPONENTS):
                seed = args.seed * 1000 + f_index * 100 + seats * 10 + o_index
                jobs.append((family, seats, opponent, args.deals, seed))
    header = f"{'family':<10} {'seats':>5} {'strong vs':<9} {'deals':>8} {'antes/100':>10} {'95% interval':>20}  target"
    print(header)
    print("-" * len(header), flush=True)
    started = time.perf_counter()
    rows = []
    if args.jobs > 1 and len(jobs) > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            futures = [pool.submit(_run, job) for job in jobs]
            for future in as_completed(futures):  # each row as soon as its match-up ends (long runs)
                rows.append(future.result())
                _print_row(rows[-1])
    else:
        for job in jobs:
            rows.append(_run(job))
            _print_row(rows[-1])
    wall = time.perf_counter() - started
    rows.sort(key=lambda row: jobs.index((row["family"], row["seats"], row["opponent"], row["deals"], row["seed"])))
    print("\nin order:")
    for row in rows:
        _print_row(row)
    decisions = sum(row["decisions"] for row in rows)
    busy = sum(row["seconds"] for row in rows)
    print(f"\n{decisions} decisions in {busy:.0f} s of play ({decisions / max(busy, 1e-9):,.0f} per second per core, "
          f"deals and engine included); wall {wall:.0f} s on {args.jobs} process(es)")
    missed = [row for row in rows if not meets_target(row)]
    print(json.dumps({"benchmark": "bots", "deals": args.deals, "seed": args.seed, "matchups": rows,
                      "targets_met": not missed}, indent=1))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
