"""The lobby's WebSocket: the list of open tables, sent whole on connect; then each table's entry as it changes
(lobby/notify.py: one table a message, carrying the table's version)."""

import orjson
from channels.db import database_sync_to_async

from tables import clock_watch
from tables.protocol import FRAME_MAX
from tables.selectors import open_tables
from tables.socket_guard import GuardedConsumer

from .notify import LOBBY_GROUP


def lobby_error(code: str, message: str, message_id=None) -> dict:
    return {"type": "error", "code": code, "message": message, "id": message_id}


class LobbyConsumer(GuardedConsumer):
    async def connect(self):
        self.versions: dict[int, int] = {}  # the newest version sent of each table (closed ones included)
        self.closed: set[int] = set()
        user = self.scope.get("user")
        self.viewer = user if user is not None and user.is_authenticated else None
        await self.accept()
        clock_watch.watch_here()
        # Join first, then read: an update that crossed the read is older than the list and is dropped by version.
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.send_list()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def send_json(self, message: dict):
        await self.send(text_data=orjson.dumps(message).decode())

    async def send_list(self):
        tables = await database_sync_to_async(open_tables)(self.viewer)
        for entry in tables:
            self.versions[entry["id"]] = max(self.versions.get(entry["id"], -1), entry["version"])
        await self.send_json({"type": "lobby", "tables": tables})

    async def receive(self, text_data=None, bytes_data=None):
        frame = text_data if text_data is not None else bytes_data
        try:
            message = orjson.loads(frame) if frame is not None and len(frame) <= FRAME_MAX else None
        except (orjson.JSONDecodeError, RecursionError, TypeError):  # orjson refuses nesting past 1024 itself
            message = None
        if not isinstance(message, dict):
            await self.send_json(lobby_error("bad_json", f"A message must be a JSON object of at most {FRAME_MAX} bytes."))
            return
        raw_id = message.get("id")
        message_id = raw_id if isinstance(raw_id, str) and 1 <= len(raw_id) <= 64 and raw_id.isprintable() else None
        if message.get("type") == "ping":
            await self.send_json({"type": "pong", "id": message_id})
        elif message.get("type") == "snapshot":
            await self.send_list()
        else:
            await self.send_json(lobby_error("unknown_type", "The lobby answers only ping and snapshot.", message_id))

    def may_hear_of(self, message) -> bool:
        """A private table exists only for its creator and staff here (tables/access.py)."""
        if not message.get("private"):
            return True
        viewer = self.viewer
        return viewer is not None and (viewer.is_staff or viewer.pk == message.get("creator"))

    async def lobby_table(self, message):
        if not self.may_hear_of(message):
            return
        table_id, version = message["id"], message["version"]
        if table_id in self.closed or version < self.versions.get(table_id, -1):
            return  # an older entry overtaken by a newer one on its way; a closed table never comes back
        if message["table"] is not None and version == self.versions.get(table_id):
            return  # already sent (in the list, or by a message of the same version)
        self.versions[table_id] = version
        if message["table"] is None:
            self.closed.add(table_id)
        await self.send_json({"type": "lobby_table", "id": table_id, "version": version, "table": message["table"]})
