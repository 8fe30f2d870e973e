"""A move without the table's lock sent over a table's socket is played and written on the socket's own event loop,
on one of its connections (tables/loop_db.py), with no door thread; whenever that way cannot take it (no free
connection, a statement that wrote nothing, a connection cut) a door thread answers, and the answer is the same."""

import asyncio
import logging

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.db import connection

from tables import db_threads, loop_db, services
from tables.models import ClientMessage, Deal, DealSeat, Table
from tables.services import optimistic
from wallet import services as wallet
from wallet.batch import AccountRef
from wallet.models import AccountKind, LedgerAccount

from .conftest import audit_clean, ledger_matches_engine, make_user, state_of
from .sockets import open_socket, receive, receive_until, session_cookie

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the loop's connections are PostgreSQL's"),
    pytest.mark.usefixtures("fresh_process"),
]


@pytest.fixture
def door_calls(monkeypatch):
    """Every call a socket's move makes on a door thread, with whether it may still try the move without the lock."""
    calls = []
    real = optimistic.through_the_door

    def counted(service):
        on_thread = real(service)

        async def call(*args, unlocked=True):
            calls.append(unlocked)
            return await on_thread(*args, unlocked=unlocked)

        return call

    monkeypatch.setattr(optimistic, "through_the_door", counted)
    return calls


def loop_sessions() -> list[int]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE application_name = %s AND datname = current_database()",
                       [loop_db.APPLICATION_NAME])  # fmt: skip
        return [pid for (pid,) in cursor.fetchall()]


def cut_loop_sessions() -> None:
    """PostgreSQL ends the loops' sessions (a restart, an administrator), while they idle."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s "
                       "AND datname = current_database()", [loop_db.APPLICATION_NAME])  # fmt: skip


def two_seated(table, users):
    for index, user in enumerate(users):
        services.sit(table.pk, user, 400, seat=index)  # a locked action here: the table's accounts become known


async def press_new_deal(table, cookie, message_id):
    """A player's socket opened, New deal pressed once, its answer."""
    socket, _ = await open_socket(f"/ws/tables/{table.pk}/", cookie)
    await receive(socket)
    await socket.send_json_to({"type": "new_deal", "id": message_id})
    answer, _ = await receive_until(socket, lambda m: m.get("id") == message_id)
    await socket.disconnect()
    return answer


def play(table, user, message_id):
    """`user` presses New deal over his socket (on an event loop of its own); his answer."""
    return async_to_sync(press_new_deal)(table, session_cookie(user), message_id)


def test_a_move_over_a_socket_is_written_on_its_loop_without_a_door_thread(classic_table, players, door_calls):
    ann, boris, _ = players
    two_seated(classic_table, [ann, boris])
    version = state_of(classic_table.pk).version

    async def scenario():
        answer = await press_new_deal(classic_table, session_cookie_of_ann, "n1")  # not the last: no deal yet
        return answer, await database_sync_to_async(loop_sessions)()

    session_cookie_of_ann = session_cookie(ann)
    answer, sessions = async_to_sync(scenario)()
    assert answer["type"] == "snapshot" and answer["version"] == version + 1
    assert door_calls == []  # no door thread was asked
    assert Table.objects.get(pk=classic_table.pk).version == version + 1
    assert ClientMessage.objects.get(client_id="n1").response == {"type": "ack", "id": "n1", "version": version + 1}
    assert len(sessions) == 1  # the loop's connection, kept for its next move
    ledger_matches_engine(classic_table.pk)
    audit_clean()


def test_a_move_the_loop_cannot_take_goes_to_a_door_thread_which_does_not_try_again(classic_table, players,
                                                                                     door_calls):  # fmt: skip
    ann, boris, _ = players
    two_seated(classic_table, [ann, boris])
    play(classic_table, ann, "n1")
    # The last press starts the deal: with the test settings' queued decks (kept on the row) only the locked way deals.
    answer = play(classic_table, boris, "n2")
    assert answer["version"] == state_of(classic_table.pk).version and state_of(classic_table.pk).phase != "waiting"
    assert door_calls == [False]  # one call, told the loop has tried the unlocked way already
    ledger_matches_engine(classic_table.pk)
    audit_clean()


def test_the_press_that_starts_a_deal_is_written_on_the_loop_S10(classic_table, players, door_calls, settings):
    ann, boris, _ = players
    two_seated(classic_table, [ann, boris])
    for user in (ann, boris):  # a first deal, the locked way: the table's pot account opens in it
        services.act(classic_table.pk, user, {"kind": "new_deal"})
    services.act(classic_table.pk, [ann, boris][state_of(classic_table.pk).turn], {"kind": "fold"})
    settings.SVARA_DECK_PROVIDER = None  # the fair shuffle, as in production
    play(classic_table, ann, "n1")
    answer = play(classic_table, boris, "n2")
    state = state_of(classic_table.pk)
    assert state.phase != "waiting" and state.deal_no == 2 and answer["version"] == state.version
    assert door_calls == []
    assert Deal.objects.filter(table=classic_table, number=2).count() == 1
    assert DealSeat.objects.filter(deal__table=classic_table, deal__number=2).count() == 2
    ledger_matches_engine(classic_table.pk)
    audit_clean()


