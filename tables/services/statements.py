"""The door's statements of every action, in plain SQL built once per database: locking the table's row (with a
repeated message's stored reply), and writing what the action changed (the chips it moved, its deal events, the
table's state, the reply to its message id) as one statement on PostgreSQL; and a hand history's deal rows as it
opens (the deal and its players) and as it closes (its pot and winners, its players' results), one statement each
on PostgreSQL.

They run on every table action, where compiling the ORM's query cost more than the statement itself (see
docs/benchmarks.md, `bench door`). The rows are still the models' rows: the locked row comes back as a `Table`
through the same converters the ORM applies, and every value written goes through its field's own preparation,
but for the rows that travel as one JSON text (the transfers, the events, a deal's players and their results),
whose values are plain.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import orjson
from django.db import connection

from config import json_rows
from wallet.batch import ACCOUNT_COLUMNS, Batch, held
from wallet.models import LedgerAccount

from .. import rows
from ..models import ClientMessage, Deal, DealEvent, DealSeat, Table, TableSeat

_STATE_FIELDS = ("state", "version", "clock_kind", "clock_seats", "clock_deadline", "empty_since")
_EVENT_FIELDS = ("table", "deal_number", "svara", "version", "index", "event")
_REPLY_FIELDS = ("table", "user", "client_id", "response", "created_at")

q = rows.q


def _stored_reply_sql() -> str:
    """`FROM <replies> WHERE …`: the reply stored for the table row at hand, a user and a message id (two %s)."""
    replies, table = q(ClientMessage._meta.db_table), q(Table._meta.db_table)
    return (f"FROM {replies} WHERE {replies}.{q('table_id')} = {table}.{q('id')} "
            f"AND {q('user_id')} = %s AND {q('client_id')} = %s")  # fmt: skip


@cache
def _lock_sql(vendor: str, with_reply: bool) -> str:
    table = q(Table._meta.db_table)
    columns = rows.columns_of(Table)
    if with_reply:
        columns += f", (SELECT {q('response')} {_stored_reply_sql()} LIMIT 1)"
    sql = f"SELECT {columns} FROM {table} WHERE {table}.{q('id')} = %s"
    if not connection.features.has_select_for_update:  # SQLite, where a writer locks the whole database
        return sql
    # PostgreSQL: then, in the same statement, the ledger accounts of the table's pot, of its house account (the
    # rake) and of its seated players' stacks (tables_tableseat), locked in primary-key order, with their balances:
    # a bet, an ante, a pay-out or the rake moves chips between those only and needs no locking statement of its own
    # (wallet/batch.py `held`). The row is locked first (`locked` is read before `accounts`), and a table's pot,
    # house account and stacks are locked by nobody but a holder of its row, so taking them before the other
    # accounts an action moves cannot close a cycle of waits. Each arm names its account by the unique partial index
    # that holds it (the pot and the house account by table, a stack by player and table), so the ledger's size does
    # not matter: an `IN` under the `OR` scanned every stack account ever opened.
    accounts, seats = q(LedgerAccount._meta.db_table), q(TableSeat._meta.db_table)
    account_columns = ", ".join(q(column) for column in ACCOUNT_COLUMNS)  # as `held` reads them
    here = f"{q('table_id')} = (SELECT {q('id')} FROM locked)"
    return (
        f"WITH locked AS ({sql} FOR UPDATE OF {table}), "
        f"accounts AS (SELECT {account_columns} FROM {accounts} WHERE ({q('kind')} = 'pot' AND {here}) "
        f"OR ({q('kind')} = 'house' AND {here}) "
        f"OR ({q('kind')} = 'stack' AND {here} AND {q('user_id')} = ANY(ARRAY(SELECT {q('user_id')} FROM {seats} "
        f"WHERE {here}))) ORDER BY {q('id')} FOR UPDATE) "
        f"SELECT locked.*, (SELECT json_agg(json_build_array({account_columns}) ORDER BY {q('id')}) FROM accounts) FROM locked"
    )


def lock_row(table_id: int, reply_to: tuple[int, str] | None) -> Table | None:
    """The table's row locked until the transaction ends (None if there is none); with `reply_to` (user id, client
    id) the same statement reads the stored reply to that message into `table.stored_reply` (None if none). On
    PostgreSQL it also locks the table's pot, house account and seated stacks: `table.ledger_accounts`
    (wallet.batch.held)."""
    params = [] if reply_to is None else list(reply_to)
    db = rows.db()
    with db.cursor() as cursor:
        cursor.execute(_lock_sql(db.vendor, reply_to is not None), [*params, table_id])
        row = cursor.fetchone()
    if row is None:
        return None
    table = rows.instance(db, Table, row)
    if reply_to is not None:
        stored = row[len(rows.fields_of(Table))]
        table.stored_reply = None if stored is None else rows.from_db(db, ClientMessage, "response", stored)
    if db.features.has_select_for_update:
        table.ledger_accounts = held(row[-1] or ())
    return table


@cache
def _state_sql() -> str:
    fields = [Table._meta.get_field(name) for name in _STATE_FIELDS]
    assignments = ", ".join(f"{q(f.column)} = %s" for f in fields)
    return f"UPDATE {q(Table._meta.db_table)} SET {assignments} WHERE {q('id')} = %s"


def _state_params(db, table: Table) -> list:
    fields = [Table._meta.get_field(name) for name in _STATE_FIELDS]
    return [*(f.get_db_prep_save(getattr(table, f.attname), db) for f in fields), table.pk]


@cache
def _events_sql(count: int) -> str:
    """SQLite: the events' insert, one VALUES row each."""
    fields = _event_fields()
    row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    columns = ", ".join(q(f.column) for f in fields)
    return f"INSERT INTO {q(DealEvent._meta.db_table)} ({columns}) VALUES {', '.join([row] * count)}"


