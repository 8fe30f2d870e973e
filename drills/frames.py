"""The frame audit: nobody ever receives a card he may not see yet.

    python -m drills.frames [--deals 1000] [--tables 8] [--seats 4] [--spectators 2] [--keep]

Starts the production-like deployment of bench/live_stack.py (its own Redis and PostgreSQL database, two daphne,
a worker, beat), keeps every stored version of every table (drills/truth.py), seats scripted players at tables of
both families (half classic, half bulgarian) with anonymous spectators beside them, all over real WebSockets
through both daphne processes, and plays until `--deals` deals ended. Then every frame every client received is
checked against the stored truth at the frame's version (drills/sight.py): a player's own card only after he
opened it, another's only when shown, a hand folded unseen never, spectators nothing hidden, no points of a
hidden hand, never the stored text. The checker checks itself: leaks of every kind are planted into real frames
(as a leaking view function would send them) and each must be caught. Finally the books (drills/chips.py).

Prints the figures and one JSON line; exits 1 on any leak, a planted leak not caught, a kind of leak that could
not be planted, no deal played, an error in a server log, or books that do not add up.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from collections import Counter

from bench.live_stack import Stack

from . import chips, crowd, sight, truth
from .crowd import loadavg, say

CLOCK_SCALE = "0.25"  # clocks at a quarter: a forgotten Show/Fold folds unseen in 0.75 s, so the run sees many


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="python -m drills.frames", description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000, help="deals to play and audit (default 1000)")
    parser.add_argument("--tables", type=int, default=8, help="tables, classic and bulgarian by turns (8)")
    parser.add_argument("--seats", type=int, default=4, help="players a table (4)")
    parser.add_argument("--spectators", type=int, default=2, help="anonymous spectators a table (2)")
    parser.add_argument("--ante", type=int, default=10)
    parser.add_argument("--timeout", type=float, default=1800, help="seconds to reach --deals (1800)")
    parser.add_argument("--plant-every", type=int, default=50, help="plant leaks into every Nth frame (50)")
    parser.add_argument("--keep", action="store_true", help="keep the database, logs and frames")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.tables < 2 or not 2 <= args.seats <= 6 or args.spectators < 1:
        parser.error("at least 1 deal, 2 tables (one of each family), 2 to 6 seats and 1 spectator a table")
    return args


def audit(client: crowd.ClientProcess, truths: dict, plant_every: int) -> dict:
    """Every recorded frame against the truth; leaks planted into every `plant_every`th frame."""
    checkers = {table_id: sight.Checker(t) for table_id, t in truths.items()}
    frames = Counter()
    planted, caught = Counter(), Counter()
    leaks: list[sight.Leak] = []
    missing_tables = set()
    for n, (table_id, user, _, message) in enumerate(client.frames()):
        checker = checkers.get(table_id)
        if checker is None:
            missing_tables.add(table_id)
            continue
        frames[f"{'player' if user is not None else 'spectator'}:{message.get('type')}"] += 1
        leaks += checker.check(message, user)
        for kind in sight.LEAK_KINDS:
            # Every frame until a kind has 200 planted (some chances are rare), then every plant_every-th.
            if planted[kind] < 200 or n % plant_every == 0:
                forged = sight.plant(kind, message, user, checker.truth)
                if forged is None:
                    continue
                planted[kind] += 1
                if sight.Checker(checker.truth).check(forged, user):
                    caught[kind] += 1
    return {
        "frames": sum(frames.values()), "frames_by_kind": dict(sorted(frames.items())),
        "cards_checked": sum(c.cards_seen for c in checkers.values()),
        "unverifiable": sum(c.unverifiable for c in checkers.values()),
        "leaks": len(leaks), "leak_samples": [str(leak) for leak in leaks[:10]],
        "planted": dict(planted), "caught": dict(caught), "tables_without_truth": sorted(missing_tables),
    }


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    started = time.monotonic()
    report: dict = {"drill": "frames", "args": vars(args), "load_start": loadavg()}
    failures: list[str] = []
    stack = Stack(keep=args.keep, echo=False, say=say, extra_env={"SVARA_CLOCK_SCALE": CLOCK_SCALE})
    client = None
    try:
        people, client = crowd.deploy(stack, args)
        ready = client.start()
        from django.db import connection  # after deploy: Django is set up there

        say(f"  seated in {ready:.1f} s; playing to {args.deals} deals")
        last = [time.monotonic(), 0]

        def progress(done):
            if time.monotonic() - last[0] >= 30:
                say(f"  {done} deals, load {loadavg()}")
                last[0] = time.monotonic()

        done = crowd.wait_deals(people.tables, args.deals, args.timeout, client, stack, progress=progress)
        report["load_end_of_play"] = loadavg()
        result = client.stop()
        stack.check_alive()
        report["client"] = {k: v for k, v in result.items() if k != "outages"}
        say(f"  {done} deals ended; {result['frames']:,} frames received by {result['sockets']} sockets "
            f"in {result['seconds']:.0f} s; load {report['load_end_of_play']}")
        if done < args.deals:
            failures.append(f"only {done} of {args.deals} deals in {args.timeout:.0f} s")
        say("# the audit")
        with connection.cursor() as cursor:
            truths = truth.read(cursor, people.tables)
        rewritten = sum(v.rewritten for t in truths.values() for v in t.versions.values())
        deals_audited = sum(t.deals_played() for t in truths.values())
        figures = audit(client, truths, args.plant_every)
        figures.update(deals_audited=deals_audited, versions=sum(len(t.versions) for t in truths.values()),
                       versions_rewritten=rewritten)
        report["audit"] = figures
        say(f"  deals audited: {deals_audited:,} ({figures['versions']:,} stored versions)")
        say(f"  frames checked: {figures['frames']:,} {figures['frames_by_kind']}")
        say(f"  cards checked against the truth: {figures['cards_checked']:,}")
        say(f"  leaks: {figures['leaks']}")
        for line in figures["leak_samples"]:
            say(f"    {line}")
        say("  self-check, leaks planted → caught: " + ", ".join(
            f"{kind} {figures['planted'].get(kind, 0)}→{figures['caught'].get(kind, 0)}" for kind in sight.LEAK_KINDS))
        if figures["leaks"]:
            failures.append(f"{figures['leaks']} leaks")
        for kind in sight.LEAK_KINDS:
            if not figures["planted"].get(kind):
                failures.append(f"self-check: no {kind} leak could be planted")
            elif figures["caught"].get(kind, 0) != figures["planted"][kind]:
                failures.append(f"self-check: {figures['planted'][kind] - figures['caught'].get(kind, 0)} planted "
                                f"{kind} leaks not caught")
        if rewritten:
            failures.append(f"{rewritten} versions written twice with different states")
        if figures["tables_without_truth"]:
            failures.append(f"frames of tables with no stored truth: {figures['tables_without_truth']}")
        if not deals_audited:
            failures.append("no deal was played")
        failures += [f"client: {code} ×{n}" for code, n in result["failures"].items()
                     if not code.startswith("socket:")]
        books = chips.check_books(people.tables)
        report["books"] = {"ok": books.ok, "chips_lost": books.chips_lost, "transfers_doubled":
                           books.transfers_doubled, "audit_problems": books.audit_problems[:5],
                           "table_mismatches": books.table_mismatches[:5]}
        for line in chips.books_lines(books):
            say(line)
        if not books.ok:
            failures.append("the books do not add up")
        logs = stack.log_report()
        report["server_logs"] = logs
        for name, found in logs.items():
            if found["Traceback"] or found["ERROR"]:
                failures.append(f"{name}'s log: {found['Traceback']} tracebacks, {found['ERROR']} errors "
                                f"{found['lines'][:2]} ({found['log']})")
    except KeyboardInterrupt:
        failures.append("interrupted")
    except Exception as failure:  # noqa: BLE001 - reported as the drill's failure, with the stack stopped
        failures.append(f"{type(failure).__name__}: {failure}")
    finally:
        if client is not None and not args.keep:
            client.clean()
        stack.stop()
    report.update(failures=failures, seconds=round(time.monotonic() - started, 1), load_end=loadavg())
    say(f"# {'FAILED' if failures else 'passed'} in {report['seconds']:.0f} s; load {report['load_end']}")
    for line in failures:
        say(f"  FAILED: {line}")
    print(json.dumps(report, default=str), flush=True)
    return 1 if failures else 0


def _interrupt(signum, frame):
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
