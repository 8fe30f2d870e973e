"""Every WebSocket is told when the platform cannot serve it: an ASGI middleware around the sockets' application.

A fault reaching PostgreSQL or Redis (tables/errors.py `is_outage`) that escapes the application — the session
lookup before any consumer runs, or the channel layer failing under an open socket — used to end the socket with
daphne's bare 1011. The client is told instead: an `unavailable` error frame, then a close with 4503 (try again
later). Consumers tell it themselves where they can (a failed connect, a failed message).
"""

import logging

import orjson

from tables.errors import CLOSE_UNAVAILABLE, is_outage, unavailable

log = logging.getLogger(__name__)


class TellWhenUnavailable:
    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            return await self.app(scope, receive, send)
        seen = {"accepted": False, "closed": False}

        async def watched_send(message):
            if message["type"] == "websocket.accept":
                seen["accepted"] = True
            elif message["type"] == "websocket.close":
                seen["closed"] = True
            await send(message)

        try:
            return await self.app(scope, receive, watched_send)
        except Exception as fault:
            if not is_outage(fault) or seen["closed"]:
                raise
            log.warning("%s: a server is out of reach, the socket is told and closed: %r", scope.get("path"), fault)
            if not seen["accepted"]:
                await send({"type": "websocket.accept"})
            await send({"type": "websocket.send", "text": orjson.dumps(unavailable()).decode()})
            await send({"type": "websocket.close", "code": CLOSE_UNAVAILABLE})