def test_the_first_deal_at_a_new_table_starts_on_the_loop_S10(classic_table, players, door_calls, settings):
    """A table's pot and house account open with it, so its very first deal's antes name accounts this process
    already knows: the press that starts it is written on the loop like any later deal's (it went the locked way,
    which opened the pot)."""
    ann, boris, _ = players
    opened = LedgerAccount.objects.filter(table_id=classic_table.pk, kind__in=[AccountKind.POT, AccountKind.HOUSE])
    assert sorted(opened.values_list("kind", "balance")) == [(AccountKind.HOUSE, 0), (AccountKind.POT, 0)]
    two_seated(classic_table, [ann, boris])
    settings.SVARA_DECK_PROVIDER = None  # the fair shuffle, as in production
    play(classic_table, ann, "n1")
    answer = play(classic_table, boris, "n2")
    state = state_of(classic_table.pk)
    assert state.phase != "waiting" and state.deal_no == 1 and state.pot == 20 and answer["version"] == state.version
    assert door_calls == []
    assert DealSeat.objects.filter(deal__table=classic_table, deal__number=1).count() == 2
    ledger_matches_engine(classic_table.pk)
    audit_clean()


def test_a_process_learns_the_tables_accounts_from_the_change_of_a_locked_action_elsewhere_S10(
    classic_table, players, door_calls, monkeypatch, settings
):
    """The locked way reads the table's ledger accounts under the row's lock (and opens a sitter's stack) in the
    process that runs it; its group message tells their ids to every process at the table. So a move here that
    moves chips (the antes of the press that starts a deal) goes without the lock though every sit ran elsewhere:
    before, this process knew none of the accounts and sent it to a door thread, the locked way."""
    ann, boris, _ = players
    monkeypatch.setattr(optimistic.known, "accounts_seen", lambda *args: None)  # the locked way runs elsewhere
    settings.SVARA_DECK_PROVIDER = None
    cookie = session_cookie(ann)

    async def scenario():
        socket, _ = await open_socket(f"/ws/tables/{classic_table.pk}/", cookie)
        await receive(socket)
        await database_sync_to_async(two_seated)(classic_table, [ann, boris])
        await database_sync_to_async(services.act)(classic_table.pk, boris, {"kind": "new_deal"}, "n1")
        version = await database_sync_to_async(lambda: state_of(classic_table.pk).version)()
        await receive_until(socket, lambda m: m.get("type") == "snapshot" and m["version"] == version)
        told = dict(optimistic.known.accounts.get(classic_table.pk, {}))
        await socket.send_json_to({"type": "new_deal", "id": "n2"})
        answer, _ = await receive_until(socket, lambda m: m.get("id") == "n2")
        await socket.disconnect()
        return told, answer

    told, answer = async_to_sync(scenario)()
    accounts = LedgerAccount.objects.filter(table_id=classic_table.pk)  # its pot, house account and two stacks
    assert told == {AccountRef(a.kind, a.user_id, classic_table.pk): a.pk for a in accounts} and len(told) == 4
    state = state_of(classic_table.pk)
    assert state.phase != "waiting" and state.pot == 20 and answer["version"] == state.version
    assert door_calls == []  # the deal's start, antes and all, was written on the loop
    ledger_matches_engine(classic_table.pk)
    audit_clean()


def test_a_fold_that_ends_the_deal_is_written_on_the_loop_after_reading_its_events_S8(classic_table, players,
                                                                                      door_calls, settings):  # fmt: skip
    """The deal's end over a socket: its stored events are read on the loop's connection, then the one statement
    closes the deal with its players' results; no door thread."""
    ann, boris, _ = players
    two_seated(classic_table, [ann, boris])
    settings.SVARA_DECK_PROVIDER = None
    for user in (ann, boris):
        services.act(classic_table.pk, user, {"kind": "new_deal"})
    folder = [ann, boris][state_of(classic_table.pk).turn]
    cookie = session_cookie(folder)

    async def scenario():
        socket, _ = await open_socket(f"/ws/tables/{classic_table.pk}/", cookie)
        await receive(socket)
        await socket.send_json_to({"type": "fold", "id": "f1"})
        answer, _ = await receive_until(socket, lambda m: m.get("id") == "f1")
        await socket.disconnect()
        return answer

    answer = async_to_sync(scenario)()
    state = state_of(classic_table.pk)
    assert state.phase == "waiting" and answer["version"] == state.version
    assert door_calls == []
    deal = Deal.objects.get(table=classic_table, number=1, svara=0)
    assert deal.ended_at is not None and deal.pot == 20
    assert sorted(DealSeat.objects.filter(deal=deal).values_list("net", flat=True)) == [-10, 10 - deal.rake]
    ledger_matches_engine(classic_table.pk)
    audit_clean()


