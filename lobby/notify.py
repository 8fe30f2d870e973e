"""The lobby's group: every lobby socket hears the whole list of open tables after a seat change.

The list is read once, here, and carried by the group message, so a change costs one query, not one per socket."""

from __future__ import annotations

import time

LOBBY_GROUP = "lobby"


def tables_changed() -> None:
    """Send the list as read now; `read_at` lets a socket keep the newest when two lists cross on the way."""
    from tables.selectors import open_tables
    from tables.services.notify import group_send

    read_at = time.time()
    group_send(LOBBY_GROUP, {"type": "lobby.changed", "tables": open_tables(), "read_at": read_at})
