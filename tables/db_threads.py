"""The threads a daphne process runs its table sockets' database work on: the door's and the reads of a socket
that opens. Each keeps its database connection from call to call.

Channels' `database_sync_to_async` gives a connection back to the pool before and after every call (with a pool,
Django's CONN_MAX_AGE is 0). On these threads that checkout, and Django's set-up of each connection it hands out,
cost a tenth of a door action's CPU and its wall time (docs/benchmarks.md, session 12), so here a thread keeps its
connection while it is fit: it gives it back only when a call left it inside a transaction or broken. With the pool,
DB_POOL_MAX_SIZE must therefore exceed DOOR_THREADS and READ_THREADS together, with asgiref's thread and the
clock watcher's (README, Settings).
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import SyncToAsync
from django.db import connections

# The door runs on threads of its own, not on asgiref's one thread-sensitive thread: a door call spends most of
# its time waiting for PostgreSQL, so actions at different tables overlap (at one table they queue on its row lock).
DOOR_THREADS = int(os.environ.get("SVARA_DOOR_THREADS", "4"))
door_threads = ThreadPoolExecutor(max_workers=DOOR_THREADS, thread_name_prefix="door")

# A socket's reads when it opens (its table, presence, the history a reloaded page shows) run on threads of their
# own too: many sockets opening at once overlap, and never wait behind busy door threads.
READ_THREADS = int(os.environ.get("SVARA_READ_THREADS", "2"))
read_threads = ThreadPoolExecutor(max_workers=READ_THREADS, thread_name_prefix="read")


class KeepingItsConnection(SyncToAsync):
    """`sync_to_async` on one of these threads: after the call the thread's connection stays open, unless unfit."""

    def thread_handler(self, loop, *args, **kwargs):
        try:
            return super().thread_handler(loop, *args, **kwargs)
        finally:
            give_back_if_unfit()


def give_back_if_unfit() -> None:
    """Close (with the pool: give back) this thread's connection if it was left in a transaction, which a fault may
    do, or is broken (an error occurred on it and it no longer answers); a fit one stays for the next call."""
    for connection in connections.all(initialized_only=True):
        if connection.connection is None:
            continue
        if connection.in_atomic_block or not connection.autocommit:
            connection.close()
        elif connection.errors_occurred:
            if connection.is_usable():
                connection.errors_occurred = False
            else:
                connection.close()


def through_the_door(service):
    return KeepingItsConnection(service, thread_sensitive=False, executor=door_threads)


def on_read_threads(read):
    return KeepingItsConnection(read, thread_sensitive=False, executor=read_threads)


def give_back_every_connection(timeout: float = 10.0) -> None:
    """Every door and read thread closes its connection (before a test database is dropped, or when the database
    settings change under a drill): one task per thread, each held until all have started, so none runs twice."""
    for executor, threads in ((door_threads, DOOR_THREADS), (read_threads, READ_THREADS)):
        everyone = threading.Barrier(threads)

        def close_here(everyone=everyone):
            everyone.wait(timeout)
            connections.close_all()

        for done in [executor.submit(close_here) for _ in range(threads)]:
            done.result(timeout + 5)
