"""The production-like deployment of `python -m bench live`: its own Redis, its own PostgreSQL database, two
daphne processes, a Celery worker and beat (as the Procfile), and a daphne serving the echo consumer.

Every process is started in its own session with its output in a log file of a temporary directory, and is told
by the kernel to die with this process (PR_SET_PDEATHSIG), so neither Ctrl-C nor a crash of the tool leaves one
behind; `Stack.stop()` ends them all (process group by process group) and drops the database.
"""

from __future__ import annotations

import ctypes
import functools
import os
import re
import resource
import shlex
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
# The machine's PostgreSQL: over its Unix-domain socket (Debian's directory) when it lets us in there, as a
# one-machine deployment connects, else over TCP (machine_pg_url). The socket spares each round trip the TCP stack:
# two alternating pairs at 50 tables, full speed, socket against TCP: 280.8 / 251.8 and 343.5 / 318.6 actions/s
# (docs/benchmarks.md, session 19).
PG_SOCKET_URL = "postgres://postgres@%2Fvar%2Frun%2Fpostgresql:5432/postgres"
PG_TCP_URL = "postgres://postgres@127.0.0.1:5432/postgres"
# What counts as an error in a server's log.
ERROR_PATTERNS = {
    "Traceback": re.compile(r"^Traceback \(most recent call last\)", re.M),
    # The exception's own line, once a traceback (not the `raise` line inside it).
    "MaxConnectionsError": re.compile(r"^[\w.]*MaxConnectionsError\b", re.M),
    "ERROR": re.compile(r"\bERROR\b|\bCRITICAL\b"),
}


class StackError(RuntimeError):
    pass


def procfile_command(name: str) -> list[str]:
    """A process's command as the Procfile gives it (so the drills start what production starts)."""
    line = next(line for line in (ROOT / "Procfile").read_text().splitlines() if line.startswith(f"{name}:"))
    return shlex.split(line.split(":", 1)[1])


def web_launcher() -> list[str]:
    """The Procfile's web process up to daphne's own arguments, on this interpreter: every daphne the bench, the drills
    and the live tests start runs on the event loop production's does."""
    command = procfile_command("web1")
    return [sys.executable, *command[1 : command.index("-b")]]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def check_port_free(port: int, what: str) -> None:
    """A server of the stack's own on a fixed port: refuse to start if something else listens there (it would be
    taken for ours)."""
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            raise StackError(f"port {port} for {what} is in use (another run?): choose another") from None


def _die_with_parent() -> None:
    """In the child before exec: its own session, SIGTERM when the tool dies, and room for many sockets."""
    os.setsid()
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def _as_postgres() -> None:
    """PostgreSQL refuses to run as root: its own cluster's processes run as the `postgres` user."""
    if os.geteuid() == 0:
        import pwd

        entry = pwd.getpwnam("postgres")
        os.setgid(entry.pw_gid)
        os.setuid(entry.pw_uid)


def _die_with_parent_as_postgres() -> None:
    _die_with_parent()
    _as_postgres()