def test_with_no_free_loop_connection_a_door_thread_tries_the_move_without_the_lock(
    classic_table, players, door_calls, monkeypatch
):
    ann, boris, _ = players
    two_seated(classic_table, [ann, boris])
    monkeypatch.setattr(loop_db, "LOOP_CONNECTIONS", 0)
    version = state_of(classic_table.pk).version
    answer = play(classic_table, ann, "n1")
    assert answer["version"] == version + 1
    assert door_calls == [True]  # the thread may go without the lock: the loop never tried
    assert loop_sessions() == []


def test_a_stale_known_state_writes_nothing_on_the_loop_and_the_locked_way_answers(
    classic_table, players, door_calls, monkeypatch
):
    ann, boris, _ = players
    two_seated(classic_table, [ann, boris])
    version = state_of(classic_table.pk).version
    real_seen = optimistic.known.seen
    old = dict(optimistic.known.tables)

    def stale(*args):  # the process keeps believing the table is where it was before the sockets opened
        real_seen(*args)
        optimistic.known.tables.update(old)

    monkeypatch.setattr(optimistic.known, "seen", stale)
    tries = []
    real_on_loop = optimistic._on_loop

    async def counted(*args):
        tries.append(args[3])  # the message id
        return await real_on_loop(*args)

    monkeypatch.setattr(optimistic, "_on_loop", counted)
    ann_answer = play(classic_table, ann, "n1")
    boris_answer = play(classic_table, boris, "n2")  # played on ann's version: the statement finds v+1, not v
    assert (ann_answer["version"], boris_answer["version"]) == (version + 1, version + 2)
    # Boris's press: each of LOST_RACES tries on the loop wrote nothing (the process keeps its stale state, even after
    # reading the row, which had moved on), then the door answered, not trying again.
    assert tries == ["n1"] + ["n2"] * optimistic.LOST_RACES
    assert door_calls == [False]
    assert state_of(classic_table.pk).phase != "waiting"  # both pressed: the deal started
    ledger_matches_engine(classic_table.pk)
    audit_clean()


def test_a_move_that_lost_a_race_is_played_again_on_the_loop_on_the_row_as_it_is_now(
    classic_table, players, door_calls
):
    """Boris's process knows the table as it was before Ann's press, which another process wrote, and has not yet
    heard of her change: his statement writes nothing; the row, read then, has moved on, and his press is played on
    it and written on the loop, with no door thread."""
    ann, boris, vera = players
    for index, user in enumerate(players):
        services.sit(classic_table.pk, user, 400, seat=index)
    before_ann = optimistic.known.tables[classic_table.pk]
    services.act(classic_table.pk, ann, {"kind": "new_deal"}, "n1")
    version = state_of(classic_table.pk).version
    cookie = session_cookie(boris)

    async def scenario():
        socket, _ = await open_socket(f"/ws/tables/{classic_table.pk}/", cookie)
        await receive(socket)
        optimistic.known.tables[classic_table.pk] = before_ann  # Ann's change not heard of here yet
        await socket.send_json_to({"type": "new_deal", "id": "n2"})
        answer, _ = await receive_until(socket, lambda m: m.get("id") == "n2")
        await socket.disconnect()
        return answer

    answer = async_to_sync(scenario)()
    assert answer["type"] == "snapshot" and answer["version"] == version + 1
    assert door_calls == []
    assert ClientMessage.objects.get(client_id="n2").response == {"type": "ack", "id": "n2", "version": version + 1}
    assert state_of(classic_table.pk).seats[1].ready and state_of(classic_table.pk).phase == "waiting"
    ledger_matches_engine(classic_table.pk)
    audit_clean()


