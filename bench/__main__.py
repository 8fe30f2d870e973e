"""`python -m bench <name> [options]` runs one benchmark; `python -m bench` runs every benchmark present.

Each benchmark is a module `bench/<name>.py` exposing `main(argv: list[str]) -> int` (the exit status: non-zero
when the figure misses its target). Add a new one to BENCHMARKS; a listed module that does not exist yet is
skipped when running all, and refused by name.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys

BENCHMARKS = {
    "points": "hand scores per second vs treys 5-card evaluations (bench/points.py)",
    "deals": "whole deals per second through the engine (bench/deals.py)",
    "bots": "chips won per 100 deals by the strong bot in each match-up, with 95 % intervals (bench/bots.py)",
    "ledger": "chip transfers per second through the wallet vs bare row writes (bench/ledger.py)",
    "storage": "the stored format's dumps + loads per action, keyed format 5 vs positional format 4 (bench/storage.py)",
    "fair": "fair decks per second (HMAC-SHA256 stream, rejection sampling) vs secrets.SystemRandom (bench/fair.py)",
    "door": "table actions per second through the one door (lock, engine, ledger) vs the engine alone (bench/door.py)",
    "history": "the hand history pages with 100,000 stored deals vs a bare page (bench/history.py)",
    "standings": "the leaderboard and a busy player's profile with 100,000 stored deals, and beat's tally "
                 "(bench/standings.py)",
    "limits": "sit + stand through the door without vs with a player's own cap and loss limit (bench/limits.py)",
    "live": "real deals over real WebSockets on a production-like deployment vs an echo consumer and pgbench "
            "(bench/live.py)",
}


def _present(name: str) -> bool:
    return importlib.util.find_spec(f"bench.{name}") is not None


def _usage() -> str:
    lines = ["usage: python -m bench [NAME [options]]", "", "benchmarks:"]
    for name, what in BENCHMARKS.items():
        lines.append(f"  {name:<8} {what}{'' if _present(name) else '  [not written yet]'}")
    lines.append("\nWith no NAME, every benchmark present runs with its default options.")
    return "\n".join(lines)


def run(name: str, argv: list[str]) -> int:
    module = importlib.import_module(f"bench.{name}")
    return int(module.main(argv) or 0)


def main(argv: list[str]) -> int:
    if argv and argv[0] in ("-h", "--help"):
        print(_usage())
        return 0
    if argv:
        name, rest = argv[0], argv[1:]
        if name not in BENCHMARKS:
            print(f"no such benchmark: {name!r}\n\n{_usage()}", file=sys.stderr)
            return 2
        if not _present(name):
            print(f"benchmark {name!r} is not written yet (bench/{name}.py)", file=sys.stderr)
            return 2
        return run(name, rest)
    status = 0
    for name in BENCHMARKS:
        if not _present(name):
            print(f"# {name}: bench/{name}.py is not written yet, skipped\n")
            continue
        print(f"# {name}")
        status = max(status, run(name, []))
        print()
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
