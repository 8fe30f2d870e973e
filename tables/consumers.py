"""The table's WebSocket: who you are, what you asked, what you may see; every change goes through the door.

A consumer reads the database only on connect and when its client asks for a snapshot. Every change reaches it
in the table's group message with the committed state (tables/services/notify.py), from which it renders its own
viewer's snapshot; the player who acted gets his from the door's answer, once.
"""

import asyncio
import logging
import time

import orjson
from channels.db import database_sync_to_async
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts.language import language_of_scope

from . import clock_watch, selectors, services
from .db_threads import on_read_threads, through_the_door
from .errors import CLOSE_UNAVAILABLE, is_outage, unavailable
from .protocol import BadMessage, parse_frame, table_id_of
from .ratelimit import TokenBucket
from .services import notify
from .services.notify import table_group
from .socket_guard import GuardedConsumer
from .state_io import events_for

log = logging.getLogger(__name__)

ACTIONS_PER_SECOND = 10
CHAT_PER_SECOND, CHAT_BURST = 1, 3

def error(code: str, message, message_id=None) -> dict:
    """An error frame: the code stays the same in every language, the message (often a lazy text from the door) is
    made here, in the language active for the viewer (TableConsumer.speaking)."""
    return {"type": "error", "code": code, "message": str(message), "id": message_id}


SERVER_ERROR = _("Something went wrong; nothing was changed.")
_NO_MESSAGE = object()  # a snapshot that answers no message of its viewer's (an id-less message is answered: None)


