"""The door's three statements of every action, in plain SQL built once per database: locking the table's row
(with a repeated message's stored reply), writing its state back, and appending the action's deal events.

They run on every table action, where compiling the ORM's query cost more than the statement itself (see
docs/benchmarks.md, `bench door`). The rows are still the models' rows: the locked row comes back as a `Table`
through the same converters the ORM applies, and every value written goes through its field's own preparation.
"""

from __future__ import annotations

from functools import cache

from django.db import connection

from ..models import ClientMessage, DealEvent, Table

_STATE_FIELDS = ("state", "version", "clock_kind", "clock_seats", "clock_deadline", "empty_since")
_EVENT_FIELDS = ("table", "deal_number", "version", "index", "event")


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


@cache
def _table_fields():
    return tuple(Table._meta.concrete_fields)


@cache
def _lock_sql(vendor: str, with_reply: bool) -> str:
    table = _q(Table._meta.db_table)
    columns = ", ".join(f"{table}.{_q(f.column)}" for f in _table_fields())
    if with_reply:
        replies = _q(ClientMessage._meta.db_table)
        columns += (
            f", (SELECT {_q('response')} FROM {replies} WHERE {replies}.{_q('table_id')} = {table}.{_q('id')} "
            f"AND {_q('user_id')} = %s AND {_q('client_id')} = %s LIMIT 1)"
        )
    sql = f"SELECT {columns} FROM {table} WHERE {table}.{_q('id')} = %s"
    if connection.features.has_select_for_update:  # not SQLite, where a writer locks the whole database
        sql += f" FOR UPDATE OF {table}"
    return sql


@cache
def _converters(vendor: str, model, name: str):
    """What the ORM does to a value read from this column on this database (e.g. JSON text to a value)."""
    field = model._meta.get_field(name)
    column = field.get_col(model._meta.db_table)
    converters = connection.ops.get_db_converters(column) + field.get_db_converters(connection)
    return [(convert, column) for convert in converters]


def _from_db(model, name: str, value):
    for convert, column in _converters(connection.vendor, model, name):
        value = convert(value, column, connection)
    return value


def lock_row(table_id: int, reply_to: tuple[int, str] | None) -> Table | None:
    """The table's row locked until the transaction ends (None if there is none); with `reply_to` (user id, client
    id) the same statement reads the stored reply to that message into `table.stored_reply` (None if none)."""
    params = [] if reply_to is None else list(reply_to)
    with connection.cursor() as cursor:
        cursor.execute(_lock_sql(connection.vendor, reply_to is not None), [*params, table_id])
        row = cursor.fetchone()
    if row is None:
        return None
    fields = _table_fields()
    values = [_from_db(Table, f.name, v) for f, v in zip(fields, row, strict=False)]
    table = Table.from_db(connection.alias, [f.attname for f in fields], values)
    if reply_to is not None:
        stored = row[len(fields)]
        table.stored_reply = None if stored is None else _from_db(ClientMessage, "response", stored)
    return table


@cache
def _write_state_sql(vendor: str) -> str:
    fields = [Table._meta.get_field(name) for name in _STATE_FIELDS]
    assignments = ", ".join(f"{_q(f.column)} = %s" for f in fields)
    return f"UPDATE {_q(Table._meta.db_table)} SET {assignments} WHERE {_q('id')} = %s"


def write_state(table: Table) -> None:
    """Write the table's state, version, clock and emptiness back to its (locked) row."""
    values = [Table._meta.get_field(name).get_db_prep_save(getattr(table, name), connection) for name in _STATE_FIELDS]
    with connection.cursor() as cursor:
        cursor.execute(_write_state_sql(connection.vendor), [*values, table.pk])


@cache
def _append_events_sql(vendor: str, rows: int) -> str:
    fields = [DealEvent._meta.get_field(name) for name in _EVENT_FIELDS]
    row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    columns = ", ".join(_q(f.column) for f in fields)
    return f"INSERT INTO {_q(DealEvent._meta.db_table)} ({columns}) VALUES {', '.join([row] * rows)}"


def append_events(rows: list[DealEvent]) -> None:
    """Insert an action's deal events (one statement)."""
    fields = [DealEvent._meta.get_field(name) for name in _EVENT_FIELDS]
    params = [f.get_db_prep_save(getattr(row, f.attname), connection) for row in rows for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(_append_events_sql(connection.vendor, len(rows)), params)
