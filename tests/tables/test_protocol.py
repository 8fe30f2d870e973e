"""The table socket in-process: bad messages get a clear error to their sender only and change nothing (docs/protocol.md)."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from tables import services
from tables.models import ClientMessage, Table

from .sockets import drain, open_socket, receive, receive_until, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


def table_version(table):
    return Table.objects.get(pk=table.pk).version


def test_a_foreign_origin_is_refused_at_the_handshake(classic_table):
    async def scenario():
        socket, connected = await open_socket(f"/ws/tables/{classic_table.pk}/", origin=b"https://evil.example")
        assert connected is False
        socket, connected = await open_socket("/ws/lobby/", origin=b"https://evil.example")
        assert connected is False

    async_to_sync(scenario)()


def test_a_spectator_gets_a_snapshot_without_hidden_cards_D1(classic_table, players):
    ann, boris, _ = players
    services.sit(classic_table.pk, ann, 400)
    services.sit(classic_table.pk, boris, 400)
    services.act(classic_table.pk, ann, {"kind": "new_deal"})
    services.act(classic_table.pk, boris, {"kind": "new_deal"})

    async def scenario():
        socket, connected = await open_socket(f"/ws/tables/{classic_table.pk}/")
        assert connected
        snapshot = await receive(socket)
        await socket.disconnect()
        return snapshot

    snapshot = async_to_sync(scenario)()
    assert snapshot["type"] == "snapshot" and snapshot["seat"] is None and snapshot["legal"] == []
    assert snapshot["state"]["phase"] != "waiting"
    dealt = [seat for seat in snapshot["state"]["seats"] if seat and seat["in_deal"]]
    assert len(dealt) == 2
    assert all(card is None for seat in dealt for card in seat["cards"])


@pytest.mark.parametrize(
    "frame, code",
    [
        ("not json at all", "bad_json"),
        ("[1, 2]", "bad_json"),
        ('{"type": "teleport"}', "unknown_type"),
        ('{"no_type": 1}', "unknown_type"),
        ('{"type": "timeout"}', "unknown_type"),
        ('{"type": "bet", "amount": "ten"}', "bad_field"),
        ('{"type": "bet", "amount": true}', "bad_field"),
        ('{"type": "bet"}', "bad_field"),
        ('{"type": "open", "card": 7}', "out_of_range"),
        ('{"type": "open", "card": "0"}', "bad_field"),
        ('{"type": "sit", "amount": 5}', "out_of_range"),
        ('{"type": "sit", "amount": 1001}', "out_of_range"),
        ('{"type": "sit", "amount": 400, "seat": 9}', "out_of_range"),
        ('{"type": "bet", "amount": -5}', "out_of_range"),
        ('{"type": "check", "id": 17}', "bad_field"),
        ('{"type": "check", "table": 999999}', "wrong_table"),
        ('{"type": "fold"}', "not_seated"),
    ],
)
def test_a_bad_message_gets_a_clear_error_and_changes_nothing(classic_table, players, frame, code):
    cookie = session_cookie(players[2])
    version = table_version(classic_table)

    async def scenario():
        socket, connected = await open_socket(f"/ws/tables/{classic_table.pk}/", cookie)
        assert connected
        assert (await receive(socket))["type"] == "snapshot"
        await socket.send_to(text_data=frame)
        answer = await receive(socket)
        rest = await drain(socket)
        await socket.disconnect()
        return answer, rest

    answer, rest = async_to_sync(scenario)()
    assert answer["type"] == "error" and answer["code"] == code, answer
    assert answer["message"]
    assert rest == []
    assert table_version(classic_table) == version


def test_an_anonymous_spectator_may_watch_but_not_act(classic_table):
    async def scenario():
        socket, connected = await open_socket(f"/ws/tables/{classic_table.pk}/")
        assert connected
        await receive(socket)
        await socket.send_json_to({"type": "sit", "amount": 400, "id": "s1"})
        answer = await receive(socket)
        await socket.disconnect()
        return answer

    answer = async_to_sync(scenario)()
    assert answer == {"type": "error", "code": "login_required", "message": answer["message"], "id": "s1"}
    assert not Table.objects.get(pk=classic_table.pk).occupied_seats.exists()


def test_out_of_turn_and_another_seat_are_refused(classic_table, players):
    ann, boris, _ = players
    services.sit(classic_table.pk, ann, 400, seat=0)
    services.sit(classic_table.pk, boris, 400, seat=1)
    services.act(classic_table.pk, ann, {"kind": "new_deal"})
    services.act(classic_table.pk, boris, {"kind": "new_deal"})
    table = Table.objects.get(pk=classic_table.pk)
    waiting = [ann, boris][table.clock_seats[0]]
    other = boris if waiting == ann else ann
    cookie = session_cookie(other)
    version = table.version

    async def scenario():
        socket, _ = await open_socket(f"/ws/tables/{classic_table.pk}/", cookie)
        await receive(socket)
        await socket.send_json_to({"type": "check", "id": "x1"})
        first = await receive(socket)
        # Acting for another seat is not a thing: a seat field on a move is refused.
        await socket.send_json_to({"type": "fold", "seat": table.clock_seats[0], "id": "x2"})
        second = await receive(socket)
        await socket.disconnect()
        return first, second

    first, second = async_to_sync(scenario)()
    assert first["code"] == "not_your_turn" and first["id"] == "x1"
    assert second["code"] == "bad_field" and second["id"] == "x2"
    assert table_version(classic_table) == version


def test_a_repeated_id_is_answered_again_and_never_applied_twice(classic_table, players):
    ann = players[0]
    cookie = session_cookie(ann)

    async def scenario():
        socket, _ = await open_socket(f"/ws/tables/{classic_table.pk}/", cookie)
        await receive(socket)
        await socket.send_json_to({"type": "sit", "amount": 400, "id": "sit-1"})
        first, _ = await receive_until(socket, lambda m: m.get("id") == "sit-1")
        await drain(socket)
        await socket.send_json_to({"type": "sit", "amount": 400, "id": "sit-1"})
        second, _ = await receive_until(socket, lambda m: m.get("id") == "sit-1")
        await socket.disconnect()
        return first, second

    first, second = async_to_sync(scenario)()
    # The first is answered by the snapshot of its change, the repeat by an ack of the version it was applied at.
    assert first["type"] == "snapshot" and first["seat"] == 0
    assert second == {"type": "ack", "id": "sit-1", "version": first["version"]}
    from wallet.selectors import balance_of

    assert balance_of(ann) == 10_000 - 400
    assert ClientMessage.objects.filter(table=classic_table, user=ann, client_id="sit-1").count() == 1


def test_chat_arrives_as_plain_text_between_deals_only(classic_table, players):
    ann, boris, _ = players
    services.sit(classic_table.pk, ann, 400)
    cookies = session_cookie(ann), session_cookie(boris)
    text = '<script>alert("x")</script> good luck'

    async def scenario():
        a, _ = await open_socket(f"/ws/tables/{classic_table.pk}/", cookies[0])
        b, _ = await open_socket(f"/ws/tables/{classic_table.pk}/", cookies[1])
        await receive(a), await receive(b)
        await a.send_json_to({"type": "chat", "text": text, "id": "c1"})
        line, _ = await receive_until(b, lambda m: m["type"] == "chat")
        await a.send_json_to({"type": "chat", "text": "x" * 201, "id": "c2"})
        too_long, _ = await receive_until(a, lambda m: m.get("id") == "c2")
        await a.disconnect(), await b.disconnect()
        return line, too_long

    line, too_long = async_to_sync(scenario)()
    assert line["text"] == text and line["user"] == "Ann"  # the very characters, never turned into markup
    assert too_long["code"] == "out_of_range"

    services.sit(classic_table.pk, boris, 400)
    services.act(classic_table.pk, ann, {"kind": "new_deal"})
    services.act(classic_table.pk, boris, {"kind": "new_deal"})
    with pytest.raises(services.DoorError) as refused:
        services.chat(classic_table.pk, ann, "during the deal")
    assert refused.value.code == "chat_closed"


def test_chat_is_rate_limited_one_a_second_burst_three(classic_table, players):
    cookie = session_cookie(players[0])

    async def scenario():
        socket, _ = await open_socket(f"/ws/tables/{classic_table.pk}/", cookie)
        await receive(socket)
        answers = []
        for n in range(5):
            await socket.send_json_to({"type": "chat", "text": f"hi {n}", "id": f"c{n}"})
            answer, _ = await receive_until(socket, lambda m, n=n: m.get("id") == f"c{n}")
            answers.append(answer)
        await socket.disconnect()
        return answers

    answers = async_to_sync(scenario)()
    assert [a["type"] for a in answers[:3]] == ["ack", "ack", "ack"]
    assert answers[3]["code"] == "rate_limited" and answers[4]["code"] == "rate_limited"


def test_actions_are_rate_limited_ten_a_second(classic_table, players):
    cookie = session_cookie(players[0])

    async def scenario():
        socket, _ = await open_socket(f"/ws/tables/{classic_table.pk}/", cookie)
        await receive(socket)
        for _ in range(12):
            await socket.send_json_to({"type": "snapshot"})
        await socket.send_json_to({"type": "stand", "id": "last"})
        answer, _ = await receive_until(socket, lambda m: m.get("id") == "last")
        await socket.disconnect()
        return answer

    assert async_to_sync(scenario)()["code"] == "rate_limited"


def test_a_closed_table_refuses_every_action(classic_table, players):
    services.close_table(classic_table.pk)
    with pytest.raises(services.DoorError) as refused:
        services.sit(classic_table.pk, players[1], 400)
    assert refused.value.code == "table_closed"


def test_no_such_table_is_an_error_then_the_socket_closes(db):
    async def scenario():
        socket, connected = await open_socket("/ws/tables/987654/")
        assert connected
        answer = await receive(socket)
        closed = await socket.receive_output(timeout=2)
        return answer, closed

    answer, closed = async_to_sync(scenario)()
    assert answer["code"] == "no_such_table"
    assert closed["type"] == "websocket.close"


def test_the_lobby_lists_open_tables_and_follows_changes(classic_table, players):
    boris = players[1]

    async def scenario():
        socket, connected = await open_socket("/ws/lobby/")
        assert connected
        first = await receive(socket)
        await database_sync_to_async(services.sit)(classic_table.pk, boris, 400)
        update, _ = await receive_until(socket, lambda m: m["type"] == "lobby_table")
        await socket.disconnect()
        return first, update

    first, update = async_to_sync(scenario)()
    assert [t["id"] for t in first["tables"]] == [classic_table.pk]
    assert first["tables"][0]["seats_taken"] == 0
    assert update["id"] == classic_table.pk and update["version"] > first["tables"][0]["version"]
    row = update["table"]
    assert row["seats_taken"] == 1 and row["players"][0]["name"] == "Boris"
    assert row["family"] == "classic" and row["ante"] == 10 and row["bots_allowed"] is False


def test_a_buy_in_above_the_balance_is_refused_over_the_socket_in_the_players_language(classic_table, staff):
    """Not enough chips, said over the socket: the refusal names the player's balance, made in the door (it once
    read the ledger account's player on the event loop, where Django refuses a query: a `server_error`)."""
    from tests.tables.conftest import make_user
    from wallet.selectors import balance_of
    from wallet.services import credit

    poor = make_user("poor@example.com", display_name="Poor", language="ru")
    credit(poor, 100, reason="a little", staff=staff)
    cookie = session_cookie(poor)

    async def scenario():
        socket, _ = await open_socket(f"/ws/tables/{classic_table.pk}/", cookie)
        await receive(socket)
        await socket.send_json_to({"type": "sit", "amount": 200, "id": "sit-1"})
        answer, _ = await receive_until(socket, lambda m: m.get("id") == "sit-1")
        await socket.disconnect()
        return answer

    answer = async_to_sync(scenario)()
    assert answer["type"] == "error" and answer["code"] == "wallet", answer
    assert "Poor" in answer["message"] and "100" in answer["message"], answer  # whose balance, and what it holds
    assert "фиш" in answer["message"] or "Недостаточно" in answer["message"], answer  # in his language
    assert balance_of(poor) == 100 and table_version(classic_table) == 0