def _events_params(db, events: list[DealEvent]) -> list:
    fields = _event_fields()
    return [f.get_db_prep_save(getattr(row, f.attname), db) for row in events for f in fields]


@cache
def _events_json_sql() -> str:
    """PostgreSQL: the events' insert from one JSON text (config/json_rows.py): one statement text for any number."""
    return json_rows.insert_sql(DealEvent, _event_fields(), "event_rows")


@cache
def _event_fields() -> tuple:
    return tuple(DealEvent._meta.get_field(name) for name in _EVENT_FIELDS)


@cache
def _reply_insert() -> str:
    """`INSERT INTO <replies> (<columns>)`, for a row of `_reply_params`' values."""
    columns = ", ".join(q(ClientMessage._meta.get_field(name).column) for name in _REPLY_FIELDS)
    return f"INSERT INTO {q(ClientMessage._meta.db_table)} ({columns})"


@cache
def _reply_sql() -> str:
    return f"{_reply_insert()} VALUES ({', '.join(['%s'] * len(_REPLY_FIELDS))}) ON CONFLICT DO NOTHING RETURNING {q('id')}"


def _reply_params(db, reply: ClientMessage) -> list:
    fields = [ClientMessage._meta.get_field(name) for name in _REPLY_FIELDS]
    return [f.get_db_prep_save(getattr(reply, f.attname), db) for f in fields]


@cache
def _action_sql(events: bool, reply: bool, ledger: tuple[str, ...]) -> str:
    """PostgreSQL: the action's writes as one statement: the ledger batch's (wallet.batch.Batch.parts), the events
    and the state in data-modifying WITHs; with a ledger batch it returns how many transfers went in."""
    parts = list(ledger)
    if events:
        parts.append(f"events AS ({_events_json_sql()})")
    if reply:
        parts.append(f"state AS ({_state_sql()})")
        last = _reply_sql() + (f", {Batch.WRITTEN}" if ledger else "")
    else:
        last = _state_sql() + (f" RETURNING {Batch.WRITTEN}" if ledger else "")
    return (f"WITH {', '.join(parts)} " if parts else "") + last


