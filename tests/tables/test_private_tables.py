"""Private tables (tracker issue 14): without the invite link nobody can sit, watch, or learn that the table exists
(the page, the socket, the lobby and its socket, quick seat, play against bots, seating bots, the door); the link
grants access until its creator revokes it; staff see every table."""

import re

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.test import Client

from bots.services import BotError, fund_bots, seat_bot
from tables import access, selectors, services
from tables.models import Table, TableGuest
from tests.tables.sockets import drain, open_socket, receive, receive_until, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def private_table(players):
    return services.create_table(players[0], "classic", 10, 6, True, private=True)


def page(user=None, path="/"):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client, client.get(path)


def invite_path(table):
    return f"/tables/{table.pk}/?invite={table.invite_token}"


def same_page(response) -> str:
    """The page without what differs on every response (the masked CSRF token)."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", response.content.decode())


def missing_id():
    return (Table.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1000


def test_a_private_table_has_a_long_random_invite_token(private_table, players):
    other = services.create_table(players[1], "classic", 10, 6, False, private=True)
    assert private_table.private and len(private_table.invite_token) >= 43
    assert private_table.invite_token != other.invite_token
    public = services.create_table(players[2], "classic", 10, 6, False)
    assert not public.private and public.invite_token == ""


def test_the_page_of_a_private_table_is_the_404_of_a_table_that_does_not_exist(private_table, players):
    boris = players[1]
    _, hidden = page(boris, f"/tables/{private_table.pk}/")
    _, absent = page(boris, f"/tables/{missing_id()}/")
    assert hidden.status_code == absent.status_code == 404
    assert same_page(hidden) == same_page(absent)
    _, anonymous = page(None, f"/tables/{private_table.pk}/")
    assert anonymous.status_code == 404
    _, wrong = page(boris, f"/tables/{private_table.pk}/?invite={'x' * 43}")
    assert wrong.status_code == 404 and same_page(wrong) == same_page(absent)


def test_creator_and_staff_see_it_and_only_the_creator_sees_the_invite_link(private_table, players, staff):
    _, own = page(players[0], f"/tables/{private_table.pk}/")
    assert own.status_code == 200 and private_table.invite_token in own.content.decode()
    _, staffs = page(staff, f"/tables/{private_table.pk}/")
    assert staffs.status_code == 200 and private_table.invite_token not in staffs.content.decode()


def test_the_invite_link_lets_a_player_watch_and_sit(private_table, players):
    boris = players[1]
    with pytest.raises(services.DoorError) as refused:
        services.sit(private_table.pk, boris, 400)
    assert refused.value.code == "no_such_table"
    client, followed = page(boris, invite_path(private_table))
    assert followed.status_code == 302 and followed["Location"] == f"/tables/{private_table.pk}/"  # token off the bar
    assert client.get(f"/tables/{private_table.pk}/").status_code == 200
    assert TableGuest.objects.filter(table=private_table, user=boris).exists()
    services.sit(private_table.pk, boris, 400)


def test_the_door_refuses_exactly_as_for_a_missing_table(private_table, players):
    boris = players[1]
    with pytest.raises(services.DoorError) as hidden:
        services.act(private_table.pk, boris, {"kind": "sit", "amount": 400})
    with pytest.raises(services.DoorError) as absent:
        services.act(missing_id(), boris, {"kind": "sit", "amount": 400})
    assert hidden.value.code == absent.value.code == "no_such_table"
    assert re.sub(r"\d+", "N", hidden.value.message) == re.sub(r"\d+", "N", absent.value.message)
    with pytest.raises(services.DoorError) as stand:
        services.stand(private_table.pk, boris)
    assert stand.value.code == "no_such_table"  # not "not_seated": that would tell the table exists


def test_an_anonymous_visitor_with_the_link_may_watch_and_after_logging_in_sit(private_table, players):
    boris = players[1]
    client = Client()
    assert client.get(invite_path(private_table)).status_code == 302
    assert client.get(f"/tables/{private_table.pk}/").status_code == 200
    client.force_login(boris)  # the session's grant survives the login (Django keeps its data)
    assert client.get(f"/tables/{private_table.pk}/").status_code == 200
    services.sit(private_table.pk, boris, 400)


def test_revoking_ends_the_grant_of_those_not_seated_and_keeps_the_seated(private_table, players):
    ann, boris, vera = players
    boris_client, _ = page(boris, invite_path(private_table))
    vera_client, _ = page(vera, invite_path(private_table))
    old = invite_path(private_table)
    services.sit(private_table.pk, vera, 400)
    host = Client()
    host.force_login(ann)
    assert host.post(f"/tables/{private_table.pk}/invite/").status_code == 302
    private_table.refresh_from_db()
    assert invite_path(private_table) != old
    assert boris_client.get(f"/tables/{private_table.pk}/").status_code == 404
    assert boris_client.get(old).status_code == 404
    with pytest.raises(services.DoorError) as refused:
        services.sit(private_table.pk, boris, 400)
    assert refused.value.code == "no_such_table"
    assert vera_client.get(f"/tables/{private_table.pk}/").status_code == 200  # seated: she stays
    services.act(private_table.pk, vera, {"kind": "sit_out"})
    assert boris_client.get(invite_path(private_table)).status_code == 302  # the new link works


def test_only_the_creator_may_revoke(private_table, players, staff):
    boris_client, _ = page(players[1], invite_path(private_table))
    assert boris_client.post(f"/tables/{private_table.pk}/invite/").status_code == 404
    staff_client, _ = page(staff, "/")
    assert staff_client.post(f"/tables/{private_table.pk}/invite/").status_code == 404
    assert Table.objects.get(pk=private_table.pk).invite_token == private_table.invite_token


def test_the_lobby_lists_it_for_its_creator_and_staff_only(private_table, players, staff):
    public = services.create_table(players[1], "classic", 10, 6, False)
    ids = lambda user: [t["id"] for t in selectors.open_tables(user)]  # noqa: E731
    assert ids(None) == ids(players[1]) == [public.pk]
    assert ids(players[0]) == ids(staff) == [private_table.pk, public.pk]
    _, lobby = page(players[1])
    assert f"/tables/{private_table.pk}/" not in lobby.content.decode()
    _, own = page(players[0])
    assert f"/tables/{private_table.pk}/" in own.content.decode()


def test_quick_seat_and_play_against_bots_never_pick_a_private_table(private_table, players, staff):
    fund_bots(10_000, staff=staff)
    seat_bot(private_table, "easy", by_user=players[0])
    client, _ = page(players[1])
    quick = client.post("/quick-seat/", {})
    assert f"/tables/{private_table.pk}/" not in quick.get("Location", "")
    played = client.post("/play-bots/")
    assert played.status_code == 302 and played["Location"] != f"/tables/{private_table.pk}/"


def test_bots_sit_at_a_private_table_only_when_its_creator_seats_them(private_table, players, staff):
    fund_bots(10_000, staff=staff)
    with pytest.raises(BotError):
        seat_bot(private_table, "easy", by_user=staff)
    with pytest.raises(BotError):
        seat_bot(private_table, "easy")  # a bot table policy
    outsider, _ = page(players[1])
    assert outsider.post(f"/tables/{private_table.pk}/bots/", {"count": 1}).status_code == 404
    seat_bot(private_table, "easy", by_user=players[0])


def test_the_socket_of_a_private_table_answers_as_for_a_missing_table(private_table, players):
    boris = players[1]
    cookie = session_cookie(boris)
    absent_id = missing_id()

    async def scenario():
        answers = []
        for path in (f"/ws/tables/{private_table.pk}/", f"/ws/tables/{absent_id}/"):
            socket, _ = await open_socket(path, cookie)
            answers.append(await receive(socket))
            answers.append((await socket.receive_output(timeout=3))["code"])
            await socket.disconnect()
        anonymous, _ = await open_socket(f"/ws/tables/{private_table.pk}/")
        answers.append((await receive(anonymous))["code"])
        await anonymous.disconnect()
        return answers

    hidden, hidden_close, absent, absent_close, anonymous = async_to_sync(scenario)()
    assert hidden["code"] == absent["code"] == anonymous == "no_such_table"
    assert re.sub(r"\d+", "N", hidden["message"]) == re.sub(r"\d+", "N", absent["message"])
    assert hidden_close == absent_close == 4404


def test_the_socket_serves_a_guest_until_the_link_is_revoked(private_table, players):
    boris = players[1]
    boris.language = "ru"  # shown out in his own language (a group message, outside any message of his)
    boris.save(update_fields=["language"])
    client, _ = page(boris, invite_path(private_table))
    cookie = client.cookies["sessionid"].value

    async def scenario():
        socket, _ = await open_socket(f"/ws/tables/{private_table.pk}/", cookie)
        first = await receive(socket)
        await database_sync_to_async(access.renew_token)(private_table.pk, private_table.created_by)
        from tables.services.notify import access_changed

        await database_sync_to_async(access_changed)(private_table.pk)
        gone, _ = await receive_until(socket, lambda m: m.get("type") == "error")
        closed = await socket.receive_output(timeout=3)
        return first, gone, closed

    first, gone, closed = async_to_sync(scenario)()
    assert first["type"] == "snapshot" and first["table"]["private"] is True
    assert gone["code"] == "no_such_table" and closed["code"] == 4404
    assert gone["message"].startswith("Стола"), gone


def test_the_lobby_socket_tells_only_creator_and_staff_of_a_private_table(players, staff):
    ann, boris = players[0], players[1]
    cookies = [session_cookie(user) for user in (boris, ann, staff)]

    async def scenario():
        outsider, _ = await open_socket("/ws/lobby/", cookies[0])
        host, _ = await open_socket("/ws/lobby/", cookies[1])
        staffs, _ = await open_socket("/ws/lobby/", cookies[2])
        anonymous, _ = await open_socket("/ws/lobby/")
        for socket in (outsider, host, staffs, anonymous):
            await receive(socket)
        table = await database_sync_to_async(services.create_table)(ann, "classic", 10, 6, False, private=True)
        await database_sync_to_async(services.sit)(table.pk, ann, 400)
        await database_sync_to_async(services.stand)(table.pk, ann)
        await database_sync_to_async(services.close_table)(table.pk, staff)
        seen = {}
        for name, socket in (("host", host), ("staff", staffs), ("outsider", outsider), ("anonymous", anonymous)):
            seen[name] = await drain(socket, timeout=1.0)
            await socket.disconnect()
        return table.pk, seen

    table_id, seen = async_to_sync(scenario)()
    for name in ("host", "staff"):
        entries = [m for m in seen[name] if m["type"] == "lobby_table" and m["id"] == table_id]
        assert entries and entries[0]["table"]["private"] is True and entries[-1]["table"] is None, name
    for name in ("outsider", "anonymous"):
        assert not [m for m in seen[name] if m.get("id") == table_id], name
