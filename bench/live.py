"""The platform under load, end to end: real players playing real deals over real WebSockets.

    python -m bench live [--tables 1,10,50] [--seconds 20] [--mode full|paced|full,paced] [--idle N] [--floor]
                         [--pg-stats]
                         [--target http://h:p[,http://h:p2] --database-url postgres://… [--redis-url redis://…]]

Starts a production-like deployment on this machine (its own redis-server, its own PostgreSQL database on the
machine's server, over its Unix-domain socket when it may, else 127.0.0.1:5432, migrated; two daphne processes, a
Celery worker and beat as in the Procfile, all with config.settings.production), creates players with chips, logs
them in, seats four a table and plays whole deals for `--seconds` per step: `full` acts as soon as it is your
turn, `paced` thinks 1–3 s. For each step it prints actions/s, deals/s, the round trip (message sent → its answer:
the snapshot of its change, an ack or an error) p50/p95/p99/max and the error frames by code;
then, with the same sockets and rate, the same figures for a bare Channels echo consumer on the same stack
(bench/echo_asgi.py) and the ratios; with `--floor`, the same tables' turns on the bare stack (each frame answered
and carried through the channel layer to the table's other three sockets, over two daphnes: what a table's change
costs daphne, Channels and Redis alone, without the door or a view), its CPU per turn and the ratios to it; then
pgbench's TPC-B on the same PostgreSQL (one after the other, never at
the same time) and actions/s ÷ TPC-B tps. `--idle N` opens N idle spectator sockets on one daphne, times their
opening, samples that process's CPU while they idle, closes them all at once and counts the errors in its log.
`--pg-stats` runs the database on a PostgreSQL server of the stack's own (a spare port, pg_stat_statements loaded;
pgbench runs there too) and shows, for each play step, where the database's time went (bench/live_db.py).
The load average is printed at every phase; errors and tracebacks in every server log are reported; the last line
is one JSON object with every figure. See docs/benchmarks.md.

Exit status 1 when the tool could not measure (a process did not start or died, a step made no action);
figures themselves are never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
from contextlib import nullcontext
from pathlib import Path

from bench import live_db, live_players, live_stack
from bench.live_players import LoginFailed
from bench.live_stack import ROOT, Stack, StackError, proc_cpu_seconds

P99_LIMIT_MS = 250.0
SEATS = 4


def say(text: str = "") -> None:
    print(text, flush=True)


def loadavg() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def table_list(text: str) -> list[int]:
    values = [int(v) for v in text.split(",") if v.strip()]
    if not values or any(v < 0 for v in values):
        raise argparse.ArgumentTypeError("a comma-separated list of table counts, e.g. 1,10,50")
    return values


def mode_list(text: str) -> list[str]:
    values = [v.strip() for v in text.split(",") if v.strip()]
    if not values or any(v not in ("full", "paced") for v in values):
        raise argparse.ArgumentTypeError("full, paced or full,paced")
    return values


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench live", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=table_list, default=None,
                        help="tables of 4 players, or a list to sweep (1,10,50); default 10 (0 with only --idle)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds per step (default 20)")
    parser.add_argument("--mode", type=mode_list, default=["full"], help="full, paced or full,paced (default full)")
    parser.add_argument("--think", default="1,3", help="paced think time range in seconds (default 1,3)")
    parser.add_argument("--warmup", type=float, default=0.0,
                        help="seconds played before each measured window (default 0: the first New deal counts)")
    parser.add_argument("--idle", type=int, default=0, metavar="N", help="N idle spectator sockets on one daphne")
    parser.add_argument("--idle-seconds", type=float, default=10.0, help="how long the spectators idle (10)")
    parser.add_argument("--ante", type=int, default=10)
    parser.add_argument("--http-logins", type=int, default=40,
                        help="players logged in through the login form (allauth allows 30/min per process and IP); "
                             "the rest get direct sessions (default 40)")
    parser.add_argument("--pgbench-seconds", type=int, default=None, help="pgbench -T (default: --seconds, ≤ 30)")
    parser.add_argument("--no-pgbench", action="store_true")
    parser.add_argument("--no-echo", action="store_true")
    parser.add_argument("--floor", action="store_true",
                        help="after each step, the same tables' turns on the bare stack (bench/echo_asgi.py's floor "
                             "consumer on two daphnes): what a table's change costs daphne, Channels and Redis alone")
    parser.add_argument("--keep", action="store_true", help="keep the database and the logs")
    parser.add_argument("--pg-stats", action="store_true",
                        help="a PostgreSQL server of the stack's own with pg_stat_statements (pgbench runs on it too): "
                             "each play step shows the statements that took the most of its time, the WAL per "
                             "accepted message and the table rows' heap-only updates (bench/live_db.py)")
    parser.add_argument("--compare", type=Path, default=None, metavar="CHECKOUT",
                        help="one daphne (--compare-web) runs the code of that other checkout (a `git worktree` of "
                             "another commit, the same migrations), the other this one's, in the same run: each "
                             "step also gives the round trip by daphne")
    parser.add_argument("--compare-web", type=int, choices=(1, 2), default=2,
                        help="which daphne runs the --compare checkout (default 2; swap it in a second run)")
    parser.add_argument("--target", default=None,
                        help="comma-separated base URLs of a running deployment's daphne processes")
    parser.add_argument("--database-url", default=None, help="with --target: its PostgreSQL database")
    parser.add_argument("--redis-url", default=None, help="with --target: its Redis (for the echo consumer)")
    parser.add_argument("--idle-pid", type=int, default=None, help="with --target: the daphne pid for --idle CPU")
    parser.add_argument("--idle-log", default=None, help="with --target: that daphne's log for --idle errors")
    args = parser.parse_args(argv)
    if args.tables is None:
        args.tables = [0] if args.idle else [10]
    args.think = [float(v) for v in args.think.split(",")]
    if args.target and args.floor:
        parser.error("--floor starts its own two echo daphnes: not with --target")
    if args.target and args.pg_stats:
        parser.error("--pg-stats starts a PostgreSQL server of its own: not with --target")
    if args.compare is not None:
        if args.target:
            parser.error("--compare starts its own daphnes: not with --target")
        if not (args.compare / "config" / "web.py").is_file():
            parser.error(f"--compare {args.compare}: not a checkout of this project (no config/web.py)")
        args.compare = args.compare.resolve()
    if args.target and not args.database_url:
        parser.error("--target needs --database-url (players and tables are created in its database)")
    if args.pgbench_seconds is None:
        args.pgbench_seconds = max(5, min(30, int(args.seconds)))
    return args


class ClientFailed(RuntimeError):
    pass


def _die_with_parent() -> None:
    import ctypes

    try:
        ctypes.CDLL("libc.so.6").prctl(1, signal.SIGTERM)
    except OSError:
        pass


def run_client(spec: dict, timeout: float) -> dict:
    """The load runs in a process of its own (bench/live_client.py): no GIL shared with this one."""
    work = Path(tempfile.mkdtemp(prefix="svara-bench-client-"))
    spec_path, result_path = work / "spec.json", work / "result.json"
    spec_path.write_text(json.dumps(spec))
    client = subprocess.Popen([sys.executable, "-m", "bench.live_client", str(spec_path), str(result_path)],
                              cwd=ROOT, stderr=subprocess.PIPE, text=True, preexec_fn=_die_with_parent)
    try:
        try:
            _, errors = client.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            client.kill()
            _, errors = client.communicate()
            raise ClientFailed(f"the load client did not finish in {timeout:.0f} s:\n{errors[-3000:]}") from None
        if client.returncode or not result_path.exists():
            raise ClientFailed(f"the load client failed (status {client.returncode}):\n{errors[-3000:]}")
        return json.loads(result_path.read_text())
    finally:
        if client.poll() is None:
            client.kill()
            client.wait()
        shutil.rmtree(work, ignore_errors=True)


def ws_url(base: str, path: str) -> tuple[str, str]:
    parts = urllib.parse.urlsplit(base)
    return f"ws://{parts.netloc}{path}", f"{parts.scheme}://{parts.netloc}"


class Logs:
    """Errors that appeared in each server log during one phase."""

    def __init__(self, processes):
        self.processes = list(processes)
        self.marks = {}

    def mark(self) -> None:
        self.marks = {p.name: len(p.log()) for p in self.processes}

    def since(self) -> dict:
        found = {}
        for p in self.processes:
            text = p.log()[self.marks.get(p.name, 0):]
            counts = live_stack.log_errors(text)
            if any(counts.values()):
                found[p.name] = {**counts, "lines": live_stack.error_lines(text, 3)}
        return found


class CpuMeter:
    """CPU % of each server process over a phase, from /proc/<pid>/stat; with the CPU seconds of each, of every
    PostgreSQL process on this machine ("postgres") and of the children waited for meanwhile ("client": the load
    client), for the CPU an accepted message costs, a figure the machine's noise moves far less than a rate."""

    def __init__(self, processes):
        self.processes = [p for p in processes if p.alive()]

    def _seconds(self) -> dict:
        # The stack's own PostgreSQL (`--pg-stats`) is counted once, with every other PostgreSQL process.
        seconds = {p.name: self._read(p.pid) for p in self.processes if p.name != "postgres"}
        seconds["postgres"] = postgres_cpu_seconds()
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        seconds["client"] = children.ru_utime + children.ru_stime
        return seconds

    def __enter__(self):
        self.at = time.monotonic()
        self.cpu = self._seconds()
        return self

    def __exit__(self, *exc):
        wall = time.monotonic() - self.at
        now = self._seconds()
        self.seconds = {name: round(now[name] - self.cpu[name], 3) for name in now
                        if now[name] is not None and self.cpu.get(name) is not None}  # fmt: skip
        self.percent = {p.name: round(100 * self.seconds[p.name] / wall, 1) for p in self.processes
                        if p.name in self.seconds}  # fmt: skip

    @staticmethod
    def _read(pid):
        try:
            return proc_cpu_seconds(pid)
        except OSError:
            return None