def test_a_loop_connection_cut_off_is_dropped_and_the_locked_way_answers(
    classic_table, players, staff, door_calls, caplog
):
    dora = make_user("dora@example.com", display_name="Dora")
    wallet.credit(dora, 10_000, reason="welcome chips", staff=staff)
    players = [*players, dora]  # four: the third press is not the last, which starts the deal
    for index, user in enumerate(players):
        services.sit(classic_table.pk, user, 400, seat=index)
    version = state_of(classic_table.pk).version
    cookies = [session_cookie(user) for user in players]

    async def scenario():  # one event loop: its one connection is cut between two moves
        first = await press_new_deal(classic_table, cookies[0], "n1")
        await database_sync_to_async(cut_loop_sessions)()
        second = await press_new_deal(classic_table, cookies[1], "n2")  # meets the cut connection: a thread writes
        third = await press_new_deal(classic_table, cookies[2], "n3")  # a fresh connection: no thread
        return first, second, third

    with caplog.at_level(logging.WARNING, logger="tables.services.optimistic"):
        first, second, third = async_to_sync(scenario)()
    assert [m["version"] for m in (first, second, third)] == [version + 1, version + 2, version + 3]
    assert door_calls == [False]  # only the second
    lost = [r for r in caplog.records if "lost its connection" in r.getMessage()]
    assert len(lost) == 1 and lost[0].exc_info is None  # an outage in one line, no traceback
    assert state_of(classic_table.pk).phase == "waiting"  # three presses of four
    ledger_matches_engine(classic_table.pk)
    audit_clean()


def test_every_loop_connection_is_closed_before_the_database_is_dropped(classic_table, players):
    ann, boris, _ = players
    two_seated(classic_table, [ann, boris])

    async def scenario():
        await press_new_deal(classic_table, cookie, "n1")
        return await database_sync_to_async(loop_sessions)()

    cookie = session_cookie(ann)
    assert len(async_to_sync(scenario)()) == 1
    db_threads.give_back_every_connection()
    for _ in range(50):  # the server ends a session a moment after its client closed it
        if not loop_sessions():
            break
        async_to_sync(asyncio.sleep)(0.02)
    assert loop_sessions() == []


def test_a_loop_that_cannot_reach_postgresql_lets_the_door_threads_move_and_waits_before_trying_again(
    classic_table, players, staff, door_calls, monkeypatch, caplog
):
    dora = make_user("dora@example.com", display_name="Dora")
    wallet.credit(dora, 10_000, reason="welcome chips", staff=staff)
    players = [*players, dora]
    for index, user in enumerate(players):
        services.sit(classic_table.pk, user, 400, seat=index)
    version = state_of(classic_table.pk).version
    real = loop_db._connect_params
    attempts = []

    def unreachable():  # a port nothing listens on: the loop's connect fails at once
        attempts.append(1)
        return {**real(), "host": "127.0.0.1", "port": 9}

    monkeypatch.setattr(loop_db, "_connect_params", unreachable)
    cookies = [session_cookie(user) for user in players[:3]]

    async def scenario():  # one event loop
        return [await press_new_deal(classic_table, cookie, f"n{i}") for i, cookie in enumerate(cookies)]

    with caplog.at_level(logging.WARNING, logger="tables.loop_db"):
        answers = async_to_sync(scenario)()
    assert [a["version"] for a in answers] == [version + 1, version + 2, version + 3]
    assert door_calls == [True, True, True]  # each on a door thread, which could still go without the lock
    assert len(attempts) == 1  # tried once, then left alone for loop_db.DOWN_SECONDS
    warned = [r for r in caplog.records if "could not connect" in r.getMessage()]
    assert len(warned) == 1 and warned[0].exc_info is None
    assert loop_sessions() == []
    ledger_matches_engine(classic_table.pk)
    audit_clean()


def test_a_bot_due_after_a_move_on_the_loop_is_sent_to_celery_off_the_loop(players, door_calls):
    """A move written on the socket's event loop at a table with a bot: the bot's answer is queued from the bots'
    own thread (bots/receivers.py), so a slow or hung broker (Redis) holds neither this answer nor the process's
    other sockets. Before, the receiver published from the event loop itself."""
    import threading

    from celery.signals import before_task_publish

    from bots import services as bots

    ann = players[0]
    bots.fund_bots(100_000, key="tests:pool")
    table = services.create_table(ann, "classic", 10, 2, True)
    bot = bots.seat_bot(table, "strong", by_user=ann)
    services.sit(table.pk, ann, 400)  # locked actions: the table's accounts become known
    from bots.receivers import _sender

    _sender.submit(lambda: None).result(timeout=10)  # the bots' moves due before (after the sits) are sent
    sent = []
    done = threading.Event()

    def published(sender=None, body=None, **kwargs):
        if sender == "bots.tasks.bot_act":
            try:
                asyncio.get_running_loop()
                on_loop = True
            except RuntimeError:
                on_loop = False
            sent.append((tuple(body[0]), on_loop))
            done.set()

    before_task_publish.connect(published, weak=False)
    try:
        answer = play(table, ann, "n1")  # Ann's New deal: the bot is due to press it too
        assert done.wait(10), "the bot's move was never sent"
    finally:
        before_task_publish.disconnect(published)
    assert door_calls == []  # written on the loop
    bot_seat = next(seat for seat, s in enumerate(state_of(table.pk).seats) if s and s.player == str(bot.pk))
    assert sent == [((table.pk, answer["version"], bot_seat), False)]