def write_action(table: Table, events: list[DealEvent], reply: ClientMessage | None, batch: Batch | None = None) -> bool:
    """Write what one action changed: the chips it moved (`batch`, checked under its accounts' locks, unless
    already written), its deal events, the table's state, version, clock and emptiness (its row is locked), and
    the reply to its message id. One statement on PostgreSQL; on SQLite (no data-modifying WITH) one per part.
    False when the message id was answered meanwhile: then no reply was stored, and the caller's transaction must
    not stand. A batch refused as it is written (a key already used) raises WalletError and rolls the caller's
    transaction back."""
    db = rows.db()
    ledger = batch is not None and batch.pending
    with db.cursor() as cursor:
        if db.vendor == "postgresql":
            parts, params = batch.parts() if ledger else ([], [])
            if events:
                params.append(json_rows.dumps(events, _event_fields()))
            params += _state_params(db, table)
            if reply is not None:
                params += _reply_params(db, reply)
            cursor.execute(_action_sql(bool(events), reply is not None, tuple(parts)), params)
            if not ledger:
                return reply is None or cursor.fetchone() is not None
            row = cursor.fetchone()
            if row is None:  # only the reply's insert returns no row: its id was answered meanwhile
                assert reply is not None, "the locked table's update returns its row"
                return False
            batch.written(row[-1])
            return True
        if ledger:
            batch.write()
        if events:
            cursor.execute(_events_sql(len(events)), _events_params(db, events))
        cursor.execute(_state_sql(), _state_params(db, table))
        if reply is not None:
            cursor.execute(_reply_sql(), _reply_params(db, reply))
        return reply is None or cursor.fetchone() is not None


# --- a move without the row's lock (optimistic.py) ---

_GUARD = "EXISTS (SELECT 1 FROM guard)"


@cache
def _unlocked_sql(events: bool, reply: bool, accounts: bool, ledger: tuple[str, ...], opening: bool = False,
                  closing: tuple[str, ...] | None = None) -> str:  # fmt: skip
    """PostgreSQL: one statement, its own transaction: `guard` writes the table's new state only if the row still
    holds the version and the very text the move was played on, the table is open, and each account the batch
    names is the one it is taken for; every other write (`ledger`: the batch's parts under `_GUARD`, the events,
    the reply) happens only if `guard` did. It returns whether it did. A message id already answered writes
    nothing, and the locked way finds the stored reply; the same id twice at once fails the whole statement on the
    reply's unique key (no ON CONFLICT here), as a transfer key or an event already written would. With `opening`,
    the deal the action starts gets its row and its players' (under `guard` too); with `closing` (the fields of the
    deal's row it sets), the deal the action ends is closed with its players' results (under `guard` too)."""
    table = q(Table._meta.db_table)
    # The row is found by its key whatever the statistics say: compared as one row, the version, the text and the
    # status are no index's condition. As four conditions, a table without statistics yet (a new deployment's, a
    # bench's) got a generic plan that took the status index and read every open table's row on every move.
    conditions = [f"{q('id')} = %s",
                  f"({q('version')}, {q('state')}, {q('status')}) IS NOT DISTINCT FROM (%s, %s, %s)"]  # fmt: skip
    if accounts:
        # Each account by its key (a scalar subquery is never made a join): as a join with the JSON rows, estimated
        # at a hundred, PostgreSQL scanned the whole ledger's accounts for the table's few.
        ledger_accounts = q(LedgerAccount._meta.db_table)
        conditions.append(
            f"(SELECT count(*) FROM json_to_recordset(%s::json) AS r(id bigint, kind text, user_id bigint) "
            f"WHERE (SELECT (a.{q('kind')}, a.{q('table_id')}, a.{q('user_id')}) IS NOT DISTINCT FROM "
            f"(r.kind, %s, r.user_id) FROM {ledger_accounts} AS a WHERE a.{q('id')} = r.id)) = %s"
        )
    if reply:
        # An id answered before writes nothing, quietly; the reply's unique key stays the backstop for two at once.
        conditions.append(f"NOT EXISTS (SELECT 1 {_stored_reply_sql()})")
    update = _state_sql().removesuffix(f" WHERE {q('id')} = %s")
    parts = [f"guard AS ({update} WHERE {' AND '.join(conditions)} RETURNING {table}.{q('id')})", *ledger]
    if events:
        parts.append(f"events AS ({_events_json_sql()} WHERE {_GUARD})")
    if opening:
        parts += _open_parts(only_if=_GUARD)
    if closing is not None:
        parts += _close_parts(closing, only_if=_GUARD)
    if reply:
        parts.append(f"reply AS ({_reply_insert()} SELECT {', '.join(['%s'] * len(_REPLY_FIELDS))} WHERE {_GUARD})")
    return f"WITH {', '.join(parts)} SELECT count(*) FROM guard"


