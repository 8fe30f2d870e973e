"""The lobby's WebSocket: the list of open tables, sent whole on connect and after every seat change (the group
message carries the list, read once for every socket: lobby/notify.py)."""

import json

from channels.db import database_sync_to_async

from tables import clock_watch
from tables.consumers import SocketConsumer
from tables.selectors import open_tables

from .notify import LOBBY_GROUP


class LobbyConsumer(SocketConsumer):
    async def connect(self):
        self.read_at = 0.0
        await self.accept()
        clock_watch.watch_here()
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.send_list()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def send_json(self, message: dict):
        await self.send(text_data=json.dumps(message, ensure_ascii=False))

    async def send_list(self):
        tables = await database_sync_to_async(open_tables)()
        await self.send_json({"type": "lobby", "tables": tables})

    async def receive(self, text_data=None, bytes_data=None):
        try:
            message = json.loads(text_data if text_data is not None else bytes_data)
        except (TypeError, ValueError):
            message = None
        if not isinstance(message, dict):
            await self.send_json(
                {
                    "type": "error",
                    "code": "bad_json",
                    "message": "A message must be a JSON object.",
                    "id": None,
                }
            )
            return
        message_id = message.get("id") if isinstance(message.get("id"), str) else None
        if message.get("type") == "ping":
            await self.send_json({"type": "pong", "id": message_id})
        elif message.get("type") == "snapshot":
            await self.send_list()
        else:
            await self.send_json(
                {
                    "type": "error",
                    "code": "unknown_type",
                    "message": "The lobby answers only ping.",
                    "id": message_id,
                }
            )

    async def lobby_changed(self, message):
        if message["read_at"] < self.read_at:  # an older list overtaken by a newer one on its way
            return
        self.read_at = message["read_at"]
        await self.send_json({"type": "lobby", "tables": message["tables"]})
