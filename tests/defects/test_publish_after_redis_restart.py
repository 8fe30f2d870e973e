"""A process that only publishes to a table's group (none of its sockets watches it) kept a pooled connection to
Redis from before Redis restarted: its next group message failed on that dead connection ("Connection closed by
server") and was lost, so the table's viewers in the other processes missed a change. The layer now sends it once
more on a fresh connection (config/channel_layer.py). Found by a review of the fault drill's Redis restarts."""

import asyncio

from asgiref.sync import async_to_sync

from config.channel_layer import RedisPubSubChannelLayer


def test_a_group_message_after_redis_restarted_reaches_the_viewers_of_another_process(restartable_redis):
    url, restart = restartable_redis

    async def scenario():
        publisher = RedisPubSubChannelLayer(hosts=[url])  # the process where the move was made
        viewers = RedisPubSubChannelLayer(hosts=[url])  # another daphne, whose socket watches the table
        await publisher.group_send("table-1", {"type": "table.changed", "version": 1})
        restart()
        channel = await viewers.new_channel()
        await viewers.group_add("table-1", channel)
        await publisher.group_send("table-1", {"type": "table.changed", "version": 2})
        try:
            return await asyncio.wait_for(viewers.receive(channel), 5)
        finally:
            await publisher.flush()
            await viewers.flush()

    assert async_to_sync(scenario)() == {"type": "table.changed", "version": 2}
