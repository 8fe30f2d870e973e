"""Issue 11, defects 1 and 4: a socket whose Redis is unreachable or drops tells its client (`unavailable`, then a
close with 4503: try again) and releases the player's presence (the consumer used to die silently: 1011 with no
error frame, and the presence leaked)."""

import shutil

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from bench.live_stack import free_port
from tables import services
from tables.models import Presence
from tests.tables.sockets import open_socket, receive, session_cookie

from .redis_server import start_redis

pytestmark = pytest.mark.django_db(transaction=True)


def layer_at(port: int) -> dict:
    return {"default": {"BACKEND": "config.channel_layer.RedisPubSubChannelLayer",
                        "CONFIG": {"hosts": [f"redis://127.0.0.1:{port}/0"]}}}


@pytest.fixture
def own_redis():
    """A Redis server of this test's own, on a spare port, that the test may kill."""
    if shutil.which("redis-server") is None:
        pytest.skip("needs redis-server")
    port = free_port()
    process = start_redis(port)
    yield port, process
    process.kill()
    process.wait()


async def until_closed(socket, timeout=15):
    """Every frame the server sends until its close; returns (texts, close code)."""
    texts = []
    while True:
        output = await socket.receive_output(timeout=timeout)
        if output["type"] == "websocket.close":
            return texts, output.get("code")
        texts.append(output.get("text"))


def test_a_daphne_that_cannot_reach_redis_says_unavailable_before_closing(classic_table, players, settings):
    settings.CHANNEL_LAYERS = layer_at(free_port())  # nothing listens there
    services.sit(classic_table.pk, players[0], 400, seat=0)
    cookie = session_cookie(players[0])

    async def scenario():
        socket, connected = await open_socket(f"/ws/tables/{classic_table.pk}/", cookie)
        assert connected
        return await until_closed(socket)

    texts, code = async_to_sync(scenario)()
    assert code == 4503
    assert len(texts) == 1 and '"code":"unavailable"' in texts[0]
    assert Presence.objects.filter(table=classic_table, user=players[0], connections__gt=0).count() == 0


def test_a_redis_drop_under_an_open_table_socket_releases_the_presence_D_offline_S9(
    classic_table, players, settings, own_redis
):
    port, server = own_redis
    settings.CHANNEL_LAYERS = layer_at(port)
    services.sit(classic_table.pk, players[0], 400, seat=0)
    cookie = session_cookie(players[0])

    async def scenario():
        socket, connected = await open_socket(f"/ws/tables/{classic_table.pk}/", cookie)
        assert connected
        first = await receive(socket)
        counted = await database_sync_to_async(
            lambda: Presence.objects.get(table=classic_table, user=players[0]).connections
        )()
        server.kill()  # Redis goes away under the consumer's channel-layer receive
        texts, code = await until_closed(socket)
        return first, counted, texts, code

    first, counted, texts, code = async_to_sync(scenario)()
    assert first["type"] == "snapshot" and counted == 1
    assert code == 4503 and any('"code":"unavailable"' in t for t in texts)
    assert Presence.objects.get(table=classic_table, user=players[0]).connections == 0


def test_a_redis_drop_under_a_lobby_socket_ends_it_with_an_error_frame(db, settings, own_redis):
    port, server = own_redis
    settings.CHANNEL_LAYERS = layer_at(port)

    async def scenario():
        socket, connected = await open_socket("/ws/lobby/")
        assert connected
        await receive(socket)
        server.kill()
        return await until_closed(socket)

    texts, code = async_to_sync(scenario)()
    assert code == 4503 and any('"code":"unavailable"' in t for t in texts)


@pytest.mark.parametrize("frame", ["[" * 1000 + "]" * 1000, '{"type": ' + "[" * 5000, "x" * 100_000])
def test_a_hostile_lobby_frame_gets_bad_json_and_the_socket_lives_on(db, frame):
    async def scenario():
        socket, _ = await open_socket("/ws/lobby/")
        await receive(socket)
        await socket.send_to(text_data=frame)
        refused = await receive(socket)
        await socket.send_json_to({"type": "ping", "id": "p"})
        pong = await receive(socket)
        await socket.disconnect()
        return refused, pong

    refused, pong = async_to_sync(scenario)()
    assert refused["code"] == "bad_json" and pong == {"type": "pong", "id": "p"}
