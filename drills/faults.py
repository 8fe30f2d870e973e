"""The fault drill: processes die and servers restart while many tables play; nothing is lost, nothing stops.

    python -m drills.faults [--kills 50] [--restarts N] [--tables 6] [--down 3] [--keep]

Starts the production-like deployment of bench/live_stack.py with a PostgreSQL server and a Redis of its own
(initdb/pg_ctl and redis-server on spare ports), two daphne, a worker and beat; keeps every stored version of every
table (drills/truth.py); seats scripted players at tables of both families, with spectators, over real
WebSockets through both daphne processes (drills/client.py: a client whose socket breaks opens another, resends
its unanswered message under the same id, and checks the first frame it gets). Some players now and then leave a
move to the clock (clocks run at a quarter of their length), so clocks run out all the time.

Then, round after round, it SIGKILLs one process (a daphne, the worker or beat, in turn), leaves it dead for
`--down` seconds and starts it again; every few rounds it restarts PostgreSQL (`pg_ctl stop -m fast`, start) or
Redis (SIGKILL, start: its data is gone) instead. Afterwards, everything up again and nobody doing anything by
hand, it checks:
- every table played on: a deal ended at each after the last fault;
- the books: audit_ledger clean, each table's ledger accounts equal to the engine's stacks and pot, no chip
  lost, no transfer doubled (drills/chips.py);
- every clock ran out within 3 s of its deadline while any one daphne, the worker or beat was dead (and while
  everything ran); the worst lateness across the restarts of PostgreSQL and Redis is reported beside it;
- every client's first frame after a reconnect was a whole snapshot; every message sent got an answer or its
  socket closed (nobody waits unanswered while a server is down); what clients were told during the outages;
- every frame every client received passed the frame audit (drills/sight.py).

Prints the figures and one JSON line; exits 1 when any check fails.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bench.live_stack import Stack

from . import chips, crowd, sight, truth
from .crowd import loadavg, say

CLOCK_SCALE = "0.25"  # a move 5 s, Show/Fold 0.75 s, split 2.5 s, a svara offer 2.5 s, New deal 7.5 s
SETTLE_GRACE = 2 * 5.0 + 7.5  # seconds: two move clocks and a New deal clock at CLOCK_SCALE
CLOCK_BOUND = 3.0  # seconds: how late a clock may run out while one process is dead (issue 11)
SINGLE = ("web1", "worker", "web2", "beat")  # SIGKILLed in turn
SERVERS = ("postgres", "redis")  # restarted in turn, one every `--restart-every` kills


@dataclass
class Fault:
    kind: str  # web1, web2, worker, beat (SIGKILL) or postgres, redis (restart)
    began: datetime
    ended: datetime | None = None  # when it served again

    def overlaps(self, start: datetime, end: datetime, grace: float = 0.0) -> bool:
        ended = (self.ended or datetime.now(UTC)) + timedelta(seconds=grace)
        return self.began <= end and start <= ended


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="python -m drills.faults", description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=50, help="SIGKILLs of a daphne, the worker or beat (50)")
    parser.add_argument("--restart-every", type=int, default=5,
                        help="after every Nth kill, restart PostgreSQL or Redis by turns (5)")
    parser.add_argument("--tables", type=int, default=6, help="tables, classic and bulgarian by turns (6)")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--spectators", type=int, default=1)
    parser.add_argument("--ante", type=int, default=10)
    parser.add_argument("--down", type=float, default=3.0, help="seconds a killed process stays dead (3)")
    parser.add_argument("--between", type=float, default=2.0, help="seconds between two faults, all up (2)")
    parser.add_argument("--settle", type=float, default=20.0,
                        help="seconds of play after the last fault before the checks (20)")
    parser.add_argument("--lazy", type=float, default=0.1,
                        help="how often a player leaves his move to the clock (0.1)")
    parser.add_argument("--port-base", type=int, default=18200,
                        help="PostgreSQL on this port, Redis on the next (18200)")
    parser.add_argument("--keep", action="store_true", help="keep the logs and the database directory")
    args = parser.parse_args(argv)
    if args.kills < 1 or args.tables < 2:
        parser.error("at least 1 kill and 2 tables (one of each family)")
    return args


def play_faults(args, stack: Stack, faults: list[Fault], say_every: float = 30.0) -> None:
    """The faults, one after the other; each is over when the process (or server) serves again."""
    kills = 0
    restarts = 0
    last_said = time.monotonic()
    planned = args.kills // args.restart_every if args.restart_every else 0
    while kills < args.kills or restarts < planned:
        if restarts < planned and kills and kills % args.restart_every == 0 and restarts < kills // args.restart_every:
            kind = SERVERS[restarts % len(SERVERS)]
            restarts += 1
            fault = Fault(kind, datetime.now(UTC))
            faults.append(fault)
            if kind == "postgres":
                stack.postgres.stop("fast")
                time.sleep(args.down)
                stack.postgres.start(stack.spawn)
            else:
                stack.kill("redis")
                time.sleep(args.down)
                stack.respawn("redis")
        else:
            kind = SINGLE[kills % len(SINGLE)]
            kills += 1
            fault = Fault(kind, datetime.now(UTC))
            faults.append(fault)
            stack.kill(kind)
            time.sleep(args.down)
            stack.respawn(kind)
            if kind == "worker":
                stack._wait_worker()
        fault.ended = datetime.now(UTC)
        stack.check_alive()
        if time.monotonic() - last_said > say_every:
            say(f"  {kills} kills, {restarts} restarts; load {loadavg()}")
            last_said = time.monotonic()
        time.sleep(args.between)


def lateness_figures(truths: dict, faults: list[Fault], now: datetime) -> dict:
    """The worst clock lateness by what was down meanwhile."""
    worst: dict[str, float] = {}
    count: Counter = Counter()
    over: list[str] = []
    for t in truths.values():
        for late in truth.clock_lateness(t, now):
            during = [f for f in faults if f.overlaps(late.deadline, late.enforced_at)]
            kinds = {f.kind for f in during}
            if "postgres" in kinds:
                where = "postgres_restart"
            elif "redis" in kinds:
                where = "redis_restart"
            elif kinds:
                where = "one_process_dead"
            else:
                where = "all_up"
            count[where] += 1
            worst[where] = max(worst.get(where, 0.0), late.seconds)
            if where in ("one_process_dead", "all_up") and late.seconds > CLOCK_BOUND:
                over.append(f"table {late.table_id} v{late.version}: {late.seconds:.2f} s late "
                            f"(deadline {late.deadline.isoformat()}, down: {sorted(kinds) or 'nothing'})")
    return {"clocks_past_deadline": dict(count), "worst_seconds": {k: round(v, 3) for k, v in worst.items()},
            "over_bound": over}


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    started = time.monotonic()
    report: dict = {"drill": "faults", "args": vars(args), "load_start": loadavg()}
    failures: list[str] = []
    # Celery at INFO: a restarted beat counts as back once it sends a due task (bench/live_stack.py `_wait_beat`).
    stack = Stack(keep=args.keep, echo=False, say=say,
                  extra_env={"SVARA_CLOCK_SCALE": CLOCK_SCALE, "SVARA_CELERY_LOG_LEVEL": "INFO"},
                  own_postgres_port=args.port_base, redis_port=args.port_base + 1)
    client = None
    faults: list[Fault] = []
    try:
        people, client = crowd.deploy(stack, args, lazy=args.lazy)
        ready = client.start()
        from django.db import connection, connections  # after deploy: Django is set up there

        say(f"  seated in {ready:.1f} s; warming up")
        crowd.wait_deals(people.tables, 2 * args.tables, 120, client, stack)
        say(f"# faults: {args.kills} kills ({', '.join(SINGLE)} in turn), PostgreSQL or Redis restarted after "
            f"every {args.restart_every}th; {args.down:.0f} s down each")
        play_faults(args, stack, faults)
        last_fault = max(f.ended for f in faults)
        say(f"  done; {args.settle:.0f} s of play with everything up, nothing done by hand")
        settled_at = time.monotonic()
        while time.monotonic() - settled_at < args.settle:
            stack.check_alive()
            time.sleep(2)
        from tables.models import Deal

        def deals_since_last_fault() -> dict:
            return {t: Deal.objects.filter(table_id=t, ended_at__gt=last_fault).count() for t in people.tables}

        played_on = deals_since_last_fault()
        # A lazy player's move is a whole move clock (5 s at CLOCK_SCALE): a deal with two or three of them left
        # to the clock outlasts a short settle while nothing is wrong. A table still between deals is given up to
        # SETTLE_GRACE more seconds (two move clocks and a New deal clock) before it counts as stuck; the stuck
        # table's versions are read now, before the client's drain (where nobody presses New deal).
        grace_until = time.monotonic() + SETTLE_GRACE
        while not all(played_on.values()) and time.monotonic() < grace_until:
            stack.check_alive()
            time.sleep(1)
            played_on = deals_since_last_fault()
        stuck = [t for t, n in played_on.items() if not n]
        stuck_report = stuck_lines(stuck, last_fault) if stuck else []
        connections.close_all()
        report["load_end_of_play"] = loadavg()
        result = client.stop()
        stack.check_alive()
        report["client"] = {k: v for k, v in result.items() if k != "outages"}
        report["deals_after_last_fault"] = played_on
        say(f"  every table played on after the last fault: {'yes' if not stuck else f'no: {stuck}'} "
            f"({sum(played_on.values())} deals)")
        if stuck:
            failures.append(f"tables that did not play on after the last fault: {stuck}")
            for line in stuck_report:
                say(f"    {line}")

        kinds = Counter(f.kind for f in faults)
        report["faults"] = dict(kinds)
        say(f"  kills survived: {sum(kinds[k] for k in SINGLE)} ({', '.join(f'{k} {kinds[k]}' for k in SINGLE)}); "
            f"restarts: {', '.join(f'{k} {kinds[k]}' for k in SERVERS)}")

        with connection.cursor() as cursor:
            truths = truth.read(cursor, people.tables)
        deals = sum(t.deals_played() for t in truths.values())
        late = lateness_figures(truths, faults, datetime.now(UTC))
        report["deals"] = deals
        report["clocks"] = late
        say(f"  deals played: {deals:,}; clocks past their deadline before the table moved on: "
            f"{late['clocks_past_deadline']}")
        say(f"  worst clock lateness (s): {late['worst_seconds']} (bound {CLOCK_BOUND:.0f} s with one process "
            f"dead or all up)")
        for line in late["over_bound"][:10]:
            say(f"    {line}")
        if late["over_bound"]:
            failures.append(f"{len(late['over_bound'])} clocks ran out more than {CLOCK_BOUND:.0f} s late")
        if not late["clocks_past_deadline"].get("one_process_dead"):
            failures.append("no clock ran out while a process was dead: the bound was not put to the test")

        stats = result["stats"]
        unanswered = result["counts"].get("unanswered", 0)
        say(f"  reconnects: {stats.get('reconnects', 0)}; first frame a whole snapshot: "
            f"{stats.get('first_frame_snapshot', 0)}, not: {stats.get('first_frame_not_snapshot', 0)}; "
            f"messages resent after a reconnect: {stats.get('resent', 0)}; left unanswered: {unanswered}")
        told = {k: v for k, v in stats.items() if k.startswith(("error:", "connect_failed:", "close:"))}
        say(f"  told while a server was down: {told}; sockets closed with no word why: "
            f"{stats.get('closed_untold', 0)}")
        outages = sorted(o["seconds"] for o in result["outages"])
        if outages:
            say(f"  a client without a socket: median {outages[len(outages) // 2]:.1f} s, longest {outages[-1]:.1f} s "
                f"({len(outages)} times)")
        report["outages"] = {"count": len(outages), "longest": outages[-1] if outages else None}
        if stats.get("first_frame_not_snapshot"):
            failures.append(f"{stats['first_frame_not_snapshot']} reconnects whose first frame was no snapshot")
        if not stats.get("reconnects"):
            failures.append("no client reconnected: the kills did not reach the clients")
        if stats.get("closed_untold"):
            failures.append(f"{stats['closed_untold']} sockets closed by a live server with no word why")
        if unanswered:
            failures.append(f"{unanswered} messages got no answer (nor a closed socket) in time")
        failures += [f"client: {code} ×{n}" for code, n in result["failures"].items()
                     if code not in ("no_answer",) and not code.startswith("socket:")]

        figures = audit_frames(client, truths)
        report["frames"] = figures
        say(f"  frames checked: {figures['frames']:,}, leaks: {figures['leaks']}")
        for line in figures["leak_samples"]:
            say(f"    {line}")
        if figures["leaks"]:
            failures.append(f"{figures['leaks']} leaks in the frames")

        books = chips.check_books(people.tables)
        report["books"] = {"ok": books.ok, "chips_lost": books.chips_lost, "transfers_doubled":
                           books.transfers_doubled, "audit_problems": books.audit_problems[:5],
                           "table_mismatches": books.table_mismatches[:5]}
        for line in chips.books_lines(books):
            say(line)
        if not books.ok:
            failures.append("the books do not add up")
        report["server_logs"] = {name: {k: v for k, v in found.items() if k != "log"}
                                 for name, found in stack.log_report().items() if found["Traceback"]}
        say(f"  server logs with tracebacks (expected around the faults): "
            f"{ {name: found['Traceback'] for name, found in report['server_logs'].items()} }")
    except KeyboardInterrupt:
        failures.append("interrupted")
    except Exception as failure:  # noqa: BLE001 - reported as the drill's failure, with the stack stopped
        import traceback

        traceback.print_exc()
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


def stuck_lines(tables: list[int], since: datetime) -> list[str]:
    """What a table that did not play on was waiting for: its row, and the versions written since `since`."""
    from django.db import connection

    lines = []
    with connection.cursor() as cursor:
        for table_id in tables:
            cursor.execute("SELECT version, clock_kind, clock_seats, clock_deadline, fault, state FROM tables_table "
                           "WHERE id = %s", [table_id])
            version, kind, seats, deadline, fault, state = cursor.fetchone()
            lines.append(f"table {table_id}: v{version}, clock {kind or 'none'} {seats} until {deadline}, "
                         f"fault {fault!r}; now {datetime.now(UTC)}")
            cursor.execute("SELECT version, written_at, clock_deadline FROM drill_table_versions "
                           "WHERE table_id = %s AND written_at > %s ORDER BY version", [table_id, since])
            lines += [f"  v{v} written {at}, clock until {until}" for v, at, until in cursor.fetchall()]
            lines.append(f"  state {state[:1500]}")
    connection.close()
    return lines


def audit_frames(client, truths) -> dict:
    checkers = {table_id: sight.Checker(t) for table_id, t in truths.items()}
    leaks = []
    frames = 0
    for table_id, user, _, message in client.frames():
        frames += 1
        leaks += checkers[table_id].check(message, user)
    return {"frames": frames, "leaks": len(leaks), "leak_samples": [str(leak) for leak in leaks[:10]]}


def _interrupt(signum, frame):
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
