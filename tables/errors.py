"""The one refusal: a message or a change that was not made. Nothing changed."""

from django.utils.translation import gettext_lazy as _

from config.said import said  # noqa: F401 - the door's refusals say their words with it


class DoorError(Exception):
    """A refused message or change. `code` is the protocol's error code (docs/protocol.md), stable in every
    language; `said` says why, a lazy text (config/said.py), and `message` is it in the reader's language."""

    def __init__(self, code: str, message):
        super().__init__(message)
        self.code = code
        self.said = message  # kept lazy: whoever reads it turns it into words

    @property
    def message(self) -> str:
        """The words in the language active where they are read (the consumer speaks its viewer's)."""
        return str(self.said)


def is_outage(fault: BaseException) -> bool:
    """The fault is a server the platform needs (PostgreSQL, Redis) out of reach, not a bug: the client is told
    `unavailable` and may try again in a moment."""
    import psycopg
    from django.db import InterfaceError, OperationalError
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    return isinstance(fault, (OperationalError, InterfaceError, psycopg.OperationalError, psycopg.InterfaceError,
                              RedisConnectionError, RedisTimeoutError, ConnectionError))


def in_one_line(fault: BaseException) -> str:
    """A fault told in a log line of its own: its message's first line, or its kind when it has none (an outage
    or an ordinary race needs no traceback)."""
    lines = str(fault).strip().splitlines()
    return lines[0] if lines else type(fault).__name__


UNAVAILABLE = _("The server cannot reach its database or its message bus right now; nothing was changed. "
                "Reconnect in a moment.")
# The close code after `unavailable`: an application code (daphne's autobahn sends only 1000 and 3000-4999, so
# the registry's 1013 "try again later" would itself fail and end as 1011); 4503 after HTTP's 503, like 4404.
CLOSE_UNAVAILABLE = 4503


def unavailable(message_id=None) -> dict:
    """The error frame of an outage (docs/protocol.md, `unavailable`)."""
    return {"type": "error", "code": "unavailable", "message": str(UNAVAILABLE), "id": message_id}