def unlocked_statement(table: Table, played_on: tuple[int, str], events: list[DealEvent], reply: ClientMessage | None,
                       batch: Batch | None, accounts: list[tuple[int, str, int | None]],
                       opening: Opening | None = None, closing: Closing | None = None) -> tuple[str, list]:  # fmt: skip
    """PostgreSQL: the statement (its text and parameters) that writes one action's changes (as `write_action`) as
    its own transaction, unless the table's row has moved on from `played_on` (the version and stored text it was
    played on) meanwhile, the table has closed, the message id was answered, or one of `accounts` (id, kind, user
    id: those `batch` names) is not that account of this table. Its one row's one value is 1 when it wrote, 0 when
    it wrote nothing. A key taken meanwhile (a transfer's, an event's, the reply's: the same message id twice at
    once) fails the whole statement: nothing written. `opening`: the deal the action starts, its row and players';
    `closing`: the deal it ends, its row's last fields and its players' results. Built without the database (a
    loop's connection runs it: tables/loop_db.py)."""
    db = rows.db()
    ledger = batch is not None and batch.pending
    version, stored = played_on
    params = [*_state_params(db, table)[:-1], table.pk, version, stored, table.status]
    if ledger:
        params += [orjson.dumps([{"id": i, "kind": k, "user_id": u} for i, k, u in accounts]).decode(), table.pk,
                   len(accounts)]  # fmt: skip
    if reply is not None:
        params += [reply.user_id, reply.client_id]
    parts, ledger_params = batch.parts(only_if=_GUARD) if ledger else ([], [])
    params += ledger_params
    if events:
        params.append(json_rows.dumps(events, _event_fields()))
    if opening is not None:
        params += _open_params(db, opening)
    if closing is not None:
        params += _close_params(db, table.pk, closing)
    if reply is not None:
        params += _reply_params(db, reply)
    names = None if closing is None else tuple(closing.closed)
    return _unlocked_sql(bool(events), reply is not None, ledger, tuple(parts), opening is not None, names), params


@cache
def newest_sql() -> str:
    """The table's row as it is now, as a move without the lock plays on it (optimistic.known): its version, stored
    state, status and clock (the clock's seats as JSON text), unlocked."""
    table = q(Table._meta.db_table)
    columns = ", ".join(q(name) for name in ("version", "state", "status", "clock_kind"))
    return f"SELECT {columns}, {q('clock_seats')}::text, {q('clock_deadline')} FROM {table} WHERE {q('id')} = %s"


def write_unlocked(statement: tuple[str, list]) -> bool:
    """Run an `unlocked_statement` outside any transaction on this thread's connection: True when it wrote."""
    with rows.db().cursor() as cursor:
        cursor.execute(*statement)
        return cursor.fetchone()[0] == 1


def store_reply(reply: ClientMessage) -> bool:
    """Keep the reply to a message id (one statement); False when the id was answered meanwhile."""
    db = rows.db()
    with db.cursor() as cursor:
        cursor.execute(_reply_sql(), _reply_params(db, reply))
        return cursor.fetchone() is not None


# --- a hand history's deal rows ---


@dataclass(frozen=True, slots=True)
class Opening:
    """A deal's row and its players' rows (their `deal_id` is the new row's), to insert: by `open_deal`, or by the
    statement of the action that starts the deal (a move without the lock: `unlocked_statement`)."""

    deal: Deal
    players: list[DealSeat]


@cache
def _row_fields(model) -> tuple:
    """The columns an insert writes: every concrete field but the primary key (a DealSeat's deal comes first)."""
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    return tuple(sorted(fields, key=lambda f: f.name != "deal"))


