"""The threads a daphne process runs its table sockets' database work on: the door's and the reads of a socket
that opens. With psycopg's pool, each keeps its pooled connection from call to call.

Channels' `database_sync_to_async` gives a connection back to the pool before and after every call (with a pool,
Django's CONN_MAX_AGE is 0). On these threads that checkout, and Django's set-up of each connection it hands out,
cost a door action 0.11 ms of CPU and of wall a call, and its transaction's entry half its time (docs/benchmarks.md,
session 12). So here a thread keeps its connection while it is fit: it gives it back when a call left it inside a
transaction or broken, and after KEPT_SECONDS, so that the pool still renews, trims and health-checks its
connections as configured, and a connection cut while its thread idled is not the one the next action meets.
Without a pool (SQLite, DB_POOL=0) they do what Django does everywhere else: CONN_MAX_AGE decides. With the pool,
DB_POOL_MAX_SIZE must exceed DOOR_THREADS and READ_THREADS together, with asgiref's thread and the clock watcher's
(the settings refuse a smaller pool; README, Settings).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import weakref
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import SyncToAsync
from django.conf import settings
from django.db import connections
from django.db.backends.signals import connection_created

log = logging.getLogger(__name__)

KEPT_SECONDS = 60.0  # a kept connection goes back to the pool after this long: one checkout a minute a thread

# The door runs on threads of its own, not on asgiref's one thread-sensitive thread: a door call spends most of
# its time waiting for PostgreSQL, so actions at different tables overlap (at one table they queue on its row lock).
DOOR_THREADS = settings.SVARA_DOOR_THREADS
door_threads = ThreadPoolExecutor(max_workers=DOOR_THREADS, thread_name_prefix="door")

# A socket's reads when it opens (its table, presence, the history a reloaded page shows) run on threads of their
# own too: many sockets opening at once overlap, and never wait behind busy door threads.
READ_THREADS = settings.SVARA_READ_THREADS
read_threads = ThreadPoolExecutor(max_workers=READ_THREADS, thread_name_prefix="read")


class KeepingItsConnection(SyncToAsync):
    """`sync_to_async` on one of these threads: the thread's connection stays open after the call, unless unfit."""

    def thread_handler(self, loop, *args, **kwargs):
        give_back_if_unfit(before=True)
        try:
            return super().thread_handler(loop, *args, **kwargs)
        finally:
            try:
                give_back_if_unfit()
            except Exception:
                # The call's own outcome stands; the connection is looked at again before the next call.
                log.exception("a database thread could not look after its connection")


def give_back_if_unfit(before: bool = False) -> None:
    """Close this thread's connection (with the pool: give it back) if a call left it in a transaction, which a fault
    may do, or broken (an error occurred on it and it no longer answers), or it has been kept KEPT_SECONDS; a fit
    one stays for the next call. Without a pool, Django's own rule (CONN_MAX_AGE) decides, as around any call."""
    now = time.monotonic()
    for connection in connections.all(initialized_only=True):
        if getattr(connection, "pool", None) is None:
            connection.close_if_unusable_or_obsolete()
            continue
        if connection.connection is None:
            continue
        if now - getattr(connection, "kept_since", now) >= KEPT_SECONDS:
            connection.close()
            continue
        if before:
            continue
        if connection.in_atomic_block:  # a call never returns inside `atomic()`; were it to, start clean
            connection.in_atomic_block, connection.savepoint_ids, connection.atomic_blocks = False, [], []
            connection.needs_rollback = False
            connection.close()
        elif not connection.autocommit:
            connection.close()
        elif connection.errors_occurred:
            if connection.is_usable():
                connection.errors_occurred = False
            else:
                connection.close()


def _checked_out(sender, connection, **kwargs) -> None:
    """A connection's age counts from its checkout: Django connects once per checkout, and the pool may hand out the
    very connection it was given back (so it cannot be told by its identity)."""
    connection.kept_since = time.monotonic()


connection_created.connect(_checked_out, dispatch_uid="tables.db_threads.checked_out")


def through_the_door(service):
    return KeepingItsConnection(service, thread_sensitive=False, executor=door_threads)


# This process's door calls at one table take turns, first come first served, before they take a door thread or a
# loop connection (tables/services/optimistic.act_from_loop): a New deal's presses at one table (RULES §10: every
# player's) would otherwise each hold a thread while they queue on the table's row lock in PostgreSQL, and the
# other tables' actions would wait for a free thread behind them. Five alternating pairs at 50 busy tables: p99
# lower in all five (by 3-23 %), actions a second higher in four (docs/benchmarks.md, session 18). The row lock
# still orders calls from different processes, and a call whose caller was cancelled (its socket closed) runs on to
# its end on its thread, as before, with the turn passed on.
_turns: weakref.WeakValueDictionary = weakref.WeakValueDictionary()  # (event loop, table id) -> its asyncio.Lock


def table_turn(table_id: int) -> asyncio.Lock:
    """The lock this process's door calls at `table_id` take in turn (kept while anybody holds or awaits it)."""
    key = (asyncio.get_running_loop(), table_id)
    turn = _turns.get(key)
    if turn is None:
        turn = _turns[key] = asyncio.Lock()
    return turn


def on_read_threads(read):
    return KeepingItsConnection(read, thread_sensitive=False, executor=read_threads)


def give_back_every_connection(timeout: float = 10.0) -> None:
    """Every door and read thread, and the clock watcher's, closes its connection (before a test database is
    dropped, or when the database settings change under a drill): one task per thread, each held until all have
    started, so none runs twice. The watcher's thread is here too: after the tests whose sockets start a watcher it
    was found still holding a connection, the test run's last session on its database (session 13)."""
    from .clock_watch import watch_thread
    from .loop_db import close_every_connection

    close_every_connection()  # the event loops' own (loop_db.py)

    for executor, threads in ((door_threads, DOOR_THREADS), (read_threads, READ_THREADS), (watch_thread, 1)):
        everyone = threading.Barrier(threads)

        def close_here(everyone=everyone):
            everyone.wait(timeout)
            connections.close_all()

        for done in [executor.submit(close_here) for _ in range(threads)]:
            done.result(timeout + 5)