def postgres_cpu_seconds() -> float:
    """The CPU seconds of every process named postgres on this machine (the server and its backends)."""
    total = 0.0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/comm") as handle:
                if handle.read().strip() != "postgres":
                    continue
            total += proc_cpu_seconds(int(entry.name))
        except OSError:  # gone meanwhile
            continue
    return total


def cpu_per_message(seconds: dict, accepted: int) -> dict | None:
    """Milliseconds of CPU per accepted message, by part (the daphnes together) and in all."""
    if not accepted:
        return None
    parts = {"daphne": sum(v for k, v in seconds.items() if k.startswith("web")),
             "postgres": seconds.get("postgres", 0.0), "client": seconds.get("client", 0.0)}  # fmt: skip
    parts["other"] = sum(seconds.values()) - sum(parts.values())
    parts["total"] = sum(seconds.values())
    return {name: round(1000 * value / accepted, 2) for name, value in parts.items()}


def web_of(table: int, seat: int, webs: int) -> int:
    """The daphne (an index) of a table's seat: a table's players spread over the daphnes, its seats taking turns
    by table, so each daphne plays every seat's part of a deal (the first to act, the last to press New deal)
    alike; a --compare step's round trips by daphne then differ by their code, not by their seats."""
    return (table + seat) % webs


