"""CI's fuzz drill: a table's group message reached a consumer whose client had just closed, before its disconnect
ran; sending the snapshot raised autobahn's `Disconnected` ("Attempt to send on a closed protocol"), which ended the
consumer as a fault with a traceback in the log. Such a frame is now dropped: the disconnect follows."""

import asyncio

from autobahn.exception import Disconnected

from tables.consumers import TableConsumer


def test_a_frame_for_a_socket_that_just_closed_is_dropped_without_a_fault():
    consumer = TableConsumer()
    sent = []

    async def closed_protocol(message):
        sent.append(message)
        raise Disconnected("Attempt to send on a closed protocol")

    consumer.base_send = closed_protocol
    asyncio.run(consumer.send_json({"type": "pong", "id": None}))
    assert sent and sent[0]["type"] == "websocket.send"  # it was tried, and dropped quietly
