"""A redis-server of a test's own, on a port it chose: the defects that need Redis to go away and come back."""

import shutil
import subprocess
import time

import redis


def start_redis(port: int) -> subprocess.Popen:
    """Start redis-server on `port` (no persistence) and return once it answers a ping."""
    process = subprocess.Popen([shutil.which("redis-server"), "--port", str(port), "--bind", "127.0.0.1", "--save",
                                "", "--appendonly", "no"], stdout=subprocess.DEVNULL)  # fmt: skip
    client = redis.Redis(port=port, socket_timeout=1)
    for _ in range(100):
        try:
            client.ping()
            return process
        except redis.RedisError:
            time.sleep(0.05)
    process.kill()
    raise AssertionError("redis-server did not start")
