import shutil

import pytest

from bench.live_stack import free_port
from tests.tables.conftest import bulgarian_table, classic_table, players, staff  # noqa: F401

from .redis_server import start_redis


@pytest.fixture
def restartable_redis():
    """A redis-server of the test's own: (its URL, a function that kills it and starts it again on that port)."""
    if shutil.which("redis-server") is None:
        pytest.skip("needs redis-server")
    port = free_port()
    servers = [start_redis(port)]

    def restart():
        servers[-1].kill()
        servers[-1].wait()
        servers.append(start_redis(port))

    yield f"redis://127.0.0.1:{port}/0", restart
    servers[-1].kill()
    servers[-1].wait()


@pytest.fixture
def stoppable_redis():
    """A redis-server of the test's own: (its URL, its process), to stop (SIGSTOP) and go on (SIGCONT)."""
    port = free_port()
    server = start_redis(port)
    yield f"redis://127.0.0.1:{port}/0", server
    server.kill()
    server.wait()