def play_step(args, mode, tables, players, web_urls, logs, server_processes, db_url=None) -> dict:
    n = len(tables)
    specs = []
    for t, table_id in enumerate(tables):
        for seat in range(SEATS):
            player = players[t * SEATS + seat]
            web = web_of(t, seat, len(web_urls))
            url, origin = ws_url(web_urls[web], f"/ws/tables/{table_id}/")
            specs.append({"url": url, "web": f"web{web + 1}", "origin": origin, "cookie": player.cookie,
                          "table": table_id, "seat": seat,
                          "buyin": 100 * args.ante, "ante": args.ante, "table_players": SEATS})
    spec = {"kind": "play", "mode": mode, "seconds": args.seconds, "warmup": args.warmup, "think": args.think,
            "players": specs,
            "drain": 15.0 if mode == "full" else 25.0, "seed": n}
    logs.mark()
    load_before = loadavg()
    stored_before = stored_counts(tables)
    database = live_db.DatabaseMeter(db_url) if args.pg_stats else nullcontext()
    with CpuMeter(server_processes) as cpu, database:
        result = run_client(spec, timeout=args.warmup + args.seconds + 240)
        time.sleep(2.0)  # the servers' disconnect handlers run after the sockets closed: their errors are this step's
    stored_after = stored_counts(tables)
    server = {k: stored_after[k] - stored_before[k] for k in stored_after}
    server["actions_per_deal"] = round(server["replies"] / server["deals"], 1) if server["deals"] else None
    result.update(tables=n, load_before=load_before, load_after=loadavg(), server_cpu_percent=cpu.percent,
                  server_log_errors=logs.since(), stored=server,
                  cpu_ms_per_message=cpu_per_message(cpu.seconds, server["replies"]))
    if args.pg_stats:
        result["database"] = database.report(server["replies"])
    if args.compare is not None:
        result["compare_web"] = f"web{args.compare_web}"
    return result


