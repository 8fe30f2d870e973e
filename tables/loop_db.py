"""The event loop's own PostgreSQL connections, for the one statement of a move without the table's lock
(tables/services/optimistic.py): psycopg's AsyncConnection, awaited on the loop, so such a move takes no hop to a
door thread and back, and its wait for PostgreSQL blocks nothing (docs/benchmarks.md, session 23).

Each loop keeps at most LOOP_CONNECTIONS, opened when first needed, in autocommit (the statement is its own
transaction), with the settings' connection parameters and prepared statements. None is ever waited for: when
every one is busy, or PostgreSQL could not be reached in the last DOWN_SECONDS, the move goes the door's way on a
thread, which waits, reports an outage and keeps its own connections (tables/db_threads.py). A connection that
met an error other than a refused statement, or has been kept KEPT_SECONDS, is closed rather than reused.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import weakref
from contextlib import asynccontextmanager

import psycopg
from django.conf import settings

from . import rows
from .db_threads import KEPT_SECONDS
from .errors import in_one_line

log = logging.getLogger(__name__)

LOOP_CONNECTIONS = settings.SVARA_LOOP_CONNECTIONS
DOWN_SECONDS = 5.0  # after a failed connect, the moves go the threads' way this long before one is tried again
CONNECT_TIMEOUT = 5  # seconds
APPLICATION_NAME = "svara loop"  # how pg_stat_activity names these sessions


class LoopConnections:
    """One event loop's connections: the idle ones, and how many are open or being opened."""

    def __init__(self):
        self.idle: list[tuple[psycopg.AsyncConnection, float]] = []  # (connection, opened at, monotonic)
        self.open = 0
        self.down_until = 0.0
        self.every: weakref.WeakSet = weakref.WeakSet()  # each connection this loop opened (closed at the end)

    async def take(self) -> tuple[psycopg.AsyncConnection, float] | None:
        now = time.monotonic()
        while self.idle:
            connection, opened = self.idle.pop()
            if now - opened < KEPT_SECONDS and not connection.closed:
                return connection, opened
            self.open -= 1
            await _close(connection)
        if self.open >= LOOP_CONNECTIONS or now < self.down_until:
            return None
        self.open += 1
        try:
            connection = await psycopg.AsyncConnection.connect(**_connect_params())
        except (psycopg.Error, OSError) as error:  # an outage: the door's threads wait for it and tell the clients
            self.open -= 1
            self.down_until = time.monotonic() + DOWN_SECONDS
            log.warning("the event loop could not connect to PostgreSQL (%s); moves go the door threads' way for %s s",
                        in_one_line(error), DOWN_SECONDS)  # fmt: skip
            return None
        self.every.add(connection)
        return connection, time.monotonic()

    async def give_back(self, connection: psycopg.AsyncConnection, opened: float, fit: bool) -> None:
        if fit and not connection.closed and connection.info.transaction_status == psycopg.pq.TransactionStatus.IDLE:
            self.idle.append((connection, opened))
            return
        self.open = max(self.open - 1, 0)  # close_all may have counted it already
        await _close(connection)

    def close_all(self) -> None:
        """From any thread, once no statement runs (before a test database is dropped): end every session."""
        for connection in list(self.every):
            if not connection.closed:
                connection.pgconn.finish()  # libpq's own close: it needs no event loop
        self.idle.clear()
        self.open = 0


async def _close(connection: psycopg.AsyncConnection) -> None:
    try:
        await connection.close()
    except Exception:  # a connection that already failed: nothing more to do
        log.debug("closing a loop connection failed", exc_info=True)


def _connect_params() -> dict:
    """The settings' connection parameters (the test database's in the tests), in autocommit, for an async
    connection: server-side binding and prepared statements as the door threads' connections have them."""
    db = rows.db()
    params = db.get_connection_params()
    sync_cursor = params.pop("cursor_factory", None)
    binding = sync_cursor is not None and issubclass(sync_cursor, psycopg.ClientCursor)
    params["cursor_factory"] = psycopg.AsyncClientCursor if binding else psycopg.AsyncCursor
    params.setdefault("connect_timeout", CONNECT_TIMEOUT)
    return {**params, "application_name": APPLICATION_NAME, "autocommit": True}


_loops: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # event loop -> its LoopConnections
_lock = threading.Lock()


def _here() -> LoopConnections:
    loop = asyncio.get_running_loop()
    with _lock:
        connections = _loops.get(loop)
        if connections is None:
            for ended in [other for other in _loops if other.is_closed()]:  # a test's, or a thread's, loop
                _loops.pop(ended).close_all()
            connections = _loops[loop] = LoopConnections()
    return connections


class Busy(Exception):
    """No loop connection is free now (all in use, or PostgreSQL unreachable a moment ago)."""


@asynccontextmanager
async def connection():
    """`async with connection() as conn:` one of this loop's connections, in autocommit; Busy when there is none
    free. An error inside (but a refused statement: an IntegrityError) closes it rather than keep it."""
    loop_connections = _here()
    taken = await loop_connections.take()
    if taken is None:
        raise Busy
    conn, opened = taken
    fit = False
    try:
        yield conn
        fit = True
    except psycopg.IntegrityError:
        fit = True
        raise
    finally:
        await loop_connections.give_back(conn, opened, fit)


def close_every_connection() -> None:
    """Every loop's connections closed (tables/db_threads.give_back_every_connection: before a test database is
    dropped, or when a drill changes the database settings)."""
    with _lock:
        every = list(_loops.values())
    for loop_connections in every:
        loop_connections.close_all()
