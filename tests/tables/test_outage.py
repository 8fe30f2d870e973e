"""A socket the platform cannot serve is told so: while PostgreSQL or Redis is out of reach, a client gets the
error `unavailable` and a close with 4503 (try again later), never a bare 1011 it cannot tell from a bug; and
a socket Redis dropped gives its presence back. Found by the fault drill (drills/faults.py, docs/reliability.md).

The outages are real: the database settings point at a port nothing listens on, and a real redis-server is
killed under an open socket."""

import copy
import shutil
import socket as sockets
import subprocess
import time
from contextlib import ExitStack, contextmanager

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.db import connection

from tables import services
from tables.db_threads import give_back_every_connection
from tables.models import Presence

from .sockets import open_socket, receive, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


def free_port() -> int:
    with sockets.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def database_away():
    """Every new connection (and a new pool) goes to a port nothing listens on (SQLite: a file that cannot be)."""
    settings = connection.settings_dict
    saved = copy.deepcopy(settings)
    if connection.vendor == "postgresql":
        settings["HOST"], settings["PORT"] = "127.0.0.1", str(free_port())
        pool = settings.get("OPTIONS", {}).get("pool")
        if isinstance(pool, dict):
            pool["timeout"] = 0.5
        connection.close_pool()
    else:
        settings["NAME"] = "/nonexistent-svara-dir/db.sqlite3"
    connection.close()
    give_back_every_connection()  # the door's and reads' threads keep theirs from earlier tests (db_threads.py)
    try:
        yield
    finally:
        settings.clear()
        settings.update(saved)
        if connection.vendor == "postgresql":
            connection.close_pool()
        connection.close()


async def told(socket):
    """The frame and the close a socket got."""
    frame = await receive(socket)
    closing = await socket.receive_output(timeout=5)
    return frame, closing


def test_a_spectator_connecting_while_the_database_is_away_is_told_unavailable(classic_table):
    async def scenario():
        socket, connected = await open_socket(f"/ws/tables/{classic_table.pk}/")
        return connected, *(await told(socket))

    with database_away():
        connected, frame, closing = async_to_sync(scenario)()
    assert connected
    assert frame["type"] == "error" and frame["code"] == "unavailable"
    assert closing == {"type": "websocket.close", "code": 4503}


def test_a_player_connecting_while_the_database_is_away_is_told_unavailable(classic_table, players):
    """His session is looked up before any consumer runs: the fault escaped the application (daphne's bare 1011)."""
    services.sit(classic_table.pk, players[0], 400, seat=0)
    cookie = session_cookie(players[0])

    async def scenario():
        socket, connected = await open_socket(f"/ws/tables/{classic_table.pk}/", cookie)
        return connected, *(await told(socket))

    with database_away():
        connected, frame, closing = async_to_sync(scenario)()
    assert connected
    assert frame["type"] == "error" and frame["code"] == "unavailable"
    assert closing == {"type": "websocket.close", "code": 4503}


def test_a_move_while_the_database_is_away_is_answered_unavailable_and_changes_nothing(classic_table, players):
    services.sit(classic_table.pk, players[0], 400, seat=0)
    cookie = session_cookie(players[0])
    version = classic_table.__class__.objects.get(pk=classic_table.pk).version

    async def scenario():
        socket, _ = await open_socket(f"/ws/tables/{classic_table.pk}/", cookie)
        await receive(socket)  # the snapshot
        away = ExitStack()
        await sync_to_async(away.enter_context)(database_away())
        try:
            await socket.send_json_to({"type": "sit_out", "id": "m1"})
            answer = await receive(socket)
        finally:
            await sync_to_async(away.close)()
        await socket.disconnect()
        return answer

    answer = async_to_sync(scenario)()
    assert answer["type"] == "error" and answer["code"] == "unavailable" and answer["id"] == "m1"
    assert classic_table.__class__.objects.get(pk=classic_table.pk).version == version


@pytest.fixture
def own_redis(settings):
    """A redis-server of this test's own, as the channel layer; `kill()` ends it."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed")
    port = free_port()
    process = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
                                "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while True:
        try:
            sockets.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                raise
            time.sleep(0.05)
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "config.channel_layer.RedisPubSubChannelLayer",
                                           "CONFIG": {"hosts": [f"redis://127.0.0.1:{port}/0"]}}}
    try:
        yield process
    finally:
        process.kill()
        process.wait()


def test_a_socket_redis_dropped_is_told_unavailable_and_gives_its_presence_back(classic_table, players, own_redis):
    services.sit(classic_table.pk, players[0], 400, seat=0)
    cookie = session_cookie(players[0])

    async def scenario():
        socket, _ = await open_socket(f"/ws/tables/{classic_table.pk}/", cookie)
        snapshot = await receive(socket)
        own_redis.kill()
        own_redis.wait()
        return snapshot, *(await told(socket))

    snapshot, frame, closing = async_to_sync(scenario)()
    assert snapshot["type"] == "snapshot" and snapshot["seat"] == 0
    assert frame["type"] == "error" and frame["code"] == "unavailable"
    assert closing == {"type": "websocket.close", "code": 4503}
    # The heartbeat stopped with it: a dead connection must not keep the player "online" (RULES §9).
    assert Presence.objects.get(table=classic_table, user=players[0]).connections == 0
