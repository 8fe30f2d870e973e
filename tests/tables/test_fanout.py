"""Fan-out without the database: a change reaches every viewer in its group message, with the committed state, and
each consumer renders its own viewer's snapshot from it. Nobody queries per change; the actor gets one snapshot."""

import pytest
from asgiref.sync import async_to_sync

from tables import selectors, services
from tables.models import Table

from .sockets import drain, open_socket, receive, receive_until, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def reads(monkeypatch):
    """Every read of a table's committed state by a consumer, counted."""
    calls = []
    real = selectors.committed

    def counted(table_id, *args, **kwargs):  # the viewer and his session, for a private table's access
        calls.append(table_id)
        return real(table_id, *args, **kwargs)

    monkeypatch.setattr(selectors, "committed", counted)
    return calls


def test_a_change_reaches_every_viewer_without_a_query_D1(classic_table, players, reads):
    ann, boris, _ = players
    services.sit(classic_table.pk, ann, 400, seat=0)
    services.sit(classic_table.pk, boris, 400, seat=1)
    cookies = [session_cookie(ann), session_cookie(boris)]

    async def scenario():
        sockets = [(await open_socket(f"/ws/tables/{classic_table.pk}/", c))[0] for c in cookies]
        watcher, _ = await open_socket(f"/ws/tables/{classic_table.pk}/")
        everyone = [*sockets, watcher]
        for socket in everyone:
            await receive(socket)  # the snapshot on connect: one read each
        connect_reads = len(reads)
        await sockets[0].send_json_to({"type": "new_deal", "id": "a"})
        await sockets[1].send_json_to({"type": "new_deal", "id": "b"})
        seen = [await drain(socket, 0.5) for socket in everyone]
        for socket in everyone:
            await socket.disconnect()
        return connect_reads, seen

    connect_reads, seen = async_to_sync(scenario)()
    assert connect_reads == 3
    assert len(reads) == 3  # no read after connect: the group messages carried the state
    version = Table.objects.get(pk=classic_table.pk).version
    truth = Table.objects.get(pk=classic_table.pk)
    for messages, user in zip(seen, [ann, boris, None], strict=True):
        snapshots = [m for m in messages if m["type"] == "snapshot"]
        assert snapshots[-1]["version"] == version
        # What each viewer got from the group message is exactly what the row renders for him.
        expected = selectors.snapshot_for(truth, user)
        got = snapshots[-1]
        # (The id: the last change may have been the viewer's own, whose snapshot answers his message.)
        assert {k: v for k, v in got.items() if k not in ("clock", "events", "id")} == {
            k: v for k, v in expected.items() if k != "clock"
        }
        assert got["clock"]["deadline"] == expected["clock"]["deadline"]
        # Nobody's snapshot shows a card he may not see (D1): nobody has opened one yet.
        for seat in got["state"]["seats"]:
            if seat is not None:
                assert all(card is None for card in seat["cards"])


def test_the_player_who_acts_gets_one_snapshot_of_his_change(classic_table, players, reads):
    ann, boris, _ = players
    services.sit(classic_table.pk, ann, 400, seat=0)
    cookie = session_cookie(boris)

    async def scenario():
        socket, _ = await open_socket(f"/ws/tables/{classic_table.pk}/", cookie)
        await receive(socket)
        await socket.send_json_to({"type": "sit", "amount": 400, "id": "s"})
        answer, before = await receive_until(socket, lambda m: m.get("id") == "s")
        after = await drain(socket, 0.5)
        await socket.disconnect()
        return answer, before + after

    answer, messages = async_to_sync(scenario)()
    # His answer is the snapshot of his change, with his message's id: one frame, no ack and no second snapshot.
    assert answer["type"] == "snapshot" and answer["id"] == "s" and answer["seat"] == 1
    assert [m for m in messages if m["type"] in ("snapshot", "ack")] == [answer]
    assert len(reads) == 1  # the connect only


def test_a_viewer_who_missed_changes_catches_up_from_the_next_message(classic_table, players):
    """channels-redis may drop a group message: the next one carries the whole state, so no read is needed."""
    ann, boris, _ = players
    services.sit(classic_table.pk, ann, 400, seat=0)

    async def scenario():
        watcher, _ = await open_socket(f"/ws/tables/{classic_table.pk}/")
        first = await receive(watcher)
        return first

    first = async_to_sync(scenario)()
    table = Table.objects.get(pk=classic_table.pk)
    committed = selectors.Committed.of_table(table)
    services.sit(classic_table.pk, boris, 400, seat=1)
    services.act(classic_table.pk, ann, {"kind": "new_deal"})
    later = selectors.Committed.of_table(Table.objects.get(pk=classic_table.pk))
    message = {"version": later.version, "state": later.state, "clock": later.clock, "status": "open"}
    caught_up = selectors.snapshot(committed.changed(message), None)
    assert caught_up["version"] == first["version"] + 2
    assert caught_up["state"] == selectors.snapshot(later, None)["state"]


