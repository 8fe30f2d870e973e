"""Driving the real ASGI application (origin check, session auth, routing) in-process with WebsocketCommunicator."""

import json

from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application

ORIGIN = b"http://127.0.0.1"


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


async def open_socket(path: str, sessionid: str | None = None, origin: bytes = ORIGIN):
    headers = [(b"origin", origin), (b"host", b"127.0.0.1")]
    if sessionid:
        headers.append((b"cookie", f"sessionid={sessionid}".encode()))
    socket = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await socket.connect()
    return socket, connected


async def receive(socket, timeout: float = 3, presence: bool = False):
    """The next message; a `presence` one (a seated player came or went) only when asked for."""
    while True:
        message = json.loads(await socket.receive_from(timeout=timeout))
        if presence or message.get("type") != "presence":
            return message


async def receive_until(socket, predicate, timeout: float = 3):
    """Messages until one matches; returns (match, everything received on the way)."""
    seen = []
    while True:
        message = await receive(socket, timeout, presence=True)
        seen.append(message)
        if predicate(message):
            return message, seen


async def drain(socket, timeout: float = 0.3):
    seen = []
    while not await socket.receive_nothing(timeout=timeout):
        seen.append(json.loads(await socket.receive_from()))
    return seen
