"""Fair decks per second (tables/engine/fair.py, docs/fair.md) vs the plain CSPRNG shuffle it replaced, same process.

    python -m bench fair [--decks 20000] [--rounds 7]

Fair: `FairShuffle` of a fresh server seed over a deal's message with three players' seeds (HMAC-SHA256 stream,
rejection sampling, Fisher-Yates), the whole classic deck of 36. Baseline: `secrets.SystemRandom().shuffle` of the
same list (what the engine dealt with before). Rounds alternate, each side's median is kept. Target: at least
2,000 fair decks a second on one core (half a millisecond a deck; the door spends several milliseconds on a
single action), so the fair deck costs nothing a table would notice. Exit status 1 when it misses.
"""

from __future__ import annotations

import argparse
import json
import secrets
import statistics
import time

from tables.engine.dealing import deck_indexes
from tables.engine.fair import FairShuffle, new_server_seed

TARGET_DECKS_PER_SECOND = 2_000
SEEDS = [(0, "ab" * 16), (2, "cd" * 16), (4, "ef" * 16)]


def fair_decks(decks: int) -> float:
    start = time.perf_counter()
    for n in range(decks):
        cards = deck_indexes("classic")
        FairShuffle(new_server_seed(), "classic", n + 1, 0, SEEDS).shuffle(cards)
    return decks / (time.perf_counter() - start)


def plain_decks(decks: int) -> float:
    rng = secrets.SystemRandom()
    start = time.perf_counter()
    for _ in range(decks):
        cards = deck_indexes("classic")
        rng.shuffle(cards)
    return decks / (time.perf_counter() - start)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench fair")
    parser.add_argument("--decks", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args(argv)
    fair, plain = [], []
    for _ in range(args.rounds):
        fair.append(fair_decks(args.decks // args.rounds))
        plain.append(plain_decks(args.decks // args.rounds))
    result = {
        "fair_decks_per_second": round(statistics.median(fair)),
        "system_random_decks_per_second": round(statistics.median(plain)),
        "fair_vs_system_random": round(statistics.median(fair) / statistics.median(plain), 2),
        "target_fair_decks_per_second": TARGET_DECKS_PER_SECOND,
    }
    print(json.dumps(result))
    return 0 if result["fair_decks_per_second"] >= TARGET_DECKS_PER_SECOND else 1