class Process:
    def __init__(self, name: str, args: list[str], env: dict, log_dir: Path, as_postgres: bool = False,
                 cwd: Path = ROOT):  # fmt: skip
        self.name, self.args = name, args
        self.log_path = log_dir / f"{name}.log"
        self._log = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.popen = subprocess.Popen(
            args, cwd=cwd, env=env, stdout=self._log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            preexec_fn=_die_with_parent_as_postgres if as_postgres else _die_with_parent,
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

    def kill(self) -> None:
        """SIGKILL to the whole process group (a daphne, or the worker with its pool): no clean-up runs."""
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.popen.wait(timeout=10)
        self._log.close()

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


@functools.cache
def machine_pg_url() -> str:
    """The machine's server's `postgres` database: BENCH_PG_URL if set, else over the Unix-domain socket if it
    answers there with these credentials (its `local` lines may ask for another authentication), else over TCP."""
    import psycopg

    if os.environ.get("BENCH_PG_URL"):
        return os.environ["BENCH_PG_URL"]
    try:
        psycopg.connect(PG_SOCKET_URL, connect_timeout=2).close()
    except psycopg.Error:
        return PG_TCP_URL
    return PG_SOCKET_URL


def pg_admin(sql: str, url: str | None = None) -> None:
    import psycopg

    with psycopg.connect(url or machine_pg_url(), autocommit=True) as connection:
        connection.execute(sql)


def database_url(name: str, base: str | None = None) -> str:
    return (base or machine_pg_url()).rsplit("/", 1)[0] + "/" + name


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


class PostgresCluster:
    """A PostgreSQL server of the stack's own (the fault drill restarts it): `initdb` into a temporary directory,
    `postgres` on a spare port as a child of this process (so it dies with it), `pg_ctl stop` to stop it."""

    def __init__(self, port: int, log_dir: Path, say=print, preload: tuple[str, ...] = ()):
        self.port, self.say = port, say
        self.preload = preload  # shared_preload_libraries (`bench live --pg-stats`: pg_stat_statements)
        self.data = log_dir / "pgdata"
        self.admin_url = f"postgres://postgres@127.0.0.1:{port}/postgres"
        self.process: Process | None = None
        self.starts = 0
        self.log_dir = log_dir

    def init(self) -> None:
        check_port_free(self.port, "PostgreSQL")
        for binary in ("initdb", "pg_ctl", "postgres"):
            if shutil.which(binary) is None:
                raise StackError(f"{binary} is not on PATH (PostgreSQL's server binaries)")
        self.data.mkdir()
        if os.geteuid() == 0:
            import pwd

            entry = pwd.getpwnam("postgres")
            os.chown(self.data, entry.pw_uid, entry.pw_gid)
            os.chmod(self.log_dir, 0o755)
        result = subprocess.run(
            [shutil.which("initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
             "--no-sync", "--locale=C"], capture_output=True, text=True, preexec_fn=_as_postgres,
        )
        if result.returncode:
            raise StackError(f"initdb failed:\n{result.stdout[-2000:]}{result.stderr[-2000:]}")
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.write(f"\nlisten_addresses = '127.0.0.1'\nport = {self.port}\nmax_connections = 300\n"
                       f"unix_socket_directories = '{self.data}'\nshared_buffers = 64MB\n")
            if self.preload:
                conf.write(f"shared_preload_libraries = '{','.join(self.preload)}'\n")
                if "pg_stat_statements" in self.preload:  # planning shown beside execution (bench/live_db.py)
                    conf.write("pg_stat_statements.track_planning = on\n")

    def start(self, spawn) -> Process:
        self.starts += 1
        self.process = spawn(f"postgres.{self.starts}" if self.starts > 1 else "postgres",
                             [shutil.which("postgres"), "-D", str(self.data)], as_postgres=True)
        self.wait_ready()
        return self.process

    def wait_ready(self, timeout: float = 30) -> None:
        import psycopg

        deadline = time.monotonic() + timeout
        while True:
            if not self.process.alive():
                self.process.fail(f"exited with status {self.process.popen.returncode}")
            try:
                with psycopg.connect(self.admin_url, connect_timeout=2) as connection:
                    connection.execute("SELECT 1")
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    self.process.fail(f"did not accept a connection in {timeout:.0f} s")
                time.sleep(0.1)

    def stop(self, mode: str = "fast") -> None:
        """`pg_ctl stop -m fast`: connections are cut, the WAL is flushed, nothing committed is lost."""
        if self.process is None or not self.process.alive():
            return
        result = subprocess.run([shutil.which("pg_ctl"), "stop", "-D", str(self.data), "-m", mode, "-w", "-t", "30"],
                                capture_output=True, text=True, preexec_fn=_as_postgres)
        if result.returncode and self.process.alive():
            raise StackError(f"pg_ctl stop failed:\n{result.stdout[-2000:]}{result.stderr[-2000:]}")
        self.process.popen.wait(timeout=30)


class Stack:
    """Start with `start()`, always `stop()` (a context manager does both)."""

    def __init__(self, keep: bool = False, echo: bool = True, say=print, extra_env: dict | None = None,
                 own_postgres_port: int | None = None, redis_port: int | None = None, floor: bool = False,
                 pg_stats: bool = False, compare: Path | None = None, compare_web: int = 2):
        self.keep, self.echo, self.say = keep, echo, say
        # With `compare`, daphne `web<compare_web>` runs the code of that other checkout (say a `git worktree` of an
        # older commit, its migrations the same), beside this checkout's in the same run: an A/B on one machine at
        # one moment (bench/live.py `--compare`).
        self.compare, self.compare_web = compare, compare_web
        self.floor = floor  # a second echo daphne: the floor's sockets spread over two processes, as the platform's
        self.extra_env = dict(extra_env or {})  # e.g. the drills' faster clocks, for every server process
        self.commands: dict[str, tuple[list[str], Path]] = {}  # by name, to start a killed one again (`respawn`)
        self.current: dict[str, Process] = {}  # by name, the newest process of that name
        self.starts: dict[str, int] = {}
        self.run_id = f"{os.getpid()}_{int(time.time()) % 100000}"
        self.log_dir = Path(tempfile.mkdtemp(prefix="svara-bench-live-"))
        self.processes: list[Process] = []
        self.web: list[Process] = []
        self.web_urls: list[str] = []
        self.echo_url: str | None = None
        self.echo_process: Process | None = None
        self.floor_urls: list[str] = []  # the echo daphne and, with `floor`, a second one
        self.db_name = f"svara_bench_live_{self.run_id}"
        self.db_created = False
        self.redis_port = redis_port or free_port()
        self.redis_url = f"redis://127.0.0.1:{self.redis_port}/0"
        # With `own_postgres_port` the stack runs a PostgreSQL server of its own there (the fault drill restarts
        # it), as with `pg_stats` (on a spare port, with pg_stat_statements loaded: bench/live_db.py); otherwise its
        # database lives on the machine's server.
        self.pg_stats = pg_stats
        if pg_stats and not own_postgres_port:
            own_postgres_port = free_port()
        preload = ("pg_stat_statements",) if pg_stats else ()
        self.postgres = PostgresCluster(own_postgres_port, self.log_dir, say, preload) if own_postgres_port else None
        self.pg_admin_url = self.postgres.admin_url if self.postgres else machine_pg_url()
        self.db_url = database_url(self.db_name, self.pg_admin_url)

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
        env.update(self.extra_env)
        return env

    def spawn(self, name: str, args: list[str], env: dict | None = None, as_postgres: bool = False,
              cwd: Path = ROOT) -> Process:  # fmt: skip
        process = Process(name, args, env or self.env(), self.log_dir, as_postgres=as_postgres, cwd=cwd)
        self.processes.append(process)
        base = name.split(".")[0]
        self.commands.setdefault(base, (args, cwd))
        self.current[base] = process
        return process

    def kill(self, name: str) -> Process:
        """SIGKILL the newest process of that name (web1, web2, worker, beat, redis)."""
        process = self.current[name]
        process.kill()
        return process

    def respawn(self, name: str) -> Process:
        """Start a killed process again with the same command (its log: `<name>.<n>.log`); a daphne is waited
        for until it serves."""
        self.starts[name] = self.starts.get(name, 1) + 1
        args, cwd = self.commands[name]
        process = self.spawn(f"{name}.{self.starts[name]}", args, cwd=cwd)
        if name.startswith("web"):
            index = int(name[3:]) - 1
            self.web[index] = process
            wait_http(f"{self.web_urls[index]}/accounts/login/", process, 60, "serving the login page")
        elif name == "redis":
            self._wait_redis(process)
        elif name == "beat":
            self._wait_beat(process)
        return process

    def _wait_beat(self, beat: Process, timeout: float = 60) -> None:
        """Beat works again once it sends a due task (its INFO line; the drills run Celery's log at INFO): until
        then a restarted beat is as good as dead, and the next fault would find two processes down."""
        deadline = time.monotonic() + timeout
        while "Sending due task" not in beat.log():
            if not beat.alive():
                beat.fail(f"exited with status {beat.popen.returncode}")
            if time.monotonic() > deadline:
                beat.fail(f"sent no task in {timeout:.0f} s")
            time.sleep(0.2)

    def restart_postgres(self) -> None:
        """Stop the stack's own PostgreSQL (fast: every connection is cut) and start it again."""
        self.postgres.stop("fast")
        self.postgres.start(self.spawn)

    def start(self) -> None:
        started = time.monotonic()
        redis_server = shutil.which("redis-server")
        if redis_server is None:
            raise StackError("redis-server is not installed (apt-get install redis-server)")
        check_port_free(self.redis_port, "Redis")
        redis = self.spawn("redis", [redis_server, "--port", str(self.redis_port), "--bind", "127.0.0.1",
                                     "--save", "", "--appendonly", "no", "--maxclients", "20000"])
        if self.postgres is not None:
            self.postgres.init()
            self.postgres.start(self.spawn)
            self.say(f"  own PostgreSQL on port {self.postgres.port}")
        self.say(f"  database {self.db_name}, redis on port {self.redis_port}, logs in {self.log_dir}")
        pg_admin(f'CREATE DATABASE "{self.db_name}"', self.pg_admin_url)
        self.db_created = True
        if self.pg_stats:
            from bench.live_db import enable

            enable(self.db_url)
        self._wait_redis(redis)
        manage = [sys.executable, "manage.py"]
        steps = [(ROOT, ["migrate", "--noinput"]), (ROOT, ["compile_translations"]),
                 (ROOT, ["collectstatic", "--noinput"])]  # fmt: skip
        if self.compare is not None:  # the other checkout: the same tables, its own pages and words
            steps += [(self.compare, ["migrate", "--check"]), (self.compare, ["compile_translations"]),
                      (self.compare, ["collectstatic", "--noinput"])]  # fmt: skip
        for root, step in steps:
            result = subprocess.run([*manage, *step], cwd=root, env=self.env(), capture_output=True, text=True)
            if result.returncode:
                raise StackError(f"manage.py {' '.join(step)} in {root} failed:\n{result.stdout[-3000:]}"
                                 f"{result.stderr[-3000:]}")  # fmt: skip
        daphne = [*web_launcher(), "-b", "127.0.0.1"]
        ports = [free_port(), free_port()]
        for i, port in enumerate(ports, 1):  # Procfile: web1, web2
            root = self.compare if self.compare is not None and i == self.compare_web else ROOT
            self.web.append(self.spawn(f"web{i}", [*daphne, "-p", str(port), "config.asgi:application"], cwd=root))
            self.web_urls.append(f"http://127.0.0.1:{port}")
        celery = [sys.executable, "-m", "celery", "-A", "config"]
        self.spawn("worker", [sys.executable, "-m", *procfile_command("worker")])
        self.spawn("beat", [*celery, "beat", "--loglevel=info", "-s", str(self.log_dir / "beat-schedule")])
        echoes = []
        for name in ["echo"] * (self.echo or self.floor) + ["echo2"] * self.floor:
            port = free_port()
            echoes.append(self.spawn(name, [*daphne, "-p", str(port), "bench.echo_asgi:application"]))
            self.floor_urls.append(f"http://127.0.0.1:{port}")
        if self.echo:  # the echo step runs on the first; with `floor` alone, only the floor does
            self.echo_process, self.echo_url = echoes[0], self.floor_urls[0]
        for process, url in zip(self.web, self.web_urls, strict=True):
            wait_http(f"{url}/accounts/login/", process, 60, "serving the login page")
        for process, url in zip(echoes, self.floor_urls, strict=True):
            wait_http(f"{url}/accounts/login/", process, 60, "serving HTTP")
        self._wait_worker()
        for process in self.processes:
            if not process.alive():
                process.fail(f"exited with status {process.popen.returncode} during start-up")
        self.say(f"  up in {time.monotonic() - started:.1f} s: web {', '.join(self.web_urls)}, "
                 f"echo {', '.join(self.floor_urls) or None}, "
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
        worker = self.current["worker"]
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
        for process in self.current.values():
            if not process.alive():
                process.fail(f"died with status {process.popen.returncode}")

    def log_report(self) -> dict:
        return {p.name: {**log_errors(p.log()), "lines": error_lines(p.log()), "log": str(p.log_path)}
                for p in self.processes}

    def stop(self, keep_logs: bool = False) -> None:
        # Ignore a second Ctrl-C (or SIGTERM) while cleaning up: half a clean-up leaves orphans.
        previous = {sig: signal.signal(sig, signal.SIG_IGN) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            servers = [p for p in self.processes if not p.name.startswith("postgres")]
            for process in reversed(servers):
                process.terminate()
            for process in reversed(servers):
                process.wait_or_kill(10)
            if self.postgres is not None:  # its own server: stopped, and its directory goes with the logs
                try:
                    self.postgres.stop("fast")
                except StackError as failure:
                    self.say(f"  {failure}")
                for process in self.processes:
                    if process.name.startswith("postgres"):
                        process.wait_or_kill(10)
                if not self.keep:  # `keep_logs`: a failed run's logs stay for its caller to point at
                    shutil.rmtree(self.postgres.data if keep_logs else self.log_dir, ignore_errors=True)
            elif self.db_created and not self.keep:
                try:
                    pg_admin(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)', self.pg_admin_url)
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