def stored_counts(tables) -> dict:
    """What the database holds for these tables: the deals (a svara is part of its deal) that ended, and the replies
    stored (one per message with an id the door accepted). Over a whole step, its warm-up and drain included, they
    check the client's own counts."""
    from django.db import connections

    from tables.models import ClientMessage, Deal

    try:
        return {"deals": Deal.objects.filter(table_id__in=tables, svara=0, ended_at__isnull=False).count(),
                "replies": ClientMessage.objects.filter(table_id__in=tables).count()}  # fmt: skip
    finally:
        connections.close_all()  # the tool's own connections stay closed while the load runs


def echo_step(args, mode, n, players, urls, logs, server_processes, floor: bool = False) -> dict:
    """The same tables' turns on the echo daphne(s) `urls`, the sockets spread over them as the players' are. With
    `floor`, on the floor consumer: each frame answered and sent through the channel layer to the table's three
    other sockets before the next seat's turn, with the CPU per turn by part."""
    path = "floor" if floor else "echo"
    groups = []
    for t in range(n):
        group = []
        for seat in range(SEATS):
            url, origin = ws_url(urls[web_of(t, seat, len(urls))], f"/ws/{path}/{t}/")
            group.append({"url": url, "origin": origin, "cookie": players[t * SEATS + seat].cookie})
        groups.append(group)
    spec = {"kind": "echo", "fanout": floor, "mode": mode, "seconds": args.seconds, "think": args.think,
            "groups": groups, "seed": n}  # fmt: skip
    logs.mark()
    load_before = loadavg()
    with CpuMeter(server_processes) as cpu:
        result = run_client(spec, timeout=args.seconds + 120)
    result.update(tables=n, load_before=load_before, load_after=loadavg(), server_cpu_percent=cpu.percent,
                  server_log_errors=logs.since())
    if floor:
        seconds = cpu.seconds
        turns = result["turns"] or None  # every turn of the step, as the play step counts every stored reply
        parts = {"daphne": sum(v for k, v in seconds.items() if k.startswith("echo")),
                 "redis": seconds.get("redis", 0.0), "client": seconds.get("client", 0.0),
                 "total": sum(seconds.values())}  # fmt: skip
        result["cpu_ms_per_turn"] = {k: round(1000 * v / turns, 2) for k, v in parts.items()} if turns else None
    return result


def idle_phase(args, table_id, web_url, web_process, idle_log) -> dict:
    """N spectators on one daphne: opened/s, that process's CPU while they idle, errors after a mass close."""
    url, origin = ws_url(web_url, f"/ws/tables/{table_id}/")
    work = Path(tempfile.mkdtemp(prefix="svara-bench-idle-"))
    spec_path, result_path = work / "spec.json", work / "result.json"
    spec_path.write_text(json.dumps({"kind": "idle", "count": args.idle, "url": url, "origin": origin}))
    log_path = Path(idle_log) if idle_log else None
    log_mark = log_path.stat().st_size if log_path and log_path.exists() else 0
    pid = web_process.pid if web_process is not None else args.idle_pid
    load_before = loadavg()
    client = subprocess.Popen([sys.executable, "-m", "bench.live_client", str(spec_path), str(result_path)],
                              cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, preexec_fn=_die_with_parent)
    try:
        return _idle_run(args, client, result_path, pid, web_url, table_id, log_path, log_mark, load_before)
    finally:
        if client.poll() is None:
            client.kill()
            client.wait()
        shutil.rmtree(work, ignore_errors=True)