def test_a_consumer_sends_the_door_s_group_messages_itself(classic_table, players):
    """Called from a consumer (notify.collecting), the door collects its group messages instead of waiting on the
    channel layer from its database thread; the consumer sends them in order after it answered."""
    from tables.services import notify

    with notify.collecting() as outbox:
        ack = services.sit(classic_table.pk, players[0], 400)
    groups = [group for group, _ in outbox]
    assert groups == [f"table-{classic_table.pk}", "lobby"]  # the sit changed the seats: the lobby hears too
    table_message = outbox[0][1]
    assert table_message["type"] == "table.changed" and table_message["version"] == ack.version


def test_a_table_closed_by_staff_tells_its_viewers_and_closes_their_sockets(classic_table, players, staff):
    """Closing does not raise the version when nobody played: the viewers must hear it all the same."""
    cookie = session_cookie(players[1])

    async def scenario():
        watcher, _ = await open_socket(f"/ws/tables/{classic_table.pk}/", cookie)
        await receive(watcher)
        from channels.db import database_sync_to_async

        await database_sync_to_async(services.close_table)(classic_table.pk, staff=staff)
        closed, _ = await receive_until(watcher, lambda m: m["type"] == "snapshot")
        output = await watcher.receive_output(timeout=3)
        return closed, output

    closed, output = async_to_sync(scenario)()
    assert closed["table"]["status"] == "closed"
    assert output == {"type": "websocket.close", "code": 4000}


def test_a_socket_that_fails_to_open_releases_the_player_s_presence(classic_table, players, monkeypatch):
    """A fault after the connection counted (here rendering the first snapshot) closes the socket with 1011 and
    takes the count back: an escaping exception used to skip `disconnect`, so the presence and its heartbeat leaked."""
    from tables.models import Presence

    services.sit(classic_table.pk, players[0], 400, seat=0)
    cookie = session_cookie(players[0])

    def broken(committed, user_id, now=None):
        raise RuntimeError("a rendering fault")

    monkeypatch.setattr(selectors, "snapshot", broken)

    async def scenario():
        socket, _ = await open_socket(f"/ws/tables/{classic_table.pk}/", cookie)
        told = await receive(socket)
        output = await socket.receive_output(timeout=3)
        return told, output

    told, output = async_to_sync(scenario)()
    assert told["type"] == "error" and told["code"] == "server_error"
    assert output == {"type": "websocket.close", "code": 1011}
    assert Presence.objects.get(table=classic_table, user=players[0]).connections == 0


def test_a_message_whose_handling_fails_gets_an_error_and_the_socket_lives_on(classic_table, players, monkeypatch):
    services.sit(classic_table.pk, players[0], 400, seat=0)
    cookie = session_cookie(players[0])
    real = selectors.snapshot
    calls = []

    def fails_once_after_connect(committed, user_id, now=None):
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("a rendering fault")
        return real(committed, user_id, now)

    monkeypatch.setattr(selectors, "snapshot", fails_once_after_connect)

    async def scenario():
        socket, _ = await open_socket(f"/ws/tables/{classic_table.pk}/", cookie)
        await receive(socket)
        await socket.send_json_to({"type": "sit_out", "id": "x"})
        failed, _ = await receive_until(socket, lambda m: m["type"] == "error")
        await socket.send_json_to({"type": "ping", "id": "p"})
        pong, _ = await receive_until(socket, lambda m: m["type"] == "pong")
        await socket.disconnect()
        return failed, pong

    failed, pong = async_to_sync(scenario)()
    assert failed["code"] == "server_error" and pong["id"] == "p"


