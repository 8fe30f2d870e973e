"""A real server for end-to-end tests: `manage.py serve` (daphne + an in-process Celery worker and beat) in a
subprocess, on the pytest test database.

The subprocess uses `tests.live.settings` (the test settings, plus a file-based e-mail backend whose directory
the test reads). REDIS_URL is removed from its environment so that its channel layer is in memory and the Celery
worker runs inside it: one process, whose clocks really run (SVARA_CLOCK_SCALE shortens them).

Use `start_live_server(...)` as a context manager; the test must use committed data (`transactional_db`).
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url() -> str:
    """The URL of the database pytest-django set up for this run (its TEST database), for the subprocess."""
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        name = settings["NAME"]
        if not name or name == ":memory:" or "mode=memory" in str(name):
            pytest.skip("the live tests need a file SQLite test database (config/settings/test.py sets one)")
        return f"sqlite:///{name}"
    if connection.vendor == "postgresql":
        user = settings.get("USER") or "postgres"
        password = f":{settings['PASSWORD']}" if settings.get("PASSWORD") else ""
        host = settings.get("HOST") or "127.0.0.1"
        port = settings.get("PORT") or "5432"
        return f"postgres://{user}{password}@{host}:{port}/{settings['NAME']}"
    pytest.skip(f"no live server for the {connection.vendor} database")


@dataclass
class LiveServer:
    url: str
    mail_dir: Path
    process: subprocess.Popen
    log_path: Path
    launch: object = None  # starts the server process again, on the same address (see `start`)

    def mails(self) -> list[str]:
        """Every e-mail the server sent, as text, oldest first."""
        files = sorted(self.mail_dir.glob("*.log"), key=lambda p: p.stat().st_mtime)
        return [p.read_text(errors="replace") for p in files]

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def stop(self) -> None:
        """The server goes away (every socket to it drops); `start` brings it back on the same address."""
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def start(self, timeout: float = 30.0) -> None:
        self.process = self.launch()
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"the live server exited early:\n{self.log()}")
            try:
                urllib.request.urlopen(f"{self.url}/count/", timeout=2).read()
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the live server did not answer in {timeout} s:\n{self.log()}") from None
                time.sleep(0.2)


@contextlib.contextmanager
def start_live_server(clock_scale: float = 1.0, extra_env: dict | None = None, timeout: float = 30.0):
    """`extra_env` adds to (a value of None: removes from) the server's environment."""
    port = free_port()
    mail_dir = Path(tempfile.mkdtemp(prefix="svara-mail-"))
    log_path = Path(tempfile.mkdtemp(prefix="svara-server-")) / "server.log"
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "tests.live.settings",
            "SVARA_LIVE_DATABASE_URL": database_url(),
            "SVARA_LIVE_MAIL_DIR": str(mail_dir),
            "SVARA_CLOCK_SCALE": str(clock_scale),
            "DEBUG": "1",
            "PYTHONUNBUFFERED": "1",
            **(extra_env or {}),
        }
    )
    for name in [name for name, value in env.items() if value is None]:
        del env[name]  # `extra_env={"DEBUG": None}`: the server as `manage.py serve` runs by default
    log = open(log_path, "a")  # noqa: SIM115 - closed below

    def launch() -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )

    server = LiveServer(url=f"http://127.0.0.1:{port}", mail_dir=mail_dir, process=None, log_path=log_path,
                        launch=launch)
    try:
        server.start(timeout)
        yield server
    finally:
        if server.process is not None and server.process.poll() is None:
            server.stop()
        log.close()
