"""The production-like deployment of `python -m bench live`: its own Redis, its own PostgreSQL database, two
daphne processes, a Celery worker and beat (as the Procfile), and a daphne serving the echo consumer.

Every process is started in its own session with its output in a log file of a temporary directory, and is told
by the kernel to die with this process (PR_SET_PDEATHSIG), so neither Ctrl-C nor a crash of the tool leaves one
behind; `Stack.stop()` ends them all (process group by process group) and drops the database.
"""

from __future__ import annotations

import ctypes
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PG_ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres"
# What counts as an error in a server's log.
ERROR_PATTERNS = {
    "Traceback": re.compile(r"^Traceback \(most recent call last\)", re.M),
    # The exception's own line, once a traceback (not the `raise` line inside it).
    "MaxConnectionsError": re.compile(r"^[\w.]*MaxConnectionsError\b", re.M),
    "ERROR": re.compile(r"\bERROR\b|\bCRITICAL\b"),
}


class StackError(RuntimeError):
    pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _die_with_parent() -> None:
    """In the child before exec: its own session, SIGTERM when the tool dies, and room for many sockets."""
    os.setsid()
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class Process:
    def __init__(self, name: str, args: list[str], env: dict, log_dir: Path):
        self.name, self.args = name, args
        self.log_path = log_dir / f"{name}.log"
        self._log = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.popen = subprocess.Popen(
            args, cwd=ROOT, env=env, stdout=self._log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            preexec_fn=_die_with_parent,
        )
        self.pid = self.popen.pid

    def alive(self) -> bool:
        return self.popen.poll() is None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def tail(self, lines: int = 30) -> str:
        return "\n".join(self.log().splitlines()[-lines:])

    def fail(self, why: str):
        raise StackError(f"{self.name} ({' '.join(self.args)}) {why}\n--- last lines of {self.log_path}:\n"
                         f"{self.tail()}")

    def terminate(self) -> None:
        if self.alive():
            try:
                os.killpg(self.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    def wait_or_kill(self, timeout: float) -> None:
        try:
            self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.popen.wait(timeout=5)
        try:  # the process group may hold children (the worker's pool) after its leader exited
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self._log.close()


def log_errors(text: str) -> dict:
    return {name: len(pattern.findall(text)) for name, pattern in ERROR_PATTERNS.items()}


def error_lines(text: str, limit: int = 6) -> list[str]:
    """The distinct last lines of tracebacks and the ERROR lines, for the report."""
    seen: list[str] = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        candidate = None
        if line.startswith("Traceback"):
            j = i + 1
            while j < len(lines) and (lines[j].startswith(" ") or not lines[j].strip()):
                j += 1
            candidate = lines[j] if j < len(lines) else line
        elif ERROR_PATTERNS["ERROR"].search(line) or ERROR_PATTERNS["MaxConnectionsError"].match(line):
            candidate = line
        if candidate:
            candidate = candidate.strip()[:240]
            if candidate not in seen:
                seen.append(candidate)
    return seen[:limit]


def pg_admin(sql: str, url: str = PG_ADMIN_URL) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(sql)


def database_url(name: str, base: str = PG_ADMIN_URL) -> str:
    return base.rsplit("/", 1)[0] + "/" + name


def wait_http(url: str, process: Process | None, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        if process is not None and not process.alive():
            process.fail(f"exited with status {process.popen.returncode} before {what}")
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status < 500:
                    return
        except urllib.error.HTTPError as answer:
            if answer.code < 500:
                return
            last = f"HTTP {answer.code}"
        except OSError as failure:
            last = repr(failure)
        time.sleep(0.2)
    if process is not None:
        process.fail(f"did not answer {url} in {timeout:.0f} s ({last})")
    raise StackError(f"{url} did not answer in {timeout:.0f} s ({last})")


class Stack:
    """Start with `start()`, always `stop()` (a context manager does both)."""

    def __init__(self, keep: bool = False, echo: bool = True, say=print):
        self.keep, self.echo, self.say = keep, echo, say
        self.run_id = f"{os.getpid()}_{int(time.time()) % 100000}"
        self.log_dir = Path(tempfile.mkdtemp(prefix="svara-bench-live-"))
        self.processes: list[Process] = []
        self.web: list[Process] = []
        self.web_urls: list[str] = []
        self.echo_url: str | None = None
        self.echo_process: Process | None = None
        self.db_name = f"svara_bench_live_{self.run_id}"
        self.db_created = False
        self.redis_port = free_port()
        self.redis_url = f"redis://127.0.0.1:{self.redis_port}/0"
        self.db_url = database_url(self.db_name)

    def __enter__(self):
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc):
        self.stop()

    def env(self) -> dict:
        env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_ALLOW_ASYNC_UNSAFE", "SVARA_CI"}}
        env.update(server_env(self.db_url, self.redis_url))
        return env

    def spawn(self, name: str, args: list[str], env: dict | None = None) -> Process:
        process = Process(name, args, env or self.env(), self.log_dir)
        self.processes.append(process)
        return process

    def start(self) -> None:
        started = time.monotonic()
        redis_server = shutil.which("redis-server")
        if redis_server is None:
            raise StackError("redis-server is not installed (apt-get install redis-server)")
        redis = self.spawn("redis", [redis_server, "--port", str(self.redis_port), "--bind", "127.0.0.1",
                                     "--save", "", "--appendonly", "no", "--maxclients", "20000"])
        self.say(f"  database {self.db_name}, redis on port {self.redis_port}, logs in {self.log_dir}")
        pg_admin(f'CREATE DATABASE "{self.db_name}"')
        self.db_created = True
        self._wait_redis(redis)
        manage = [sys.executable, "manage.py"]
        for step in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
            result = subprocess.run([*manage, *step], cwd=ROOT, env=self.env(), capture_output=True, text=True)
            if result.returncode:
                raise StackError(f"manage.py {' '.join(step)} failed:\n{result.stdout[-3000:]}{result.stderr[-3000:]}")
        daphne = [sys.executable, "-m", "daphne", "-b", "127.0.0.1"]
        ports = [free_port(), free_port()]
        for i, port in enumerate(ports, 1):  # Procfile: web1, web2
            self.web.append(self.spawn(f"web{i}", [*daphne, "-p", str(port), "config.asgi:application"]))
            self.web_urls.append(f"http://127.0.0.1:{port}")
        celery = [sys.executable, "-m", "celery", "-A", "config"]
        self.spawn("worker", [*celery, "worker", "--loglevel=info", "--concurrency=4"])  # Procfile: worker
        self.spawn("beat", [*celery, "beat", "--loglevel=info", "-s", str(self.log_dir / "beat-schedule")])
        if self.echo:
            port = free_port()
            self.echo_process = self.spawn("echo", [*daphne, "-p", str(port), "bench.echo_asgi:application"])
            self.echo_url = f"http://127.0.0.1:{port}"
        for process, url in zip(self.web, self.web_urls, strict=True):
            wait_http(f"{url}/accounts/login/", process, 60, "serving the login page")
        if self.echo_process is not None:
            wait_http(f"{self.echo_url}/accounts/login/", self.echo_process, 60, "serving HTTP")
        self._wait_worker()
        for process in self.processes:
            if not process.alive():
                process.fail(f"exited with status {process.popen.returncode} during start-up")
        self.say(f"  up in {time.monotonic() - started:.1f} s: web {', '.join(self.web_urls)}, echo {self.echo_url}, "
                 f"worker, beat")

    def _wait_redis(self, redis: Process) -> None:
        import redis as redis_py

        deadline = time.monotonic() + 20
        while True:
            if not redis.alive():
                redis.fail(f"exited with status {redis.popen.returncode}")
            try:
                redis_py.Redis.from_url(self.redis_url, socket_timeout=1).ping()
                return
            except redis_py.RedisError:
                if time.monotonic() > deadline:
                    redis.fail("did not answer PING in 20 s")
                time.sleep(0.1)

    def _wait_worker(self, timeout: float = 60) -> None:
        """The worker answers a control ping through the broker (its "ready" line is below the log level)."""
        worker = next(p for p in self.processes if p.name == "worker")
        deadline = time.monotonic() + timeout
        ping = [sys.executable, "-m", "celery", "-A", "config", "inspect", "ping", "--timeout", "2"]
        while True:
            if not worker.alive():
                worker.fail(f"exited with status {worker.popen.returncode}")
            answer = subprocess.run(ping, cwd=ROOT, env=self.env(), capture_output=True, text=True)
            if answer.returncode == 0 and "pong" in answer.stdout:
                return
            if time.monotonic() > deadline:
                worker.fail(f"did not answer a ping in {timeout:.0f} s ({answer.stdout.strip()[-200:]})")
            time.sleep(0.5)

    def check_alive(self) -> None:
        for process in self.processes:
            if not process.alive():
                process.fail(f"died with status {process.popen.returncode}")

    def log_report(self) -> dict:
        return {p.name: {**log_errors(p.log()), "lines": error_lines(p.log()), "log": str(p.log_path)}
                for p in self.processes}

    def stop(self) -> None:
        # Ignore a second Ctrl-C (or SIGTERM) while cleaning up: half a clean-up leaves orphans.
        previous = {sig: signal.signal(sig, signal.SIG_IGN) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            for process in reversed(self.processes):
                process.terminate()
            for process in reversed(self.processes):
                process.wait_or_kill(10)
            if self.db_created and not self.keep:
                try:
                    pg_admin(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')
                    self.db_created = False
                except Exception as failure:  # noqa: BLE001 - say so, do not hide the original error
                    self.say(f"  could not drop database {self.db_name}: {failure}")
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


def server_env(db_url: str, redis_url: str) -> dict:
    """The environment every server process reads (README, Production), for plain http on 127.0.0.1."""
    return {
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECRET_KEY": os.environ.get("SECRET_KEY", "bench-live-not-a-secret-0123456789-abcdefghijklmnopqrstuvwxyz"),
        "DATABASE_URL": db_url,
        "REDIS_URL": redis_url,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "CSRF_TRUSTED_ORIGINS": "http://127.0.0.1,http://localhost",
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_HSTS_SECONDS": "0",
        "PYTHONUNBUFFERED": "1",
        "PYTHONPATH": str(ROOT),
    }


def proc_cpu_seconds(pid: int) -> float:
    """utime + stime of a process (and its waited-for children: none for daphne) from /proc/<pid>/stat."""
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def pgbench(admin_url: str, seconds: int, scale: int = 8, clients: int = 8, threads: int = 2, say=print) -> dict:
    """TPC-B (pgbench's default script) on a throwaway database beside the platform's: the physical reference."""
    binary = shutil.which("pgbench")
    if binary is None:
        raise StackError("pgbench is not installed (apt-get install postgresql-client)")
    name = f"svara_bench_pgbench_{os.getpid()}"
    url = database_url(name, admin_url)
    pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', admin_url)
    pg_admin(f'CREATE DATABASE "{name}"', admin_url)
    try:
        started = time.monotonic()
        init = subprocess.run([binary, "-i", "-q", "-s", str(scale), url], capture_output=True, text=True)
        if init.returncode:
            raise StackError(f"pgbench -i failed:\n{init.stderr[-2000:]}")
        say(f"  pgbench -i -s {scale}: {time.monotonic() - started:.1f} s")
        args = [binary, "-c", str(clients), "-j", str(threads), "-T", str(seconds), "-M", "prepared", url]
        result = subprocess.run(args, capture_output=True, text=True)
        if result.returncode:
            raise StackError(f"pgbench failed:\n{result.stdout[-2000:]}{result.stderr[-2000:]}")
        tps = re.search(r"tps = ([\d.]+) \(without initial connection time\)", result.stdout)
        latency = re.search(r"latency average = ([\d.]+) ms", result.stdout)
        if tps is None:
            raise StackError(f"no tps in pgbench's output:\n{result.stdout[-2000:]}")
        return {"tps": float(tps.group(1)), "latency_avg_ms": float(latency.group(1)) if latency else None,
                "command": " ".join(args[:-1]) + " <db>", "scale": scale, "seconds": seconds}
    finally:
        pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', admin_url)
