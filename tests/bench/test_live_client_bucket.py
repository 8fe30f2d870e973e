"""The load client never sends faster than the server's limit (tables/ratelimit.py): a message that waits for its
token spends it, so the next one waits its turn too (it used to be sent at once, twice the rate)."""

from bench.live_client import Bucket
from tables.ratelimit import TokenBucket


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_the_load_clients_bucket_keeps_under_the_servers_limit(monkeypatch):
    clock = Clock()
    monkeypatch.setattr("bench.live_client.time.monotonic", clock)
    client, server = Bucket(8, 8), TokenBucket(10, 10, clock=clock)
    refused = 0
    for _ in range(400):  # as fast as the client lets itself: send, or wait what it says and send
        clock.now += client.wait_time()
        refused += not server.take()
    assert refused == 0
    assert clock.now >= (400 - 8) / 8 * 0.99  # the client's own rate, after its burst