def _idle_run(args, client, result_path, pid, web_url, table_id, log_path, log_mark, load_before) -> dict:
    line = client.stdout.readline()
    if not line:
        raise ClientFailed(f"the idle client failed:\n{client.stderr.read()[-3000:]}")
    opened = json.loads(line)
    say(f"  {opened['opened']} spectators open in {opened['seconds']:.2f} s; idling {args.idle_seconds:.0f} s")
    time.sleep(1.0)  # let the last snapshots go out before sampling
    cpu_percent = None
    if pid is not None:
        cpu0, at = proc_cpu_seconds(pid), time.monotonic()
        time.sleep(args.idle_seconds)
        cpu_percent = round(100 * (proc_cpu_seconds(pid) - cpu0) / (time.monotonic() - at), 2)
    else:
        time.sleep(args.idle_seconds)
    load_idle = loadavg()
    client.stdin.write("close\n")
    client.stdin.flush()
    _, errors = client.communicate(timeout=180)
    if client.returncode or not result_path.exists():
        raise ClientFailed(f"the idle client failed (status {client.returncode}):\n{errors[-3000:]}")
    result = json.loads(result_path.read_text())
    time.sleep(5.0)  # the server's disconnect handlers run after the sockets closed
    log_errors = None
    if log_path and log_path.exists():
        with open(log_path, "rb") as handle:
            handle.seek(log_mark)
            text = handle.read().decode(errors="replace")
        log_errors = {**live_stack.log_errors(text), "lines": live_stack.error_lines(text, 4)}
    result.update(table=table_id, daphne=web_url, daphne_pid=pid, idle_cpu_percent=cpu_percent,
                  idle_seconds=args.idle_seconds, load_before=load_before, load_idle=load_idle, load_after=loadavg(),
                  log_errors_after_close=log_errors)
    return result


def fmt(value, spec=".1f") -> str:
    return "-" if value is None else format(value, spec)


def ratio(a, b):
    return round(a / b, 4) if a is not None and b not in (None, 0) else None


