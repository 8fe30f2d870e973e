"""The platform's socket consumer. It survives its own death: whatever ends it with an exception (a bug, Redis gone under the
channel layer's receive), its bookkeeping is released and the client gets an error frame and a 1011 close.

Channels runs `disconnect` only for a client's close. An exception escaping the consumer's loop (from a handler,
or from `channel_layer.receive` when Redis drops) skips it, so a player's presence stayed counted and the
offline stand-up never came (issue 11, defect 1).
"""

import logging

import orjson
from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer

from .errors import is_outage

log = logging.getLogger(__name__)

FAULT = {"type": "error", "code": "server_error", "message": "The server lost this connection; reconnect.", "id": None}


class GuardedConsumer(AsyncWebsocketConsumer):
    accepted = False

    async def accept(self, subprotocol=None, headers=None):
        await super().accept(subprotocol, headers)
        self.accepted = True

    async def send(self, text_data=None, bytes_data=None, close=False):
        """A frame for a client that has just gone (a group message handled before its disconnect) is dropped: daphne
        raises autobahn's Disconnected, which would end the consumer as a fault; the disconnect follows anyway."""
        try:
            await super().send(text_data, bytes_data, close)
        except Disconnected:
            log.debug("a frame for a closed socket was dropped")

    async def dispatch(self, message):
        # Channels runs close_old_connections before every message, a hop onto asgiref's one sync thread: about
        # 9 % of a busy daphne's CPU, and a queue every frame and group message waits in. Every database call of
        # these consumers looks after its connection itself: on asgiref's thread (DatabaseSyncToAsync) around the
        # call, on the door's and the reads' threads after it (tables/db_threads.py).
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def on_fault(self):
        """Release what this connection holds (presence, heartbeat); called once when the consumer dies."""

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        except Exception as fault:
            outage = is_outage(fault)
            log.log(logging.WARNING if outage else logging.ERROR, "the consumer of %s died", scope.get("path"),
                    exc_info=True)  # fmt: skip
            try:
                await self.on_fault()
            except Exception:
                log.exception("the consumer of %s could not release its connection", scope.get("path"))
            if outage:
                raise  # config/outage.py tells the client `unavailable` and closes with 4503
            try:
                if not self.accepted:  # it died in the handshake (no channel: Redis out of reach): say why all the same
                    await send({"type": "websocket.accept"})
                await send({"type": "websocket.send", "text": orjson.dumps(FAULT).decode()})
                await send({"type": "websocket.close", "code": 1011})
            except Exception:  # the client is gone too: nothing left to tell
                pass
