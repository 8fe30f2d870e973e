"""With psycopg's pool, the door's and the reads' threads keep their database connection from call to call, and give
it back when a call left it unfit (inside a transaction, or broken) or after KEPT_SECONDS (tables/db_threads.py).
The pool is PostgreSQL's (CI runs on it); without one, Django's CONN_MAX_AGE decides as around any call. A process's
door calls at one table take turns before they take a door thread (`table_turn`, optimistic.act_from_loop)."""

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import async_to_sync
from django.db import OperationalError, connection, connections, transaction

from tables import db_threads, services
from tables.db_threads import KeepingItsConnection
from tables.models import Table
from tables.protocol import Command

from .conftest import state_of

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


def hold_the_row(table_id: int, held: threading.Event, release: threading.Event) -> threading.Thread:
    """Another process's transaction at the table: its row locked until `release` is set."""

    def holding():
        try:
            with transaction.atomic():
                Table.objects.select_for_update().get(pk=table_id)
                held.set()
                release.wait(30)
        finally:
            connections.close_all()

    thread = threading.Thread(target=holding)
    thread.start()
    assert held.wait(10)
    return thread


def test_new_deal_presses_queued_at_one_table_hold_one_door_thread_and_other_tables_play_on(players):
    """RULES §10: every player presses New deal, all at once. While another process holds that table's row, a
    process's presses there (twice as many as it has door threads) wait for their turn in the process, not each on a
    door thread, so an action at another table still gets a thread and is answered."""
    ann, boris, vera = players
    busy = services.create_table(ann, "classic", 10, 6, False)
    other = services.create_table(vera, "classic", 10, 6, False)
    services.sit(busy.pk, ann, 400, seat=0)
    services.sit(busy.pk, boris, 400, seat=1)
    held, release = threading.Event(), threading.Event()
    holder = hold_the_row(busy.pk, held, release)

    async def presses_and_a_sit_elsewhere():
        presses = [
            asyncio.ensure_future(services.act_from_loop(busy.pk, user, Command("new_deal"), f"press-{n}"))
            for n, user in enumerate([ann, boris] * db_threads.DOOR_THREADS)
        ]
        try:
            sat = await asyncio.wait_for(
                services.act_from_loop(other.pk, vera, Command("sit", amount=400), "sit-1"), timeout=10
            )
        finally:
            release.set()
        await asyncio.gather(*presses, return_exceptions=True)
        return sat

    try:
        sat = async_to_sync(presses_and_a_sit_elsewhere)()
    finally:
        release.set()
        holder.join(10)
        db_threads.give_back_every_connection()
    assert sat.version == Table.objects.get(pk=other.pk).version
    assert state_of(busy.pk).deal_no == 1  # once the row was free, the presses went through: the first deal is on
