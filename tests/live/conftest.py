"""A real server for the live tests: daphne in a subprocess sharing the test database.

Embedded default (no REDIS_URL): `manage.py serve`, which runs daphne with the in-process Celery worker and beat.
With REDIS_URL: daphne, a Celery worker and Celery beat as separate processes. SQLite test databases are files
(config/settings/test.py), so the subprocess sees what the test commits (hence `transactional_db`).
"""

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from bench.live_stack import web_launcher

from .client import LiveClient
from .server import database_url, free_port

ROOT = Path(__file__).resolve().parents[2]
# Clocks run at a fifth of their length: a move 4 s, Show/Fold 0.6 s, split 2 s, svara offer 2 s, New deal 6 s.
CLOCK_SCALE = "0.2"


def server_env(**extra) -> dict:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=database_url(),
        DJANGO_SETTINGS_MODULE="config.settings.test",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SVARA_CLOCK_SCALE=CLOCK_SCALE,
        PYTHONUNBUFFERED="1",
        LOG_LEVEL="WARNING",
    )
    env.update(extra)
    return env


def wait_for_port(port: int, processes, timeout: float = 40) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for process in processes:
            if process.poll() is not None:
                raise RuntimeError(f"{process.args} exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    raise TimeoutError(f"nothing listens on port {port} after {timeout} s")


class Servers:
    """The processes of one live set-up; `ports` are the daphne ports clients may connect to."""

    def __init__(self):
        self.processes: list[subprocess.Popen] = []
        self.ports: list[int] = []
        self.logs = Path(tempfile.mkdtemp(prefix="svara-live-"))

    def start(self, name: str, args: list[str], env: dict) -> subprocess.Popen:
        log = open(self.logs / f"{name}.log", "wb")  # noqa: SIM115 (closed with the process)
        process = subprocess.Popen(
            args, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        self.processes.append(process)
        return process

    def start_web(self, env: dict, embedded_celery: bool) -> int:
        port = free_port()
        if embedded_celery:
            args = [sys.executable, "manage.py", "serve", "--port", str(port)]
        else:
            args = [*web_launcher(), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"]
        self.start(f"web-{port}", args, env)
        wait_for_port(port, self.processes)
        self.ports.append(port)
        return port

    def start_celery(self, env: dict) -> None:
        celery = [sys.executable, "-m", "celery", "-A", "config"]
        self.start("worker", [*celery, "worker", "--pool=threads", "--concurrency=4", "--loglevel=WARNING"], env)
        schedule = self.logs / "beat-schedule"
        self.start("beat", [*celery, "beat", "--loglevel=WARNING", "-s", str(schedule)], env)

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=5)

    def log_tail(self, lines: int = 40) -> str:
        out = []
        for path in sorted(self.logs.glob("*.log")):
            text = path.read_text(errors="replace").splitlines()[-lines:]
            out.append(f"--- {path.name}\n" + "\n".join(text))
        return "\n".join(out)

    def client(self, table_id: int | None, sessionid: str | None = None, port: int | None = None, **kwargs):
        return LiveClient(port or self.ports[0], table_id, sessionid, **kwargs)


@pytest.fixture
def live(transactional_db, request):
    """One web process with its Celery (embedded, or separate processes with REDIS_URL)."""
    servers = Servers()
    redis = bool(os.environ.get("REDIS_URL"))
    env = server_env()
    try:
        servers.start_web(env, embedded_celery=not redis)
        if redis:
            servers.start_celery(env)
        yield servers
    finally:
        servers.stop()
        if request.node.rep_call.failed if hasattr(request.node, "rep_call") else False:
            print(servers.log_tail())


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)
