"""The people at a drill's tables: players with chips and sessions (bench/live_players.py), tables of both
families, spectators, and the client process that plays for them all (drills/client.py)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench import live_players
from bench.live import ws_url
from bench.live_stack import ROOT

FAMILIES = ("classic", "bulgarian")


def say(text: str = "") -> None:
    print(text, flush=True)


def loadavg() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


@dataclass
class Crowd:
    tables: list[int]
    families: dict[int, str]
    specs: list[dict]  # one per socket, as drills/client.py reads them


def gather(run_id: str, web_urls: list[str], tables: int, seats: int, spectators: int, ante: int,
           http_logins: int = 8) -> Crowd:
    """`tables` tables (classic and bulgarian by turns) of `seats` players each, and `spectators` anonymous
    sockets a table; every socket may use any of the daphne processes (each starts at its own)."""
    from django.contrib.auth import get_user_model

    from tables.services import create_table

    players = live_players.make_players(tables * seats, run_id, say=say)
    live_players.log_in(players, web_urls, http_logins, say=say)
    users = {u.pk: u for u in get_user_model().objects.filter(pk__in=[p.pk for p in players])}
    table_ids, families, specs = [], {}, []
    for t in range(tables):
        family = FAMILIES[t % len(FAMILIES)]
        table = create_table(users[players[t * seats].pk], family, ante, seats, False)
        table_ids.append(table.pk)
        families[table.pk] = family
        path = f"/ws/tables/{table.pk}/"
        urls = [ws_url(base, path)[0] for base in web_urls]
        origin = ws_url(web_urls[0], path)[1]
        for seat in range(seats):
            player = players[t * seats + seat]
            specs.append({"urls": urls, "origin": origin, "cookie": player.cookie, "user": player.pk,
                          "table": table.pk, "seat": seat, "buyin": 100 * ante, "ante": ante})
        for _ in range(spectators):
            specs.append({"urls": urls, "origin": origin, "cookie": "", "user": None, "table": table.pk,
                          "seat": None, "buyin": 0, "ante": ante})
    return Crowd(table_ids, families, specs)


def deploy(stack, args, **client_options) -> tuple[Crowd, ClientProcess]:
    """Start the stack, keep every stored version from then on (drills/truth.py), gather `args.tables` tables of
    players and spectators, and the client process that will play for them (not started yet)."""
    from bench import live_stack

    from . import truth

    say("# starting the deployment")
    stack.start()
    os.environ.update(live_stack.server_env(stack.db_url, stack.redis_url))
    os.environ["DB_POOL"] = "0"  # the drill's own few queries: a new connection each, never one a restart cut
    import django

    django.setup()
    from django.db import connection, connections

    with connection.cursor() as cursor:
        truth.install(cursor)
    say(f"# {args.tables} tables ({', '.join(FAMILIES)} by turns) × {args.seats} players, "
        f"{args.spectators} spectators each")
    people = gather(stack.run_id, stack.web_urls, args.tables, args.seats, args.spectators, args.ante)
    connections.close_all()
    return people, ClientProcess(people, **client_options)


def _die_with_parent() -> None:
    import ctypes

    try:
        ctypes.CDLL("libc.so.6").prctl(1, signal.SIGTERM)
    except OSError:
        pass


class ClientProcess:
    """drills/client.py in a process of its own: `start()`, `stop()` (tells it to finish), `result()`."""

    def __init__(self, crowd: Crowd, mode: str = "full", seed: int = 1, drain: float = 30.0, lazy: float = 0.0):
        self.work = Path(tempfile.mkdtemp(prefix="svara-drill-client-"))
        self.frames_path = self.work / "frames.tsv"
        self.spec_path, self.result_path = self.work / "spec.json", self.work / "result.json"
        self.spec_path.write_text(json.dumps({"players": crowd.specs, "mode": mode, "seed": seed, "drain": drain,
                                              "frames": str(self.frames_path), "lazy": lazy}))
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 120) -> float:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "drills.client", str(self.spec_path), str(self.result_path)], cwd=ROOT,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            preexec_fn=_die_with_parent,
        )
        line = self.process.stdout.readline()  # {"ready": seconds} once every player sits
        if not line:
            raise RuntimeError(f"the drill's client failed to start:\n{self.process.stderr.read()[-3000:]}")
        return json.loads(line)["ready"]

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self, timeout: float = 180) -> dict:
        """Tell the client to finish the running deals and report."""
        try:
            self.process.stdin.write("stop\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            pass
        try:
            _, errors = self.process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            _, errors = self.process.communicate()
            raise RuntimeError(f"the drill's client did not finish in {timeout:.0f} s:\n{errors[-3000:]}") from None
        if self.process.returncode or not self.result_path.exists():
            raise RuntimeError(f"the drill's client failed (status {self.process.returncode}):\n{errors[-3000:]}")
        return json.loads(self.result_path.read_text())

    def frames(self):
        """(table id, user id or None, connection, frame) for every recorded frame."""
        with open(self.frames_path, encoding="utf-8") as handle:
            for line in handle:
                table, user, connection, raw = line.rstrip("\n").split("\t", 3)
                yield int(table), (None if user == "-" else int(user)), int(connection), json.loads(raw)

    def clean(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.work, ignore_errors=True)


def wait_deals(table_ids: list[int], deals: int, timeout: float, client: ClientProcess, stack, every: float = 2.0,
               progress=None) -> int:
    """Until `deals` deals ended at these tables (their hand histories), the time runs out, or something died."""
    from django.db import connections

    from tables.models import Deal

    started = time.monotonic()
    done = 0
    while time.monotonic() - started < timeout:
        done = Deal.objects.filter(table_id__in=table_ids, ended_at__isnull=False).count()
        connections.close_all()
        if progress is not None:
            progress(done)
        if done >= deals or not client.alive():
            break
        stack.check_alive()
        time.sleep(every)
    return done
