"""What a socket reads when it opens (tables/consumers.py `_connect`), in plain SQL built once: the table's row, its
last chat lines, the running deal's events, who is offline (the door reads a closing deal's events here too). A
socket's opening spent two fifths of its daphne's time compiling these four small ORM queries (`bench live --idle`,
py-spy): the statements themselves are cheap. The rows become the models' values through the ORM's own converters
(tables/rows.py)."""

from __future__ import annotations

from functools import cache

import orjson
from django.contrib.auth import get_user_model

from . import rows
from .models import ChatLine, DealEvent, Presence, Table, TableSeat

q = rows.q


@cache
def _table_sql() -> str:
    return f"SELECT {rows.columns_of(Table)} FROM {q(Table._meta.db_table)} WHERE {q('id')} = %s"


def table_row(table_id: int) -> Table | None:
    """The table's row as committed (no lock), or None."""
    db = rows.db()
    with db.cursor() as cursor:
        cursor.execute(_table_sql(), [table_id])
        row = cursor.fetchone()
    return None if row is None else rows.instance(db, Table, row)


@cache
def _chat_sql() -> str:
    return (f"SELECT {rows.columns_of(ChatLine)} FROM {q(ChatLine._meta.db_table)} WHERE {q('table_id')} = %s "
            f"ORDER BY {q('id')} DESC LIMIT %s")  # fmt: skip


def last_chat_lines(table_id: int, count: int) -> list[ChatLine]:
    """The table's last `count` chat lines, oldest first."""
    db = rows.db()
    with db.cursor() as cursor:
        cursor.execute(_chat_sql(), [table_id, count])
        found = cursor.fetchall()
    return [rows.instance(db, ChatLine, row) for row in reversed(found)]


@cache
def _events_sql(of_svara: bool, up_to_version: bool) -> str:
    where = f"{q('table_id')} = %s AND {q('deal_number')} = %s"
    if of_svara:
        where += f" AND {q('svara')} = %s"
    if up_to_version:
        where += f" AND {q('version')} <= %s"
    order = f"{q('version')}, {q('index')}"
    return f"SELECT {q('event')} FROM {q(DealEvent._meta.db_table)} WHERE {where} ORDER BY {order}"


def deal_events_statement(table_id: int, deal_no: int, svara: int) -> tuple[str, list]:
    """`deal_events(…, svara=svara)` as a statement (its text and parameters), for a caller that runs it on a
    connection of its own (an event loop's: tables/services/optimistic.py); `event_of` reads each row's value."""
    return _events_sql(True, False), [table_id, deal_no, svara]


def event_of(value) -> dict:
    """A stored event as a JSON value, whether the connection's loader gave the column's text or its value."""
    return orjson.loads(value) if isinstance(value, (str, bytes)) else value


def deal_events(table_id: int, deal_no: int, *, svara: int | None = None,
                up_to_version: int | None = None) -> list[dict]:
    """The events stored for a deal, in order, as JSON values: its svaras too, or only the one `svara` (0: the deal
    itself), up to `up_to_version` if given."""
    params = [table_id, deal_no] + [v for v in (svara, up_to_version) if v is not None]
    db = rows.db()
    with db.cursor() as cursor:
        cursor.execute(_events_sql(svara is not None, up_to_version is not None), params)
        return [rows.from_db(db, DealEvent, "event", event) for (event,) in cursor.fetchall()]


@cache
def _offline_sql() -> str:
    seats, users, presence = (q(m._meta.db_table) for m in (TableSeat, get_user_model(), Presence))
    return (
        f"SELECT {seats}.{q('user_id')} FROM {seats} JOIN {users} ON {users}.{q('id')} = {seats}.{q('user_id')} "
        f"WHERE {seats}.{q('table_id')} = %s AND NOT {users}.{q('is_bot')} AND NOT EXISTS (SELECT 1 FROM {presence} "
        f"WHERE {presence}.{q('table_id')} = {seats}.{q('table_id')} AND {presence}.{q('user_id')} = "
        f"{seats}.{q('user_id')} AND {presence}.{q('connections')} > 0)"
    )


def offline_at(table_id: int) -> list[str]:
    """The player ids (as the engine names them) of the humans seated at the table with no open connection."""
    with rows.db().cursor() as cursor:
        cursor.execute(_offline_sql(), [table_id])
        return sorted(str(user_id) for (user_id,) in cursor.fetchall())
