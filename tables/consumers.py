"""The table's WebSocket: who you are, what you asked, what you may see; every change goes through the door."""

import asyncio
import json
import logging

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from . import selectors, services
from .ratelimit import TokenBucket
from .state_io import events_for

log = logging.getLogger(__name__)

ACTIONS_PER_SECOND = 10
CHAT_PER_SECOND, CHAT_BURST = 1, 3
CLIENT_TYPES = services.PLAYER_KINDS | {"chat", "snapshot", "ping"}


def error(code: str, message: str, message_id=None) -> dict:
    return {"type": "error", "code": code, "message": message, "id": message_id}


class TableConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        user = self.scope.get("user")
        self.user = user if user is not None and user.is_authenticated else None
        self.group = f"table-{self.table_id}"
        self.last_version = -1
        self.present = False
        self.actions = TokenBucket(ACTIONS_PER_SECOND, ACTIONS_PER_SECOND)
        self.chats = TokenBucket(CHAT_PER_SECOND, CHAT_BURST)
        await self.accept()
        table = await database_sync_to_async(selectors.get_table)(self.table_id)
        if table is None:
            await self.send_json(error("no_such_table", f"There is no table {self.table_id}."))
            await self.close(code=4404)
            return
        await self.channel_layer.group_add(self.group, self.channel_name)
        if self.user is not None and table.is_open:
            await database_sync_to_async(services.connected)(self.table_id, self.user)
            self.present = True
            self.heartbeat = asyncio.ensure_future(self.beat())
        await self.send_snapshot()

    async def beat(self):
        """Tell the database this connection is alive, so a count left by a dead process can be told apart."""
        while True:
            await asyncio.sleep(services.PRESENCE_HEARTBEAT_SECONDS)
            await database_sync_to_async(services.still_here)(self.table_id, self.user)

    async def disconnect(self, code):
        heartbeat = getattr(self, "heartbeat", None)
        if heartbeat is not None:
            heartbeat.cancel()
        await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.present:
            self.present = False
            await database_sync_to_async(services.disconnected)(self.table_id, self.user)

    async def send_json(self, message: dict):
        await self.send(text_data=json.dumps(message, ensure_ascii=False))

    async def receive(self, text_data=None, bytes_data=None):
        try:
            message = json.loads(text_data if text_data is not None else bytes_data)
        except (TypeError, ValueError):
            await self.send_json(error("bad_json", "A message must be a JSON object."))
            return
        if not isinstance(message, dict):
            await self.send_json(error("bad_json", "A message must be a JSON object."))
            return
        message_id = message.get("id")
        if message_id is not None and (not isinstance(message_id, str) or not 1 <= len(message_id) <= 64):
            await self.send_json(error("bad_field", "A message id must be a string of 1 to 64 characters."))
            return
        kind = message.get("type")
        if not isinstance(kind, str) or kind not in CLIENT_TYPES:
            await self.send_json(error("unknown_type", f"Unknown message type {kind!r}.", message_id))
            return
        if "table" in message and message["table"] != self.table_id:
            await self.send_json(
                error(
                    "wrong_table",
                    f"This socket serves table {self.table_id}, not {message['table']!r}.",
                    message_id,
                )
            )
            return
        if kind == "ping":
            await self.send_json({"type": "pong", "id": message_id})
            return
        bucket = self.chats if kind == "chat" else self.actions
        if not bucket.take():
            await self.send_json(error("rate_limited", "Too many messages; slow down.", message_id))
            return
        if kind == "snapshot":
            await self.send_snapshot(force=True)
            return
        try:
            if kind == "chat":
                answer = await database_sync_to_async(services.chat)(
                    self.table_id, self.user, message.get("text"), message_id
                )
            else:
                action = {"kind": kind}
                for field in ("amount", "card", "seat"):
                    if field in message:
                        action[field] = message[field]
                answer = await database_sync_to_async(services.act)(
                    self.table_id, self.user, action, message_id
                )
        except services.DoorError as refused:
            await self.send_json(error(refused.code, refused.message, message_id))
            return
        except Exception:  # a bug must not kill the socket; the transaction rolled back, so nothing changed
            log.exception("table %s: %r from %s failed", self.table_id, message, self.user)
            await self.send_json(error("server_error", "Something went wrong; nothing was changed.", message_id))
            return
        await self.send_json({**answer, "id": message_id})
        # The actor sees the result even if the group message is lost.
        await self.send_snapshot()

    async def send_snapshot(self, force: bool = False, events=None, events_version=None):
        snapshot = await database_sync_to_async(self._render)()
        if snapshot is None:
            return
        if events:
            # Private events only when the snapshot is of the very state they came with (the seat is the same).
            seat = snapshot["seat"] if snapshot["version"] == events_version else None
            visible = events_for(events, seat)
            if visible:
                await self.send_json({"type": "event", "version": events_version, "events": visible})
        if force or snapshot["version"] > self.last_version:
            self.last_version = max(self.last_version, snapshot["version"])
            await self.send_json(snapshot)
        if snapshot["table"]["status"] == "closed":
            await self.close(code=4000)

    def _render(self):
        table = selectors.get_table(self.table_id)
        if table is None:
            return None
        return selectors.snapshot_for(table, self.user)

    # --- group messages ---

    async def table_changed(self, message):
        await self.send_snapshot(events=message.get("events"), events_version=message.get("version"))

    async def table_chat(self, message):
        await self.send_json(message["line"])
