"""The channel layer (Redis pub/sub): a mass close releases every group membership without errors, and a group
message reaches every socket of a process through that process's one subscription."""

import asyncio
import os

import pytest
import redis.asyncio as aioredis
from django.conf import settings

from config.channel_layer import RedisPubSubChannelLayer

REDIS_URL = os.environ.get("REDIS_URL", "")


@pytest.fixture
def redis_url():
    if not REDIS_URL.startswith("redis"):
        pytest.skip("needs Redis: set REDIS_URL=redis://…")
    return REDIS_URL


def test_the_platform_runs_the_pub_sub_layer_on_redis(redis_url):
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == "config.channel_layer.RedisPubSubChannelLayer"


async def subscribers(url: str, channel: str) -> int:
    client = aioredis.from_url(url)
    try:
        return dict(await client.pubsub_numsub(channel)).get(channel.encode(), 0)
    finally:
        await client.aclose()


async def join_then_leave_at_once(url: str, sockets: int):
    layer = RedisPubSubChannelLayer(hosts=[url])
    group = "test-mass-close"
    channels = [await layer.new_channel() for _ in range(sockets)]
    for channel in channels:
        await layer.group_add(group, channel)
    joined = await subscribers(url, f"asgi__group__{group}")
    results = await asyncio.gather(*(layer.group_discard(group, c) for c in channels), return_exceptions=True)
    left = await subscribers(url, f"asgi__group__{group}")
    await layer.flush()
    return [r for r in results if isinstance(r, Exception)], joined, left


def test_a_mass_close_releases_every_group_membership(redis_url):
    errors, joined, left = asyncio.run(join_then_leave_at_once(redis_url, 200))
    assert errors == []
    assert (joined, left) == (1, 0)  # 200 sockets of one process: one subscription, gone when the last leaves


async def fan_out(url: str, sockets: int):
    """One process (this layer) with `sockets` channels in a group, and a sender in another layer."""
    here, there = RedisPubSubChannelLayer(hosts=[url]), RedisPubSubChannelLayer(hosts=[url])
    channels = [await here.new_channel() for _ in range(sockets)]
    for channel in channels:
        await here.group_add("test-fan-out", channel)
    await asyncio.sleep(0.2)  # SUBSCRIBE is answered asynchronously
    await there.group_send("test-fan-out", {"type": "table.changed", "version": 7})
    got = await asyncio.wait_for(asyncio.gather(*(here.receive(c) for c in channels)), 5)
    await here.flush()
    await there.flush()
    return got


def test_a_group_message_reaches_every_socket_of_a_process(redis_url):
    got = asyncio.run(fan_out(redis_url, 5))
    assert got == [{"type": "table.changed", "version": 7}] * 5
