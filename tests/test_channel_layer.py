"""The channel layer's pool waits for a free Redis connection: closing many sockets at once releases every group
membership (the stock pool raised MaxConnectionsError and left them behind)."""

import asyncio
import os

import pytest
from channels_redis.core import RedisChannelLayer as StockLayer

from config.channel_layer import RedisChannelLayer

REDIS_URL = os.environ.get("REDIS_URL", "")


def layer_of(kind):
    return kind(hosts=[{"address": REDIS_URL, "max_connections": 5}], group_expiry=600)


async def join_then_leave_at_once(layer, sockets: int) -> list:
    group = "test-mass-close"
    channels = [await layer.new_channel() for _ in range(sockets)]
    for channel in channels:
        await layer.group_add(group, channel)
    results = await asyncio.gather(*(layer.group_discard(group, c) for c in channels), return_exceptions=True)
    connection = layer.connection(layer.consistent_hash(group))
    left = await connection.zcard(layer._group_key(group))
    await layer.flush()
    return [r for r in results if isinstance(r, Exception)], left


@pytest.fixture
def redis_url():
    if not REDIS_URL.startswith("redis"):
        pytest.skip("needs Redis: set REDIS_URL=redis://…")
    return REDIS_URL


def test_a_mass_close_releases_every_group_membership(redis_url):
    errors, left = asyncio.run(join_then_leave_at_once(layer_of(RedisChannelLayer), 200))
    assert errors == [] and left == 0


def test_the_stock_pool_would_have_failed_the_same_mass_close(redis_url):
    """The control: without the waiting pool the same close fails and leaves memberships behind."""
    errors, left = asyncio.run(join_then_leave_at_once(layer_of(StockLayer), 200))
    assert errors and left > 0
