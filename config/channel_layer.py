"""channels-redis's pub/sub layer, which says so when it loses Redis, and keeps each consumer's channel local.

The pub/sub layer publishes a group message once; each process subscribed to the group receives it once and hands
it to its own consumers (docs/architecture.md). Its stock receive loop, when the connection to Redis drops, logs the
error every second and resubscribes once Redis is back, while every message published meanwhile is lost and the
consumers never hear of it. Here a lost connection ends every consumer waiting on this process's subscriptions
instead: its `receive` raises the connection error (the consumers tell their clients `unavailable` and release the
presence, tables/consumers.py), and the next socket starts afresh with a new connection and new subscriptions. A
client that reconnects gets a full snapshot first, so nothing lost in between stays lost.
"""

from __future__ import annotations

import asyncio
import logging
import uuid

from channels_redis import pubsub
from channels_redis.utils import _close_redis, decode_hosts
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

LOST = "channel_layer.lost"  # the message put in every channel's queue when this process lost Redis


class _Shard(pubsub.RedisSingleShardConnection):
    async def _do_receiving(self):
        # The stock loop, but a Redis error ends the subscription instead of being retried every second.
        while True:
            try:
                if self._pubsub and self._pubsub.subscribed:
                    message = await self._pubsub.get_message(ignore_subscribe_messages=True, timeout=0.1)
                    self._receive_message(message)
                else:
                    await asyncio.sleep(0.1)
            except (TimeoutError, asyncio.CancelledError, GeneratorExit):
                raise
            except RedisError as error:
                log.warning("the channel layer lost Redis (%s): its sockets are told and closed", error)
                self._lost()
                return
            except Exception:
                log.exception("the channel layer's receive failed")
                await asyncio.sleep(1)

    async def publish(self, channel, message):
        # A connection kept from before Redis restarted fails once ("Connection closed by server") and is dropped:
        # the message goes once more on a fresh one (a process with no subscription of its own never heard of the
        # restart). Still down: the second error is raised, as before. A message twice is harmless (versions).
        try:
            await super().publish(channel, message)
        except RedisConnectionError:
            await super().publish(channel, message)

    def _lost(self) -> None:
        redis, self._redis, self._pubsub, self._receive_task = self._redis, None, None, None
        self._subscribed_to = set()
        if redis is not None:
            asyncio.ensure_future(_quietly_close(redis))
        self.channel_layer.lost()


async def _quietly_close(redis) -> None:
    try:
        await _close_redis(redis)
    except Exception:  # the connection is gone already
        pass


class _LoopLayer(pubsub.RedisPubSubLoopLayer):
    def __init__(self, hosts=None, *args, **kwargs):
        super().__init__(hosts, *args, **kwargs)
        self._shards = [_Shard(host, self) for host in decode_hosts(hosts)]
        self.lost_channels: set[str] = set()

    async def new_channel(self, prefix="specific."):
        # Nothing is ever sent to one consumer's channel (every message goes to a group, which each process
        # subscribes to once), so a channel lives in its process only: no subscription of its own in Redis, one
        # round trip less for every socket that opens.
        channel = f"{self.prefix}{prefix}{uuid.uuid4().hex}"
        self.channels[channel] = asyncio.Queue()
        return channel

    def lost(self) -> None:
        """Every channel of this process hears that its subscriptions are gone (its next or current `receive`
        raises); the channels and groups are forgotten, so the next socket subscribes afresh."""
        channels, self.channels, self.groups = self.channels, {}, {}
        self.lost_channels |= set(channels)
        for queue in channels.values():
            queue.put_nowait(self.channel_layer.serialize({"type": LOST}))

    async def _subscribe_to_channel(self, channel):
        try:
            await super()._subscribe_to_channel(channel)
        except Exception:
            self.channels.pop(channel, None)  # Redis is out of reach: no queue left behind for a dead socket
            raise

    async def receive(self, channel):
        if channel not in self.lost_channels:
            message = await super().receive(channel)
            if message.get("type") != LOST:
                return message
        self.lost_channels.discard(channel)
        raise RedisConnectionError("the channel layer lost its connection to Redis")


class RedisPubSubChannelLayer(pubsub.RedisPubSubChannelLayer):
    def _get_layer(self):
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = _LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            pubsub._wrap_close(self, loop)
        return layer