@cache
def _player_fields() -> tuple:
    """A DealSeat's columns but its deal's: the keys of the players' JSON text and the columns it is read into."""
    return _row_fields(DealSeat)[1:]


def _row_params(db, row) -> list:
    """A row's values as its fields prepare them (their defaults included: the database has none of its own)."""
    return [f.get_db_prep_save(getattr(row, f.attname), db) for f in _row_fields(type(row))]


def _open_parts(only_if: str = "") -> tuple[str, str]:
    """PostgreSQL: `deal AS (…)` inserting a deal's row (its fields' values as parameters) and `players AS (…)`
    inserting its players' rows, which take the new row's id, from one JSON text (config/json_rows.py), so the
    statement has the same text and few parameters for any number of them: psycopg keeps its conversion (it parses a
    statement of over 50 parameters afresh each time, about 0.2 ms for four players' 76) and PostgreSQL its plan.
    With `only_if`, the deal's row (and so its players') is inserted only under that condition."""
    deals, seats = q(Deal._meta.db_table), q(DealSeat._meta.db_table)
    deal_fields, seat_fields = _row_fields(Deal), _player_fields()
    deal_row = ", ".join(["%s"] * len(deal_fields))
    values = f"SELECT {deal_row} WHERE {only_if}" if only_if else f"VALUES ({deal_row})"
    typed = ", ".join(f"{q(f.column)} {f.db_type(connection)}" for f in seat_fields)
    columns = ", ".join(q(f.column) for f in seat_fields)
    return (
        f"deal AS (INSERT INTO {deals} ({', '.join(q(f.column) for f in deal_fields)}) {values} RETURNING {q('id')})",
        f"players AS (INSERT INTO {seats} ({q('deal_id')}, {columns}) "
        f"SELECT deal.{q('id')}, row.* FROM deal, json_to_recordset(%s::json) AS row({typed}))",
    )


def _open_params(db, opening: Opening) -> list:
    return [*_row_params(db, opening.deal), json_rows.dumps(opening.players, _player_fields())]


@cache
def _open_sql() -> str:
    """PostgreSQL: a deal's row and its players' rows in one statement, returning the deal's id."""
    return f"WITH {', '.join(_open_parts())} SELECT {q('id')} FROM deal"


def open_deal(opening: Opening) -> int:
    """Insert a deal's row and its players'; the new row's id."""
    db = rows.db()
    deal, players = opening.deal, opening.players
    if db.vendor != "postgresql" or not players:  # SQLite: no data-modifying WITH
        deal.save(force_insert=True)
        for player in players:
            player.deal_id = deal.pk
        DealSeat.objects.bulk_create(players)
        return deal.pk
    with db.cursor() as cursor:
        cursor.execute(_open_sql(), _open_params(db, opening))
        return cursor.fetchone()[0]


# A deal's results, seat by seat: (column, the Result's value, the value of a seat with no result).
_RESULT_COLUMNS = ("put_in", "won", "net", "won_pot", "played", "tied", "svara_won")


def _deal_closed(closed: tuple[str, ...]) -> tuple[str, str]:
    """The update that closes a deal's row (its `closed` fields), and the condition that names the row."""
    assignments = ", ".join(f"{q(Deal._meta.get_field(name).column)} = %s" for name in closed)
    place = f"{q('table_id')} = %s AND {q('number')} = %s AND {q('svara')} = %s"
    return f"UPDATE {q(Deal._meta.db_table)} SET {assignments} WHERE {place}", place


@cache
def _close_sql(closed: tuple[str, ...]) -> str:
    """PostgreSQL: the deal's row closed (its `closed` fields) and every player's result in it, in one statement,
    the deal's row first (at a deal's end the ORM's Case/When compiled in about 3 ms, ten times what PostgreSQL takes
    to run it). The results come from one JSON object (seat: values in _RESULT_COLUMNS' order), so the statement has
    one text with few parameters for any number of seats (see _open_sql)."""
    players = q(DealSeat._meta.db_table)
    deal, _place = _deal_closed(closed)
    return (
        f"WITH deal AS ({deal} RETURNING {q('id')}) UPDATE {players} SET {q('ended')} = %s, {_results_set(players)} "
        f"FROM deal, (SELECT %s::jsonb AS results) AS r WHERE {players}.{q('deal_id')} = deal.{q('id')}"
    )


