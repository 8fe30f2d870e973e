"""Whole random deals per second through the engine vs PokerKit's random no-limit hold'em hands, same process.

    python -m bench deals [--deals 3000] [--hands 3000] [--seed 1] [--no-roundtrip]

Engine: a 6-seat classic table of random legal players (blind rounds, svaras, buy-ins, timeouts included). The
state is kept as the table server keeps it: before every action it is loaded from its stored JSON text and after
it written back (`json.dumps(state.to_json())` / `TableState.from_json(json.loads(...))`), because the server
loads, applies and stores on every action (ARCHITECTURE.md "How a move flows").
Baseline: PokerKit 0.7.7 `NoLimitTexasHoldem`, 6 players, every automation on, random legal actions.
Target (issue 3): the engine at least 10× PokerKit's hands per second. Exit status 1 when it misses.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from tables.engine.play import TableState
from tables.engine.simulate import RandomTable

TARGET_RATIO = 10.0


def engine_deals_per_second(deals: int, seed: int, roundtrip: bool) -> tuple[float, int]:
    table = RandomTable("classic", 6, 10, seed=seed, leaving=0.0)
    dumps, loads, from_json = json.dumps, json.loads, TableState.from_json
    stored = dumps(table.state.to_json(), separators=(",", ":"))
    started = time.perf_counter()
    while table.deals < deals:
        if roundtrip:
            table.state = from_json(loads(stored))
        table.step()
        if roundtrip:
            stored = dumps(table.state.to_json(), separators=(",", ":"))
    elapsed = time.perf_counter() - started
    if table.violations:
        raise SystemExit(f"invariant violated during the bench: {table.violations[:3]}")
    return deals / elapsed, len(stored)


def pokerkit_hands_per_second(hands: int, seed: int) -> float:
    from pokerkit import Automation, Mode, NoLimitTexasHoldem

    automations = (
        Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING, Automation.HOLE_DEALING, Automation.BOARD_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING, Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING, Automation.RUNOUT_COUNT_SELECTION,
    )
    rng = random.Random(seed)
    started = time.perf_counter()
    for _ in range(hands):
        state = NoLimitTexasHoldem.create_state(
            automations, True, 0, (5, 10), 10, (1000,) * 6, 6, mode=Mode.CASH_GAME,
        )
        while state.status:
            moves = []
            if state.can_fold() and state.checking_or_calling_amount:  # folding for free only warns
                moves.append("fold")
            if state.can_check_or_call():
                moves.append("call")
            if state.can_complete_bet_or_raise_to():
                moves.append("raise")
            move = rng.choice(moves)
            if move == "fold":
                state.fold()
            elif move == "call":
                state.check_or_call()
            else:
                low = state.min_completion_betting_or_raising_to_amount
                high = state.max_completion_betting_or_raising_to_amount
                state.complete_bet_or_raise_to(low if rng.random() < 0.6 else rng.randint(low, high))
    return hands / (time.perf_counter() - started)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench deals", description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-roundtrip", dest="roundtrip", action="store_false",
                        help="keep the state in memory instead of a JSON round trip around every action")
    args = parser.parse_args(argv)
    engine, stored_bytes = engine_deals_per_second(args.deals, args.seed, args.roundtrip)
    baseline = pokerkit_hands_per_second(args.hands, args.seed)
    ratio = engine / baseline
    print(json.dumps({
        "engine_deals_per_second": round(engine, 1),
        "json_roundtrip_per_action": args.roundtrip,
        "stored_state_bytes": stored_bytes,
        "pokerkit_hands_per_second": round(baseline, 1),
        "ratio": round(ratio, 2),
        "target_ratio": TARGET_RATIO,
        "meets_target": ratio >= TARGET_RATIO,
    }))
    return 0 if ratio >= TARGET_RATIO else 1
