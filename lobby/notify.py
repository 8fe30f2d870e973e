"""The lobby's group: after a table is created, closed or its seats change, every lobby socket hears that one
table's entry (not the whole list: one query a change, and a message the size of one table).

The entry carries the table's version, so a socket keeps the newest when two messages of one table cross on the
way; `table: null` means the table closed (it never comes back). A private table's entry (open or closed) reaches only
the sockets of its creator and of staff (tables/access.py)."""

from __future__ import annotations

LOBBY_GROUP = "lobby"


def table_changed(table_id: int) -> None:
    """Send the table's entry as read now (after the change committed)."""
    from tables.selectors import lobby_entry
    from tables.services.notify import group_send

    found = lobby_entry(table_id)
    # A private table's entry names who may hear of it; each lobby socket drops what its viewer may not see.
    group_send(LOBBY_GROUP, {"type": "lobby.table", "id": table_id, "version": found.version, "table": found.entry,
                             "private": found.private, "creator": found.creator_id})  # fmt: skip
