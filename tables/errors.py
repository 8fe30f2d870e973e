"""The one refusal: a message or a change that was not made. Nothing changed."""


class DoorError(Exception):
    """A refused message or change. `code` is the protocol's error code (docs/protocol.md), `message` says why."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def is_outage(fault: BaseException) -> bool:
    """The fault is a server the platform needs (PostgreSQL, Redis) out of reach, not a bug: the client is told
    `unavailable` and may try again in a moment."""
    import psycopg
    from django.db import InterfaceError, OperationalError
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    return isinstance(fault, (OperationalError, InterfaceError, psycopg.OperationalError, psycopg.InterfaceError,
                              RedisConnectionError, RedisTimeoutError, ConnectionError))


UNAVAILABLE = "The server cannot reach its database or its message bus right now; nothing was changed. " \
              "Reconnect in a moment."
TRY_AGAIN_LATER = 1013  # WebSocket close code (IANA registry): the server cannot serve now, come back later


def unavailable(message_id=None) -> dict:
    """The error frame of an outage (docs/protocol.md, `unavailable`)."""
    return {"type": "error", "code": "unavailable", "message": UNAVAILABLE, "id": message_id}