def _results_set(players: str) -> str:
    """Each result column set from the JSON object `r.results` (seat: values), or its parameter when the seat is not
    in it."""
    seat = f"{players}.{q('seat')}::text"
    return ", ".join(
        f"{q(column)} = COALESCE((r.results -> {seat} ->> {i})::{DealSeat._meta.get_field(column).db_type(connection)}, %s)"
        for i, column in enumerate(_RESULT_COLUMNS)
    )


@cache
def _close_sqlite_sql(seats: int, closed: tuple[str, ...]) -> tuple[str, str]:
    """SQLite (no data-modifying WITH): the deal's row closed, then its players' results, a CASE per column over
    `seats` seats."""
    players, deals = q(DealSeat._meta.db_table), q(Deal._meta.db_table)
    deal, place = _deal_closed(closed)
    whens = " ".join(["WHEN %s THEN %s"] * seats)
    cases = ", ".join(
        f"{q(column)} = CASE {q('seat')} {whens} ELSE %s END" if seats else f"{q(column)} = %s"
        for column in _RESULT_COLUMNS
    )
    results = f"UPDATE {players} SET {q('ended')} = %s, {cases} WHERE {q('deal_id')} IN "
    return deal, f"{results}(SELECT {q('id')} FROM {deals} WHERE {place})"


@dataclass(frozen=True, slots=True)
class Closing:
    """A deal (or svara) ended: its row's last fields (`closed`: Deal field: value) and its players' results
    (`by_seat`: seat: values in _RESULT_COLUMNS' order; a seat not in it gets `none`'s). Written by `close_deal`,
    or by the statement of the action that ends it (a move without the lock: `unlocked_statement`)."""

    number: int
    svara: int
    closed: dict
    by_seat: dict[int, tuple]
    none: tuple


@cache
def _close_parts(closed: tuple[str, ...], only_if: str) -> tuple[str, str]:
    """PostgreSQL: `closed_deal AS (…)` closing the deal's row, only under `only_if`, and `closed_seats AS (…)` writing
    its players' results (as _close_sql, whose parameters they take in the same order)."""
    players = q(DealSeat._meta.db_table)
    deal, _place = _deal_closed(closed)
    return (f"closed_deal AS ({deal} AND {only_if} RETURNING {q('id')})",
            f"closed_seats AS (UPDATE {players} SET {q('ended')} = %s, {_results_set(players)} FROM closed_deal, "
            f"(SELECT %s::jsonb AS results) AS r WHERE {players}.{q('deal_id')} = closed_deal.{q('id')})")  # fmt: skip


def _deal_closed_params(db, table_id: int, closing: Closing) -> list:
    """The parameters of _deal_closed's update: the closed fields' values, then the row's place."""
    closed = closing.closed
    values = [Deal._meta.get_field(name).get_db_prep_save(closed[name], db) for name in closed]
    return [*values, table_id, closing.number, closing.svara]


def _close_params(db, table_id: int, closing: Closing) -> list:
    """The parameters of _close_sql's and _close_parts' text."""
    results = orjson.dumps(closing.by_seat, option=orjson.OPT_NON_STR_KEYS).decode()
    return [*_deal_closed_params(db, table_id, closing), True, *closing.none, results]


def close_deal(table_id: int, closing: Closing) -> None:
    """Close the deal's row and write its players' results (`closing`)."""
    names = tuple(closing.closed)
    db = rows.db()
    with db.cursor() as cursor:
        if db.vendor == "postgresql":
            cursor.execute(_close_sql(names), _close_params(db, table_id, closing))
            return
        by_seat, place = closing.by_seat, [table_id, closing.number, closing.svara]
        params: list = [True]
        for column, default in enumerate(closing.none):
            for seat, values in by_seat.items():
                params += [seat, values[column]]
            params.append(default)
        deal_sql, results_sql = _close_sqlite_sql(len(by_seat), names)
        cursor.execute(deal_sql, _deal_closed_params(db, table_id, closing))
        cursor.execute(results_sql, params + place)
