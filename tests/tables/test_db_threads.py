"""With psycopg's pool, the door's and the reads' threads keep their database connection from call to call, and give
it back when a call left it unfit (inside a transaction, or broken) or after KEPT_SECONDS (tables/db_threads.py).
The pool is PostgreSQL's (CI runs on it); without one, Django's CONN_MAX_AGE decides as around any call."""

import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import async_to_sync
from django.db import OperationalError, connection

from tables import db_threads
from tables.db_threads import KeepingItsConnection

ON_POSTGRESQL = connection.vendor == "postgresql"
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not ON_POSTGRESQL, reason="the pool is PostgreSQL's (CI runs on PostgreSQL)"),
]


def one_thread(call):
    """`call` on a thread of its own, as the door's threads run it (the same thread every time)."""
    executor = ThreadPoolExecutor(max_workers=1)
    return KeepingItsConnection(call, thread_sensitive=False, executor=executor), executor


def opened_at_entry():
    """Whether the thread's connection was open when the call began, and that connection after a query."""
    was_open = connection.connection is not None
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return was_open, connection.connection


def test_the_door_threads_keep_their_connection_from_one_action_to_the_next():
    db_threads.give_back_every_connection()  # each thread starts without one (earlier tests left theirs)
    calls = [
        async_to_sync(db_threads.through_the_door(opened_at_entry))()
        for _ in range(3 * db_threads.DOOR_THREADS)
    ]
    # Every call after the first on its thread found the connection open: no checkout, no set-up.
    assert sum(was_open for was_open, _ in calls) >= len(calls) - db_threads.DOOR_THREADS
    assert len({id(held) for _, held in calls}) <= db_threads.DOOR_THREADS
    db_threads.give_back_every_connection()
    assert not async_to_sync(db_threads.through_the_door(opened_at_entry))()[0]


def test_a_kept_connection_goes_back_to_the_pool_after_kept_seconds(monkeypatch):
    monkeypatch.setattr(db_threads, "KEPT_SECONDS", 0.0)  # every connection is old by the next call
    run, executor = one_thread(opened_at_entry)
    try:
        calls = [async_to_sync(run)() for _ in range(3)]
        assert [was_open for was_open, _ in calls] == [False, False, False]
    finally:
        executor.submit(lambda: connection.close()).result()
        executor.shutdown()


def test_a_connection_given_back_for_its_age_and_handed_out_again_is_kept_again(monkeypatch):
    """The pool may hand the thread the very connection it gave back: its age starts again at that checkout."""
    monkeypatch.setattr(db_threads, "KEPT_SECONDS", 0.3)
    run, executor = one_thread(opened_at_entry)
    try:
        async_to_sync(run)()
        time.sleep(0.4)
        was_open, _ = async_to_sync(run)()  # given back before this call, checked out afresh
        assert not was_open
        assert [async_to_sync(run)()[0] for _ in range(2)] == [True, True]
    finally:
        executor.submit(lambda: connection.close()).result()
        executor.shutdown()


def test_a_connection_left_inside_a_transaction_is_given_back_not_kept():
    def leave_a_transaction_open():
        connection.set_autocommit(False)
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")

    run, executor = one_thread(opened_at_entry)
    leave = KeepingItsConnection(leave_a_transaction_open, thread_sensitive=False, executor=executor)
    try:
        async_to_sync(run)()
        assert async_to_sync(run)()[0]
        async_to_sync(leave)()
        was_open, _ = async_to_sync(run)()
        assert not was_open
        assert async_to_sync(run)()[0]  # and the fresh one is kept again
    finally:
        executor.submit(lambda: connection.close()).result()
        executor.shutdown()


def test_a_broken_connection_is_given_back_and_the_next_call_connects_afresh():
    def backend():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            return cursor.fetchone()[0]

    def killed_under_it():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")

    executor = ThreadPoolExecutor(max_workers=1)
    on_thread = [
        KeepingItsConnection(f, thread_sensitive=False, executor=executor) for f in (backend, killed_under_it)
    ]
    pid, kill = (async_to_sync(f) for f in on_thread)
    try:
        first = pid()
        assert pid() == first  # kept
        with pytest.raises(OperationalError):
            kill()
        given_back = executor.submit(lambda: connection.connection is None).result()
        assert given_back
        assert pid() not in (first, None)  # a working connection again, without a failed call first
    finally:
        executor.submit(lambda: connection.close()).result()
        executor.shutdown()
