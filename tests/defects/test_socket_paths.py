"""Issue 11, defect 2: a socket path anyone can type gets a clear answer, never a router traceback."""

import logging

import pytest
from asgiref.sync import async_to_sync

from tests.tables.sockets import open_socket, receive

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("path", ["/ws/tables/abc/", "/ws/tables/-1/", "/ws/tables/0/", "/ws/tables/9" * 1 + "9" * 30 + "/",
                                  "/ws/tables/1%00/"])
def test_a_bad_table_id_in_the_path_is_no_such_table_then_the_socket_closes(db, path, caplog):
    async def scenario():
        socket, connected = await open_socket(path)
        assert connected
        answer = await receive(socket)
        closed = await socket.receive_output(timeout=2)
        return answer, closed

    with caplog.at_level(logging.WARNING):
        answer, closed = async_to_sync(scenario)()
    assert answer["type"] == "error" and answer["code"] == "no_such_table"
    assert closed == {"type": "websocket.close", "code": 4404}
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize("path", ["/ws/nope/", "/ws/", "/ws/lobby/x/", "/anything"])
def test_an_unknown_socket_path_is_refused_at_the_handshake(db, path, caplog):
    async def scenario():
        return await open_socket(path)

    with caplog.at_level(logging.WARNING):
        _, connected = async_to_sync(scenario)()
    assert connected is False
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
