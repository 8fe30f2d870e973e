"""After commit: who hears of a change. The one place that names a table's group and what it is sent.

A table's group message carries the committed state itself (the stored text, version, clock and status), so every
consumer renders its own viewer's snapshot without touching the database (tables/selectors.py `snapshot`). The
stored text holds every card dealt; it travels only between the servers (through the channel layer), and each
consumer sends its client only `state.view(seat)`. The lobby names and fills its own group (lobby/notify.py).
"""

from __future__ import annotations

import logging
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from ..signals import table_changed

log = logging.getLogger(__name__)


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


@dataclass(frozen=True, slots=True)
class Change:
    """One committed change of a table: everything its listeners and viewers need, nothing read again."""

    table_id: int
    version: int
    stored: str  # the state's stored text, as committed
    state: object  # the engine's TableState decoded from `stored` (listeners read it, never change it)
    events: tuple  # the engine's events, as JSON dicts (private ones included: consumers filter them)
    clock: dict | None  # {"kind", "seats", "deadline": ISO time} or None
    status: str
    seats_changed: bool
    bot_seats: frozenset[int]
    # The table's pot's, house account's and stacks' ledger account ids, as (kind, user id, id), when the change read
    # them under the row's lock: every process at the table learns them, so its next bet there may go without the
    # lock (optimistic.accounts_told).
    accounts: tuple = ()

    def message(self) -> dict:
        """The group message (channels-redis serialises it with msgpack)."""
        message = {
            "type": "table.changed",
            "version": self.version,
            "state": self.stored,
            "clock": self.clock,
            "status": self.status,
            "events": list(self.events),
        }
        if self.accounts:
            message["accounts"] = [list(account) for account in self.accounts]
        return message


def table_changes(change: Change) -> None:
    """Tell everyone of a committed change: the table's viewers, the lobby (when seats changed) and the listeners
    (the bots). Nobody schedules the clock: every daphne watches for overdue ones (tables/clock_watch.py)."""
    group_send(table_group(change.table_id), change.message())
    if change.seats_changed:
        from lobby.notify import table_changed as lobby_table_changed

        try:
            lobby_table_changed(change.table_id)
        except Exception:  # the change is committed: the lobby catches up at the next one
            log.exception("the lobby could not be told of table %s v%s", change.table_id, change.version)
    try:
        table_changed.send(
            sender=None, table_id=change.table_id, version=change.version, state=change.state,
            bot_seats=change.bot_seats,
        )  # fmt: skip
    except Exception:  # a listener's failure must not undo or block the committed change
        log.exception("a table_changed listener failed for table %s v%s", change.table_id, change.version)


def access_changed(table_id: int) -> None:
    """A private table's invite link was revoked: each socket checks again that its viewer may still see it."""
    group_send(table_group(table_id), {"type": "table.access"})


def chat_line(table_id: int, line: dict) -> None:
    group_send(table_group(table_id), {"type": "table.chat", "line": line})


# Set (by `collecting`) around a call to the door from an event loop: the group messages of its changes are
# collected here, and the caller sends them from its loop after the door returns, so a door thread never waits on
# Redis (nor on the event loop a thread-side send would need). asgiref runs the door in a copy of the caller's
# context, so the list set here is the one the door appends to.
outbox: ContextVar[list | None] = ContextVar("svara_group_outbox", default=None)


@contextmanager
def collecting():
    """`with collecting() as collected:` the door's group messages go to `collected` instead of the layer."""
    collected = []
    token = outbox.set(collected)
    try:
        yield collected
    finally:
        outbox.reset(token)


def coalesced(collected: list) -> list:
    """The collected messages with each run of one table's changes told as one: its last state, clock and status
    with every event of the run, in order. A door call commits such a run when an action calls for standing
    answers (a deal's end and the New deals of the players dealt in; a showdown's Show or Fold): its viewers need
    only the last state, as the player who acted already gets it (door.Ack), so each renders one snapshot."""
    told: list = []
    last = {}  # group -> the index in `told` of its latest message (other groups' messages may come between)
    for group, message in collected:
        at = last.get(group)
        if at is not None and message["type"] == told[at][1]["type"] == "table.changed":
            told[at] = (group, {**message, "events": told[at][1]["events"] + message["events"]})
        else:
            last[group] = len(told)
            told.append((group, message))
    return told


async def send_collected(collected: list) -> None:
    """From an event loop: the group messages collected in an outbox, in order, a run of changes as one."""
    layer = get_channel_layer()
    for group, message in coalesced(collected):
        try:
            await layer.group_send(group, message)
        except Exception:  # at-most-once delivery anyway: the next message carries the whole state
            log.exception("group_send to %s failed", group)


def group_send(group: str, message: dict) -> None:
    collected = outbox.get()
    if collected is not None:
        collected.append((group, message))
        return
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # at-most-once delivery anyway: every snapshot is whole, the next one catches up
        log.exception("group_send to %s failed", group)
