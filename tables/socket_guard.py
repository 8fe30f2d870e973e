"""A consumer that survives its own death: whatever ends it with an exception (a bug, Redis gone under the
channel layer's receive), its bookkeeping is released and the client gets an error frame and a 1011 close.

Channels runs `disconnect` only for a client's close. An exception escaping the consumer's loop (from a handler,
or from `channel_layer.receive` when Redis drops) skips it, so a player's presence stayed counted and the
offline stand-up never came (issue 11, defect 1).
"""

import logging

import orjson
from channels.generic.websocket import AsyncWebsocketConsumer

log = logging.getLogger(__name__)

FAULT = {"type": "error", "code": "server_error", "message": "The server lost this connection; reconnect.", "id": None}


class GuardedConsumer(AsyncWebsocketConsumer):
    accepted = False

    async def accept(self, subprotocol=None, headers=None):
        await super().accept(subprotocol, headers)
        self.accepted = True

    async def on_fault(self):
        """Release what this connection holds (presence, heartbeat); called once when the consumer dies."""

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        except Exception:
            log.exception("the consumer of %s died", scope.get("path"))
            try:
                await self.on_fault()
            except Exception:
                log.exception("the consumer of %s could not release its connection", scope.get("path"))
            try:
                if self.accepted:
                    await send({"type": "websocket.send", "text": orjson.dumps(FAULT).decode()})
                await send({"type": "websocket.close", "code": 1011})
            except Exception:  # the client is gone too: nothing left to tell
                pass