class TableConsumer(GuardedConsumer):
    def speaking(self):
        """The viewer's language (his profile's, his cookie's, his browser's: accounts/language.py) for the words
        this socket sends him."""
        if not hasattr(self, "language"):
            self.language = language_of_scope(self.scope)
        return translation.override(self.language)

    async def connect(self):
        with self.speaking():
            await self._connect_told()

    async def _connect_told(self):
        try:
            await self._connect()
        except Exception as fault:  # an escaping exception would skip `disconnect`: presence and heartbeat would leak
            table_id = self.scope["url_route"]["kwargs"].get("table_id")
            outage = is_outage(fault)
            log.log(logging.WARNING if outage else logging.ERROR, "table %s: a socket failed to open", table_id,
                    exc_info=True)  # fmt: skip
            try:
                await self.leave()
            finally:
                # Told why: an outage, so the client knows to come back, or our fault.
                if outage:
                    await self.send_json(unavailable())
                else:
                    await self.send_json(error("server_error", _("The server cannot serve this table now; try again soon.")))
                await self.close(code=CLOSE_UNAVAILABLE if outage else 1011)

    async def _connect(self):
        self.present, self.heartbeat, self.group = False, None, None
        self.table_id = table_id_of(self.scope["url_route"]["kwargs"]["table_id"])
        user = self.scope.get("user")
        self.user = user if user is not None and user.is_authenticated else None
        self.user_id = self.user.pk if self.user is not None else None
        self.committed = None
        self.last_version = -1
        self.actions = TokenBucket(ACTIONS_PER_SECOND, ACTIONS_PER_SECOND)
        self.chats = TokenBucket(CHAT_PER_SECOND, CHAT_BURST)
        await self.accept()
        if self.table_id is None:
            await self.no_such_table()
            return
        clock_watch.watch_here()
        # Join the group before reading the row, so no change can fall between the two.
        self.group = table_group(self.table_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        # A private table the viewer may not see answers exactly as an id that names no table (tables/access.py).
        self.session = self.scope.get("session")
        committed = await on_read_threads(selectors.committed)(self.table_id, self.user, self.session,
                                                               check_access=True)  # fmt: skip
        if committed is None:
            await self.no_such_table()
            return
        if self.user is not None and committed.table["status"] == "open":
            await on_read_threads(services.connected)(self.table_id, self.user)
            self.present = True
            self.heartbeat = asyncio.ensure_future(self.beat())
        # The first snapshot carries the last chat lines and this deal's log: a reloaded page tells the same story.
        self.offline_read_at = time.time()  # presence messages of lists read before this one are older: skipped
        history = await on_read_threads(selectors.history)(committed, self.user_id)
        await self.show(committed, force=True, history=history)

    async def no_such_table(self):
        shown = self.scope["url_route"]["kwargs"]["table_id"][:20]
        await self.send_json(error("no_such_table", _("There is no table %(table)s.") % {"table": repr(shown)}))
        await self.close(code=4404)

    async def beat(self):
        """Tell the database this connection is alive, so a count left by a dead process can be told apart."""
        while True:
            await asyncio.sleep(services.PRESENCE_HEARTBEAT_SECONDS)
            try:
                await database_sync_to_async(services.still_here)(self.table_id, self.user)
            except Exception:  # a database blip must not end the heartbeat (the player would count as gone)
                log.exception("table %s: heartbeat of %s failed", self.table_id, self.user)

    async def disconnect(self, code):
        try:
            await self.leave()
        finally:
            if getattr(self, "group", None):
                try:
                    await self.channel_layer.group_discard(self.group, self.channel_name)
                except Exception:  # Redis gone: the membership expires (group_expiry); the socket is closed anyway
                    log.warning("table %s: could not leave the group", self.table_id, exc_info=True)

    async def on_fault(self):
        await self.leave()

    async def leave(self):
        """This connection no longer counts as the player's presence (once)."""
        heartbeat, self.heartbeat = getattr(self, "heartbeat", None), None
        if heartbeat is not None:
            heartbeat.cancel()
        if getattr(self, "present", False):
            self.present = False
            await database_sync_to_async(services.disconnected)(self.table_id, self.user)

    async def send_json(self, message: dict):
        await self.send(text_data=orjson.dumps(message).decode())

    async def receive(self, text_data=None, bytes_data=None):
        with self.speaking():
            await self._receive_told(text_data, bytes_data)

    async def _receive_told(self, text_data=None, bytes_data=None):
        try:
            await self._receive(text_data, bytes_data)
        except Exception as fault:  # an escaping exception would kill the consumer without `disconnect`
            log.exception("table %s: a message from %s failed", self.table_id, self.user)
            if is_outage(fault):
                await self.send_json(unavailable())
            else:
                await self.send_json(error("server_error", SERVER_ERROR))

    async def _receive(self, text_data=None, bytes_data=None):
        try:
            request = parse_frame(text_data if text_data is not None else bytes_data, self.table_id)
        except BadMessage as refused:
            await self.send_json(error(refused.code, refused.message, refused.id))
            return
        if request.type == "ping":
            await self.send_json({"type": "pong", "id": request.id})
            return
        bucket = self.chats if request.type == "chat" else self.actions
        if not bucket.take():
            await self.send_json(error("rate_limited", _("Too many messages; slow down."), request.id))
            return
        if request.type == "snapshot":
            committed = await database_sync_to_async(selectors.committed)(self.table_id)
            if committed is not None:
                await self.show(committed, force=True)
            return
        with notify.collecting() as outbox:
            try:
                if request.type == "chat":
                    reply = await through_the_door(services.chat)(
                        self.table_id, self.user, request.text, request.id
                    )
                else:
                    ack = await services.act_from_loop(self.table_id, self.user, request.command, request.id,
                                                       lambda ack: self.render_answer(ack, request.id))  # fmt: skip
            except services.DoorError as refused:
                await self.send_json(error(refused.code, refused.message, request.id))
                return
            except Exception as fault:  # a bug must not kill the socket; the transaction rolled back: nothing changed
                log.exception("table %s: %r from %s failed", self.table_id, request, self.user)
                if is_outage(fault):
                    await self.send_json(unavailable(request.id))
                else:
                    await self.send_json(error("server_error", SERVER_ERROR, request.id))
                return
        if request.type == "chat":
            await self.send_json(reply)
        elif not await self.answer_with_snapshot(ack, request.id):
            await self.send_json(ack.reply)
        if outbox:
            # The answer leaves first: daphne hands a frame to the socket in the event loop's poll for I/O, which
            # comes between two turns of a task (uvloop, config/web.py), while a publish to Redis is written at once
            # and wakes Redis, and through it the other daphnes, ahead of the answer on this CPU.
            await asyncio.sleep(0)
            await notify.send_collected(outbox)

    def render_answer(self, ack, message_id) -> None:
        """The actor's answer rendered before it is known to be written (optimistic.act_from_loop: while PostgreSQL
        runs the move's statement); `answer_with_snapshot` sends it if that very change is the answer."""
        if ack.change is not None and self.committed is not None:
            selectors.remember(self.table_id, ack.change.stored, ack.change.state)
            committed = self.committed.changed(ack.change.message())
            self.rendered = (ack.change, committed, self.render(committed, ack.change.events, None, message_id))

    async def answer_with_snapshot(self, ack, message_id) -> bool:
        """The actor's answer is the snapshot of his change, carrying his message's `id` (one frame, at once, even if
        the group message is lost: that message is then skipped). False when there is none to send: a repeated id
        (nothing applied again) or a newer snapshot already shown; then the `ack` frame answers."""
        rendered, self.rendered = getattr(self, "rendered", None), None
        if ack.change is None or self.committed is None:
            return False
        if rendered is not None and rendered[0] is ack.change:  # rendered while written (self.committed unchanged)
            _change, committed, frame = rendered
        else:
            selectors.remember(self.table_id, ack.change.stored, ack.change.state)  # the door's state: already decoded
            committed, frame = self.committed.changed(ack.change.message()), None
        return await self.show(committed, events=ack.change.events, answers=message_id, rendered=frame)

    async def show(self, committed, force: bool = False, events=(), history=None, answers=_NO_MESSAGE,
                   rendered: str | None = None) -> bool:  # fmt: skip
        """Send this viewer's snapshot of `committed` with the events it came with, unless it is not newer (False);
        the first one carries the `history` (selectors.TableHistory), the answer to a message its `id` (`answers`);
        `rendered`: that frame, rendered already."""
        closing = committed.table["status"] == "closed"
        if not force and committed.version <= self.last_version and not closing:  # closing keeps the version
            return False
        self.committed = committed
        self.last_version = max(self.last_version, committed.version)
        services.committed_seen(committed)  # the next move here may be played on it without the lock
        await self.send(text_data=rendered or self.render(committed, events, history, answers))
        if closing:
            await self.close(code=4000)
        elif self.user_id is not None:
            services.ready_next_move(committed, self.user_id)
        return True

    def render(self, committed, events, history, answers) -> str:
        """The frame of this viewer's snapshot of `committed` (see `show`)."""
        snapshot = selectors.snapshot(committed, self.user_id)
        # One frame a change: the snapshot carries the change's events this viewer may see.
        snapshot["events"] = events_for(events, snapshot["seat"])
        if history is not None:
            snapshot["history"] = history.message()
        if answers is not _NO_MESSAGE:
            snapshot["id"] = answers
        return orjson.dumps(snapshot).decode()

    # --- group messages ---

    async def table_changed(self, message):
        accounts = message.get("accounts")
        if accounts:  # a change under the row's lock: its ledger accounts, for this process's next bets there
            services.accounts_told(self.table_id, accounts)
        if self.committed is None:  # a change before this socket's first snapshot: that snapshot is newer
            return
        await self.show(self.committed.changed(message), events=message["events"])

    async def table_access(self, message):
        """The invite link was revoked: a viewer let in only by the old link (not seated) is shown out."""
        if self.committed is None or not self.committed.table.get("private"):
            return
        still = await on_read_threads(selectors.committed)(self.table_id, self.user, self.session, check_access=True)
        if still is None:
            await self.leave()
            with self.speaking():  # a group message runs outside `receive`: its words need the viewer's language
                await self.no_such_table()

    async def table_chat(self, message):
        await self.send_json(message["line"])

    async def table_presence(self, message):
        if message.get("at", 0.0) < getattr(self, "offline_read_at", float("inf")):
            return
        await self.send_json({"type": "presence", "offline": message["offline"]})