def test_a_change_is_decoded_once_for_every_viewer_in_a_process_and_not_at_all_for_the_actor(
    classic_table, players, monkeypatch
):
    """Each change's stored text is decoded once per process for all its viewers' snapshots (selectors.decoded); in
    the acting player's process not even once: his consumer renders from the door's own state."""
    import sys
    import threading

    from channels.db import database_sync_to_async

    from tables.engine.play import TableState
    from tables.services import optimistic

    ann, boris, _ = players
    services.sit(classic_table.pk, ann, 400, seat=0)
    services.sit(classic_table.pk, boris, 400, seat=1)
    cookies = [session_cookie(ann), session_cookie(boris)]
    decodes = []  # by the consumers, on the event loop's thread (the door decodes its row on its own threads)
    real = TableState.loads.__func__
    loop_thread = []
    # A move without the lock, played on the loop, decodes the state it plays on (ahead of it, or as it plays).
    planning = {optimistic._taken.__code__, optimistic._spare.__code__}

    def counted(cls, text):
        if threading.current_thread() in loop_thread and sys._getframe(1).f_code not in planning:
            decodes.append(text)
        return real(cls, text)

    async def scenario():
        loop_thread.append(threading.current_thread())
        sockets = [(await open_socket(f"/ws/tables/{classic_table.pk}/", c))[0] for c in cookies]
        watcher, _ = await open_socket(f"/ws/tables/{classic_table.pk}/")
        everyone = [*sockets, watcher]
        for socket in everyone:
            await receive(socket)
        monkeypatch.setattr(TableState, "loads", classmethod(counted))
        await sockets[0].send_json_to({"type": "new_deal", "id": "a"})
        await receive_until(sockets[0], lambda m: m.get("id") == "a")
        await sockets[1].send_json_to({"type": "new_deal", "id": "b"})
        seen = [await drain(socket, 0.5) for socket in everyone]
        from_sockets = list(decodes)
        # A change made by no socket here (a clock, a bot, another process): one decoding for the three viewers.
        await database_sync_to_async(services.act)(classic_table.pk, ann, {"kind": "standing", "choice": "deal_me_in"})
        seen = [seen[i] + await drain(socket, 0.5) for i, socket in enumerate(everyone)]
        for socket in everyone:
            await socket.disconnect()
        return seen, from_sockets

    seen, from_sockets = async_to_sync(scenario)()
    version = Table.objects.get(pk=classic_table.pk).version
    for messages in seen:
        assert [m for m in messages if m["type"] == "snapshot"][-1]["version"] == version
    # Three viewers saw two changes made by sockets (six snapshots), all in this one process: none decoded.
    assert from_sockets == []
    assert len(decodes) == 1


def test_a_run_of_changes_from_one_message_reaches_every_viewer_as_one_snapshot_with_all_its_events(
    classic_table, players
):
    """A fold that ends the deal commits a run of changes: the deal's end, then each standing New deal (deal me in)
    and the next deal's start. Every viewer, not only the player who folded, gets one snapshot of the run's last
    version carrying every event of the run, in order (notify.coalesced): one rendering a viewer, not one a change."""
    from channels.db import database_sync_to_async

    ann, boris, _ = players
    for seat, user in enumerate((ann, boris)):
        services.sit(classic_table.pk, user, 400, seat=seat)
        services.act(classic_table.pk, user, {"kind": "standing", "choice": "deal_me_in"})
    cookies = [session_cookie(ann), session_cookie(boris)]

    async def scenario():
        sockets = [(await open_socket(f"/ws/tables/{classic_table.pk}/", c))[0] for c in cookies]
        watcher, _ = await open_socket(f"/ws/tables/{classic_table.pk}/")
        everyone = [*sockets, watcher]
        first = [await receive(socket) for socket in everyone]
        assert first[0]["state"]["phase"] == "betting"  # the standing New deals started a deal already
        turn = first[0]["state"]["turn"]
        before = await database_sync_to_async(lambda: Table.objects.get(pk=classic_table.pk).version)()
        await sockets[turn].send_json_to({"type": "fold", "id": "f"})
        seen = [await drain(socket, 0.5) for socket in everyone]
        for socket in everyone:
            await socket.disconnect()
        return before, turn, seen

    before, turn, seen = async_to_sync(scenario)()
    after = Table.objects.get(pk=classic_table.pk).version
    assert after == before + 3  # the fold, then a New deal a seat (the second starts the next deal)
    for messages in seen:
        snapshots = [m for m in messages if m["type"] == "snapshot"]
        assert [s["version"] for s in snapshots] == [after]
        kinds = [event["type"] for event in snapshots[0]["events"]]
        assert kinds.index("fold") < kinds.index("deal_ended") < kinds.index("deal_started")
        assert kinds.count("ready") + kinds.count("deal_started") >= 2