def print_step(step: dict) -> None:
    rt, echo = step["round_trip"], step.get("echo")
    say(f"  {step['mode']:<5} {step['tables']:>4} tables {step['sockets']:>5} sockets  "
        f"actions/s {step['actions_per_s']:>7.1f}  deals/s {step['deals_per_s']:>6.2f}  "
        f"rt p50/p95/p99/max {fmt(rt['p50_ms'])}/{fmt(rt['p95_ms'])}/{fmt(rt['p99_ms'])}/{fmt(rt['max_ms'])} ms  "
        f"errors {step['error_frames']} {step['errors_by_code'] or ''}"
        f"{'  failures ' + str(step['failures']) if step['failures'] else ''}")
    counts, stored = step["counts"], step.get("stored") or {}
    if stored:
        say(f"        stored in the step (warm-up and drain too): {stored['deals']} deals ended, {stored['replies']} "
            f"replies = {stored['actions_per_deal']} accepted messages a deal; the client saw "
            f"{ratio(step['actions'], step['deals'])} in its window")
    say(f"        client CPU {step['client_cpu_percent']}%  server CPU {step['server_cpu_percent']}  "
        f"throttled {counts.get('throttled', 0)}  resyncs {counts.get('resyncs', 0)}  "
        f"version skips {counts.get('version_skips', 0)}  load {step['load_before']} → {step['load_after']}")
    if step.get("compare_web"):  # the actor's answers only: a change's fan-out and the actions/s are shared
        say("        by daphne: " + "   ".join(
            f"{web}{' (--compare)' if web == step['compare_web'] else ''} rt p50/p95/p99 {fmt(rt['p50_ms'])}/"
            f"{fmt(rt['p95_ms'])}/{fmt(rt['p99_ms'])} ms ({rt['count']})"
            for web, rt in step["round_trip_by_web"].items()))
    if step.get("cpu_ms_per_message"):
        say(f"        CPU per accepted message, whole step (ms): {step['cpu_ms_per_message']}")
    if step.get("database"):
        live_db.print_report(step["database"], say)
    for sample in step.get("resync_samples") or ():
        say(f"        resync: {sample}")
    if step["server_log_errors"]:
        say(f"        server log errors: {step['server_log_errors']}")
    if echo:
        ert = echo["round_trip"]
        say(f"        echo: {echo['echoes_per_s']:.1f}/s  rt p50/p95/p99/max {fmt(ert['p50_ms'])}/{fmt(ert['p95_ms'])}/"
            f"{fmt(ert['p99_ms'])}/{fmt(ert['max_ms'])} ms  errors {echo['error_frames']}"
            f"{' failures ' + str(echo['failures']) if echo['failures'] else ''}  "
            f"ratios p50 {fmt(step['ratios']['p50'], '.2f')}× p99 {fmt(step['ratios']['p99'], '.2f')}×  "
            f"load {echo['load_before']} → {echo['load_after']}")
    floor = step.get("floor")
    if floor:
        frt, ratios = floor["round_trip"], step["ratios"]
        say(f"        floor (the bare stack, same tables): {floor['echoes_per_s']:.1f} turns/s  rt p50/p99 "
            f"{fmt(frt['p50_ms'])}/{fmt(frt['p99_ms'])} ms  failures {floor['failures'] or 0}  CPU per turn (ms): "
            f"{floor['cpu_ms_per_turn']}  actions/s ÷ turns/s {fmt(ratios['actions_per_floor_turn'], '.3f')}  "
            f"CPU per action ÷ per turn {fmt(ratios['cpu_per_floor_turn'], '.2f')}  "
            f"load {floor['load_before']} → {floor['load_after']}")


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    # SIGTERM (a CI timeout, kill) cleans up like Ctrl-C does; and Ctrl-C works even when started as a background
    # job (which would inherit SIGINT ignored).
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    started = time.monotonic()
    report: dict = {"bench": "live", "args": {"tables": args.tables, "seconds": args.seconds, "mode": args.mode,
                                              "idle": args.idle, "target": args.target},
                    "cpus": os.cpu_count(), "load_start": loadavg()}
    stack = None
    status = 0
    try:
        if args.target:
            web_urls = [u.strip().rstrip("/") for u in args.target.split(",") if u.strip()]
            db_url = args.database_url
            redis_url = args.redis_url
            stack = Stack(keep=True, echo=False, say=say)
            report["deployment"] = "target"
            processes = []
        else:
            say("# starting the deployment")
            stack = Stack(keep=args.keep, echo=not args.no_echo, floor=args.floor, say=say, pg_stats=args.pg_stats,
                          compare=args.compare, compare_web=args.compare_web)  # fmt: skip
            stack.start()
            web_urls, db_url, redis_url = stack.web_urls, stack.db_url, stack.redis_url
            report["deployment"] = {"web": web_urls, "echo": stack.echo_url, "database": stack.db_name,
                                    "logs": str(stack.log_dir)}
            if args.compare is not None:
                report["deployment"]["compare"] = {"web": args.compare_web, "checkout": str(args.compare)}
                say(f"  web{args.compare_web} runs {args.compare}, web{3 - args.compare_web} this checkout")
            processes = stack.processes
        os.environ.update(live_stack.server_env(db_url, redis_url or ""))
        if not redis_url:
            os.environ.pop("REDIS_URL")
        import django

        django.setup()

        max_tables = max(args.tables)
        need_players = max_tables * SEATS + (SEATS if args.idle else 0)
        say("# players")
        players = live_players.make_players(need_players, stack.run_id, say=say)
        report["logins"] = live_players.log_in(players, web_urls, args.http_logins, say=say)
        tables = live_players.make_tables(players[: max_tables * SEATS], args.ante) if max_tables else []
        from django.db import connections

        connections.close_all()  # the tool's own connections stay closed while the load runs

        echo_url = stack.echo_url if not args.target else None
        if args.target and redis_url and not args.no_echo:
            say("# starting the echo server against the target's Redis and database")
            stack.redis_url, stack.db_url = redis_url, db_url
            port = live_stack.free_port()
            stack.echo_process = stack.spawn("echo", [*live_stack.web_launcher(), "-b", "127.0.0.1", "-p", str(port),
                                                      "bench.echo_asgi:application"])
            echo_url = f"http://127.0.0.1:{port}"
            live_stack.wait_http(f"{echo_url}/accounts/login/", stack.echo_process, 60, "serving HTTP")
            processes = stack.processes
        logs = Logs(processes)
        steps = []
        for mode in args.mode:
            for n in [n for n in args.tables if n > 0]:
                say(f"# {mode}, {n} tables × {SEATS} players, {args.seconds:.0f} s")
                step = play_step(args, mode, tables[:n], players, web_urls, logs, processes, db_url)
                if stack.processes:
                    stack.check_alive()
                if echo_url:
                    step["echo"] = echo_step(args, mode, n, players, [echo_url], logs, processes)
                    rt, ert = step["round_trip"], step["echo"]["round_trip"]
                    step["ratios"] = {"p50": ratio(rt["p50_ms"], ert["p50_ms"]),
                                      "p99": ratio(rt["p99_ms"], ert["p99_ms"]),
                                      "actions_per_echo": ratio(step["actions_per_s"], step["echo"]["echoes_per_s"])}
                if args.floor:
                    floor = step["floor"] = echo_step(args, mode, n, players, stack.floor_urls, logs, processes,
                                                      floor=True)
                    per_turn, per_message = floor["cpu_ms_per_turn"] or {}, step.get("cpu_ms_per_message") or {}
                    step.setdefault("ratios", {}).update(
                        actions_per_floor_turn=ratio(step["actions_per_s"], floor["echoes_per_s"]),
                        cpu_per_floor_turn=ratio(per_message.get("total"), per_turn.get("total")),
                    )
                print_step(step)
                steps.append(step)
                if step["actions"] == 0:
                    say(f"  FAILED: no action was acknowledged in {mode} with {n} tables")
                    status = 1
                elif step["deals"] == 0:
                    say(f"  note: no deal finished in the {args.seconds:.0f} s window ({mode}, {n} tables)")
        report["steps"] = steps

        if steps and not args.no_pgbench:
            say(f"# pgbench TPC-B on the same PostgreSQL, {args.pgbench_seconds} s (the load is stopped)")
            load_before = loadavg()
            admin_url = live_stack.database_url("postgres", db_url)
            bench = live_stack.pgbench(admin_url, args.pgbench_seconds, say=say)
            bench.update(load_before=load_before, load_after=loadavg())
            report["pgbench"] = bench
            say(f"  TPC-B tps {bench['tps']:.0f} (latency avg {bench['latency_avg_ms']} ms)  "
                f"load {load_before} → {bench['load_after']}")
            for step in steps:
                step["actions_per_tps"] = ratio(step["actions_per_s"], bench["tps"])

        if args.idle:
            say(f"# {args.idle} idle spectators on one daphne ({web_urls[0]})")
            from django.contrib.auth import get_user_model

            from tables.services import create_table

            owner = get_user_model().objects.get(pk=players[-1].pk)
            table_id = create_table(owner, "classic", args.ante, SEATS, False).pk
            connections.close_all()
            web_process = stack.web[0] if stack.web else None
            idle_log = web_process.log_path if web_process else args.idle_log
            idle = idle_phase(args, table_id, web_urls[0], web_process, idle_log)
            report["idle"] = idle
            errors = idle["log_errors_after_close"]
            say(f"  opened {idle['opened']}/{idle['asked']} in {idle['open_seconds']:.2f} s = "
                f"{fmt(idle['opened_per_s'])}/s (failures {idle['open_failures'] or 0}); "
                f"idle CPU of that daphne {fmt(idle['idle_cpu_percent'], '.2f')}%; "
                f"closed all in {idle['close_seconds']:.2f} s; after the close its log has "
                f"{'-' if errors is None else errors['MaxConnectionsError']} MaxConnectionsError, "
                f"{'-' if errors is None else errors['Traceback']} tracebacks  load {idle['load_idle']}")
            if errors and errors["lines"]:
                say(f"  e.g. {errors['lines'][0]}")
            if idle["opened"] == 0:
                say("  FAILED: no spectator socket opened")
                status = 1

        if stack.processes:
            stack.check_alive()
            report["server_logs"] = stack.log_report()
            noisy = {name: {k: v for k, v in r.items() if k in live_stack.ERROR_PATTERNS and v}
                     for name, r in report["server_logs"].items()}
            noisy = {k: v for k, v in noisy.items() if v}
            say(f"# server logs ({stack.log_dir}): {noisy or 'no errors, no tracebacks'}")
            for name, r in report["server_logs"].items():
                for line in r["lines"][:3]:
                    say(f"  {name}: {line}")
        print_summary(report)
    except (StackError, ClientFailed, LoginFailed) as failure:
        say(f"\nFAILED: {failure}")
        status = 1
    except KeyboardInterrupt:
        say("\ninterrupted: stopping every process")
        status = 130
    finally:
        if stack is not None and stack.processes:
            stack.stop(keep_logs=status != 0)
            if not args.keep and status == 0:
                shutil.rmtree(stack.log_dir, ignore_errors=True)
            elif stack.log_dir.exists():
                say(f"logs kept in {stack.log_dir}")
    report["status"] = status
    report["wall_seconds"] = round(time.monotonic() - started, 1)
    report["load_end"] = loadavg()
    print(json.dumps(report, separators=(",", ":")))
    return status


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def print_summary(report: dict) -> None:
    steps = report.get("steps") or []
    if not steps:
        return
    say("\n# summary")
    say(f"  {'mode':<6}{'tables':>7}{'act/s':>9}{'deals/s':>9}{'p50':>8}{'p95':>8}{'p99':>8}{'max':>8}{'err':>6}{'fail':>6}"
        f"{'echo p50':>10}{'echo p99':>10}{'p50 ×':>8}{'act/tps':>9}{'load':>7}")
    for s in steps:
        rt, echo = s["round_trip"], s.get("echo") or {"round_trip": {}}
        say(f"  {s['mode']:<6}{s['tables']:>7}{s['actions_per_s']:>9.1f}{s['deals_per_s']:>9.2f}"
            f"{fmt(rt['p50_ms']):>8}{fmt(rt['p95_ms']):>8}{fmt(rt['p99_ms']):>8}{fmt(rt['max_ms']):>8}"
            f"{s['error_frames']:>6}{sum(s['failures'].values()):>6}{fmt(echo['round_trip'].get('p50_ms')):>10}"
            f"{fmt(echo['round_trip'].get('p99_ms')):>10}{fmt((s.get('ratios') or {}).get('p50'), '.2f'):>8}"
            f"{fmt(s.get('actions_per_tps'), '.4f'):>9}{s['load_after'][0]:>7.2f}")
    full = [s for s in steps if s["mode"] == "full"]
    if full:
        best = max(full, key=lambda s: s["actions_per_s"])
        under = [s["tables"] for s in sorted(full, key=lambda s: s["tables"])
                 if s["round_trip"]["p99_ms"] is not None and s["round_trip"]["p99_ms"] <= P99_LIMIT_MS]
        over = [s["tables"] for s in full if (s["round_trip"]["p99_ms"] or 0) > P99_LIMIT_MS]
        report["full_speed"] = {
            "best_actions_per_s": best["actions_per_s"], "at_tables": best["tables"],
            "actions_per_tps": best.get("actions_per_tps"),
            "max_tables_p99_within_250ms": max(under) if under else None,
            "first_tables_p99_over_250ms": min(over) if over else None,
        }
        f = report["full_speed"]
        if f["max_tables_p99_within_250ms"] is None:
            limit = f"p99 over {P99_LIMIT_MS:.0f} ms already at {f['first_tables_p99_over_250ms']} tables"
        else:
            limit = f"p99 ≤ {P99_LIMIT_MS:.0f} ms up to {f['max_tables_p99_within_250ms']} tables of those tried"
            if f["first_tables_p99_over_250ms"] is not None:
                limit += f", over it at {f['first_tables_p99_over_250ms']}"
        say(f"  full speed: best {f['best_actions_per_s']} actions/s at {f['at_tables']} tables"
            f" = {fmt(f['actions_per_tps'], '.4f')} × TPC-B tps; {limit}")
    if report.get("pgbench"):
        say(f"  pgbench TPC-B: {report['pgbench']['tps']:.0f} tps")


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
