"""Every chip movement of one table action as one batch: `move([Movement, ...])`.

With every account already open a batch costs two statements on PostgreSQL (three on SQLite), whatever its length:

1. one `SELECT … ORDER BY id FOR UPDATE` of every account it names: the locks, in one order (primary key), and
   the fresh balances; none at all when the caller's transaction already holds them (`held`: a table action's pot,
   house account and seated stacks come locked with the table's row, so a bet, an ante or the rake is one
   statement);
2. one `INSERT … SELECT … WHERE NOT EXISTS (a transfer with one of the keys) ON CONFLICT DO NOTHING RETURNING`
   of all its transfers, which on PostgreSQL also runs, in a data-modifying `WITH` under the same condition, the
   `UPDATE … SET balance = balance + CASE id WHEN … END WHERE id IN (…)` of every balance that changes;
3. on SQLite (no data-modifying `WITH`) that UPDATE as a statement of its own.

A caller that writes in one statement of its own (the table's door: its events and state) takes the batch checked
under its locks (`prepare`) and writes 2 and 3 inside that statement (`Batch.parts`), with no key probe: its insert
skips a row whose key is taken (ON CONFLICT DO NOTHING), and `Batch.written` rolls the caller's transaction back
when fewer transfers went in than the batch holds. A bet or a call is then no statement of its own at all.

Between 1 and 2 the movements are applied in order, in Python, to the locked balances: if any account but the
treasury would go below zero at any point, or another rule below refuses, the batch raises `WalletError` and
writes nothing. The CHECK constraints stay as the backstop.

Why not `bulk_create` for 2: a duplicate key would abort the transaction on PostgreSQL, and surviving that needs
a savepoint around every insert (two more statements, SAVEPOINT and RELEASE, on the normal path). Instead the
insert itself refuses to insert anything when one of the keys is already there, so the normal path needs no
savepoint: if no row comes back, the batch is either a replay (every key already names exactly the same
transfer: those are returned and nothing moves) or a key reused for something else (`WalletError` naming it).
The locks make that check exact for a replay, whose accounts are the same: a concurrent first run holds their
locks until it commits, and statement 2 (READ COMMITTED: a fresh snapshot) then sees its keys.

Accounts not yet open (a player's first sit at a table, a table's first bet, a fresh database) are opened by one
`INSERT … ON CONFLICT DO NOTHING` and picked up by the locking SELECT again, inside a savepoint so that a refused
batch also takes back the accounts it opened: five more statements, on sit-downs and first bets only.

What `move` checks: movements well formed (amount a positive whole number, key a non-empty string of at most 200
characters and unique in the batch, memo and family lengths, actor id), each kind between the accounts it
belongs to (a bet from a stack to its table's pot, a cash-out from a stack to its owner's balance, …), the two
accounts different, never below zero, a buy-in only into an empty stack, the rake records its family, a staff
credit or debit records who and why. What stays with the caller, who holds the users and the table: the buy-in
range and the add-chips ceiling in antes (§10, D15), that the actor is active staff, that only bots draw from the
bots' pool and that bots have no balance (`move` names accounts by owner ids and never loads a user).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from config import json_rows
from config.said import said

from .accounts import WalletError
from .models import AccountKind, LedgerAccount, Transfer, TransferKind

__all__ = ["AccountRef", "Batch", "Movement", "held", "move", "prepare", "prepare_unlocked"]

MAX_AMOUNT = 2**63 - 1  # the balance column's limit
_ACCOUNT_KINDS = frozenset(AccountKind.values)  # Django's `values` builds its list anew at every read (4 µs)
_TABLE_KINDS = (AccountKind.STACK, AccountKind.POT, AccountKind.HOUSE)  # the accounts kept one a table


def _check_id(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise WalletError(f"A {what} must be a positive whole number, not {value!r}.")
    return value


@dataclass(frozen=True, slots=True)
class AccountRef:
    """Names a ledger account by its owner, without loading it."""

    kind: AccountKind
    user_id: int | None = None
    table_id: int | None = None

    def __post_init__(self):
        if self.kind not in _ACCOUNT_KINDS:
            raise WalletError(f"Unknown account kind {self.kind!r}.")
        needs_user = self.kind in (AccountKind.BALANCE, AccountKind.STACK)
        needs_table = self.kind in _TABLE_KINDS
        if needs_user:
            if self.user_id is None:
                raise WalletError("A ledger account needs a saved user.")
            _check_id(self.user_id, "user id")
        elif self.user_id is not None:
            raise WalletError(f"A {AccountKind(self.kind).label} has no user.")
        if needs_table:
            _check_id(self.table_id, "table id")
        elif self.table_id is not None:
            raise WalletError(f"A {AccountKind(self.kind).label} has no table.")

    @classmethod
    def balance(cls, user_id: int) -> AccountRef:
        return cls(AccountKind.BALANCE, user_id=user_id)

    @classmethod
    def stack(cls, user_id: int, table_id: int) -> AccountRef:
        return cls(AccountKind.STACK, user_id=user_id, table_id=table_id)

    @classmethod
    def pot(cls, table_id: int) -> AccountRef:
        return cls(AccountKind.POT, table_id=table_id)

    @classmethod
    def house(cls, table_id: int) -> AccountRef:
        """The house's rake taken at one table (wallet/models.py)."""
        return cls(AccountKind.HOUSE, table_id=table_id)

    @classmethod
    def bots_pool(cls) -> AccountRef:
        return cls(AccountKind.BOTS_POOL)

    @classmethod
    def treasury(cls) -> AccountRef:
        return cls(AccountKind.TREASURY)

    @classmethod
    def of(cls, account: LedgerAccount) -> AccountRef:
        return cls(
            account.kind,
            user_id=account.user_id if account.kind in (AccountKind.BALANCE, AccountKind.STACK) else None,
            table_id=account.table_id if account.kind in _TABLE_KINDS else None,
        )


@dataclass(frozen=True, slots=True)
class Movement:
    """One transfer of a batch. `table_id` may be left out: it is the table of the stack or pot it touches."""

    kind: TransferKind
    source: AccountRef
    destination: AccountRef
    amount: int
    key: str
    table_id: int | None = None
    family: str = ""  # the rake records the table's rule family
    memo: str = ""  # a staff credit or debit records why
    actor_id: int | None = None  # … and who


_B, _S, _P = AccountKind.BALANCE, AccountKind.STACK, AccountKind.POT
_H, _T, _BP = AccountKind.HOUSE, AccountKind.TREASURY, AccountKind.BOTS_POOL

# Each kind moves chips from one kind of account to another, and only there.
_ROUTES = {
    TransferKind.CREDIT: (_T, _B),
    TransferKind.WELCOME: (_T, _B),
    TransferKind.DEBIT: (_B, _T),
    TransferKind.BUY_IN: (_B, _S),
    TransferKind.ADD_CHIPS: (_B, _S),
    TransferKind.CASH_OUT: (_S, _B),
    TransferKind.BET: (_S, _P),
    TransferKind.PAY_OUT: (_P, _S),
    TransferKind.RAKE: (_P, _H),
    TransferKind.BOT_SEED: (_T, _BP),
    TransferKind.BOT_BUY_IN: (_BP, _S),
    TransferKind.BOT_CASH_OUT: (_S, _BP),
}
_STAFF_KINDS = (TransferKind.CREDIT, TransferKind.DEBIT)


def _table_of(m: Movement) -> int | None:
    """The table a movement happens at: that of its stack or pot, which must agree with the one it names."""
    tables = {ref.table_id for ref in (m.source, m.destination) if ref.table_id is not None}
    if len(tables) > 1:
        raise WalletError(f"A {TransferKind(m.kind).label} stays at one table, not {sorted(tables)} (key {m.key!r}).")
    table = tables.pop() if tables else None
    if m.table_id is not None and m.table_id != table:
        raise WalletError(f"The movement {m.key!r} names table {m.table_id!r} but its accounts are at {table}.")
    return table


def _check(m) -> int | None:
    """A movement's own rules, before any statement; gives its table."""
    if not isinstance(m, Movement):
        raise WalletError(f"A batch holds movements, not {m!r}.")
    if not isinstance(m.key, str) or not m.key.strip():
        raise WalletError("Every transfer needs an idempotency key (a non-empty string).")
    if len(m.key) > 200:
        raise WalletError("An idempotency key may be at most 200 characters long.")
    if isinstance(m.amount, bool) or not isinstance(m.amount, int):
        raise WalletError(f"An amount of chips must be a whole number, not {m.amount!r} (key {m.key!r}).")
    if not 0 < m.amount <= MAX_AMOUNT:
        raise WalletError(f"An amount of chips must be positive, not {m.amount} (key {m.key!r}).")
    if m.kind not in _ROUTES:
        raise WalletError(f"Unknown transfer kind {m.kind!r}.")
    if not isinstance(m.source, AccountRef) or not isinstance(m.destination, AccountRef):
        raise WalletError("A movement's source and destination are AccountRefs.")
    if m.source == m.destination:
        raise WalletError("A transfer needs two different accounts.")
    if (m.source.kind, m.destination.kind) != _ROUTES[m.kind]:
        src, dst = _ROUTES[m.kind]
        raise WalletError(
            f"A {TransferKind(m.kind).label} goes from a {AccountKind(src).label} to a {AccountKind(dst).label}, "
            f"not from a {AccountKind(m.source.kind).label} to a {AccountKind(m.destination.kind).label}."
        )
    if m.source.user_id and m.destination.user_id and m.source.user_id != m.destination.user_id:
        raise WalletError(f"A {TransferKind(m.kind).label} stays with one player (key {m.key!r}).")
    if not isinstance(m.memo, str) or len(m.memo) > 255:
        raise WalletError("A memo may be at most 255 characters long.")
    if not isinstance(m.family, str) or len(m.family) > 16:
        raise WalletError(f"Unknown rule family {m.family!r}.")
    if m.kind == TransferKind.RAKE and not m.family:
        raise WalletError("The rake must record the table's rule family.")
    if m.actor_id is not None:
        _check_id(m.actor_id, "staff member's id")
    if m.kind in _STAFF_KINDS and (m.actor_id is None or not m.memo.strip()):
        raise WalletError("A credit or debit records the staff member who made it and a reason.")
    return _table_of(m)


def _lock(refs) -> dict[AccountRef, LedgerAccount]:
    """Statement 1: every account named, locked in primary-key order, with its balance under the lock.

    Plain SQL, as are the insert and the update: this runs on every table action, and compiling the ORM's
    expressions cost more than the statement itself."""
    q = connection.ops.quote_name
    where, params = [], []
    for ref in refs:
        owner = [("kind", str(ref.kind))]
        if ref.user_id is not None:
            owner.append(("user_id", ref.user_id))
        if ref.table_id is not None:
            owner.append(("table_id", ref.table_id))
        where.append("(" + " AND ".join(f"{q(column)} = %s" for column, _ in owner) + ")")
        params += [value for _, value in owner]
    sql = (
        f"SELECT {', '.join(q(c) for c in ACCOUNT_COLUMNS)} FROM {q(LedgerAccount._meta.db_table)} "
        f"WHERE {' OR '.join(where)} ORDER BY {q('id')}"
    )
    db = connections[DEFAULT_DB_ALIAS]
    if db.features.has_select_for_update:  # not SQLite, where a writer locks the whole database
        sql += " FOR UPDATE"
    with db.cursor() as cursor:
        cursor.execute(sql, params)
        return held(cursor.fetchall())


# The columns an account is read with, in order: here and in the door's lock statement (`held`).
ACCOUNT_COLUMNS = ("id", "kind", "user_id", "table_id", "balance")


def lock(refs) -> None:
    """Lock the existing accounts among `refs` until the caller's transaction ends, in primary-key order (the order
    every batch locks the accounts it does not hold yet in): for a change made of several batches, so its later
    batches take no lock out of order."""
    assert transaction.get_connection().in_atomic_block, "lock runs inside the caller's atomic block"
    _lock(list(dict.fromkeys(refs)))


def _open(refs) -> None:
    """Open the accounts that do not exist yet; one opened meanwhile by somebody else is simply kept."""
    now = timezone.now()
    LedgerAccount.objects.bulk_create(
        [LedgerAccount(kind=r.kind, user_id=r.user_id, table_id=r.table_id, created_at=now) for r in refs],
        ignore_conflicts=True,
    )


def held(rows) -> dict[AccountRef, LedgerAccount]:
    """Accounts read under their lock, as rows of ACCOUNT_COLUMNS: by `_lock`, or by the caller's transaction itself
    (the table's own pot, house account and stacks, with its row: tables/services/statements.py), for `move`."""
    db = connections[DEFAULT_DB_ALIAS]
    accounts = (LedgerAccount.from_db(db.alias, ACCOUNT_COLUMNS, tuple(row)) for row in rows)
    return {AccountRef.of(account): account for account in accounts}


def move(movements: Sequence[Movement], held: dict[AccountRef, LedgerAccount] | None = None) -> list[Transfer]:
    """Move every chip of `movements`, in order, as one batch; all or nothing, once per key.

    Runs inside the caller's transaction (the table server's, right after applying the action). Returns the
    transfers in the order of the movements: new ones, or the first ones when the whole batch is a replay.
    Raises `WalletError` and writes nothing when any movement is refused.

    `held`: accounts this transaction already holds locked (`held()`), their balances as they stand: those are not
    locked again, and each batch keeps their balances and adds the accounts it locked, for the next batch of the
    same transaction (a savepoint rolled back around a batch leaves them stale: the caller then moves no more)."""
    return prepare(movements, held).write()


def _screened(movements: list[Movement]) -> tuple[list[int | None], list[AccountRef]]:
    """Each movement's own rules and no key twice, before any balance is read: each movement's table, and every
    account the batch names, once each, in order."""
    tables = [_check(m) for m in movements]
    keys = [m.key for m in movements]
    if len(set(keys)) != len(keys):
        twice = next(k for k in keys if keys.count(k) > 1)
        raise WalletError(f"The key {twice!r} is used twice in one batch.")
    return tables, list(dict.fromkeys(ref for m in movements for ref in (m.source, m.destination)))


def prepare(
    movements: Sequence[Movement], held: dict[AccountRef, LedgerAccount] | None = None, *, replay: bool = True
) -> Batch:
    """`move` up to its writing: the movements checked against the balances under their accounts' locks (the same
    refusals, nothing written), for a caller that writes the batch in a statement of its own (`Batch.parts`: the
    table's door, with the action's state). A batch that must open an account first is written here, inside the
    savepoint that takes the accounts back with a refusal: `Batch.pending` then says there is nothing left to
    write. `replay=False`: keys already stored are a `WalletError` on every path, never a replay answered with the
    first transfers (the door: its keys hold the table's new version, so a stored one is a fault)."""
    movements = list(movements)
    if not movements:
        return Batch([], [], {}, {}, {}, held, replay, pending=False)
    assert transaction.get_connection().in_atomic_block, "move runs inside the caller's atomic block"
    tables, refs = _screened(movements)
    known = {} if held is None else held
    locked = {ref: known[ref] for ref in refs if ref in known}
    if len(locked) < len(refs):
        locked |= _lock([ref for ref in refs if ref not in locked])
    if len(locked) == len(refs):
        return _checked(movements, tables, locked, held, replay)
    # A savepoint: a refusal also takes back the accounts opened for it.
    with transaction.atomic():
        _open([ref for ref in refs if ref not in locked])
        batch = _checked(movements, tables, locked | _lock([ref for ref in refs if ref not in locked]), None, replay)
        batch.write()  # opened inside the savepoint: its accounts are not kept for later batches
    return batch


def prepare_unlocked(movements: Sequence[Movement], known: dict[AccountRef, LedgerAccount]) -> Batch | None:
    """`prepare` for a caller that writes without the accounts' locks, in one statement of its own that holds
    only if their balances are still those of `known` (the door's move at a table's known version:
    tables/services/optimistic.py). The same checks and refusals; None when a movement names an account not in
    `known` (nothing is opened or locked here). Its statement writes the batch with `parts(only_if=…)`."""
    movements = list(movements)
    if not movements:
        return Batch([], [], {}, {}, {}, None, False, pending=False)
    tables, refs = _screened(movements)
    if any(ref not in known for ref in refs):
        return None
    return _checked(movements, tables, {ref: known[ref] for ref in refs}, None, False)


@dataclass(slots=True)
class Batch:
    """A batch checked under its accounts' locks: its transfers in the order of the movements and the net change of
    each balance it moves (by account id). `pending` until written, by `write` or by a caller's own statement."""

    movements: list[Movement]
    records: list[Transfer]
    changes: dict[int, int]
    locked: dict[AccountRef, LedgerAccount]
    balances: dict[AccountRef, int]  # each locked account's balance once the batch is written
    keep: dict[AccountRef, LedgerAccount] | None  # the caller's held accounts: this batch's join them once written
    replay: bool  # whether stored keys may be a replay of this batch (`prepare`)
    pending: bool = True

    def write(self) -> list[Transfer]:
        """Statement 2 (and 3 on SQLite); the transfers written, or those of the first run when this is a replay."""
        if not self.pending:
            return self.records
        inserted = _insert(self.records, self.changes)
        if not inserted:
            if self.changes and connection.vendor == "postgresql" and _moved(self.locked):
                # The keys were taken after this statement's snapshot: its WITH moved the balances all the same.
                transaction.set_rollback(True)
                raise WalletError("The keys of this batch were just used by another transaction.")
            if not self.replay:
                used = next(iter(_existing(self.movements)), self.records[0].key)
                raise WalletError(f"The key {used!r} was already used: nothing moved.")
            self.records = _replay(self.movements, _existing(self.movements), self.locked)
            self._settle(replayed=True)
            return self.records
        if len(inserted) < len(self.records):
            # Only when another transaction, on other accounts, took one of these keys at this very moment: some
            # rows went in and cannot be taken out without a savepoint, so the caller's block must roll back.
            transaction.set_rollback(True)
            taken = next(r.key for r in self.records if r.key not in inserted)
            raise WalletError(f"The key {taken!r} was just used for a different transfer.")
        for record in self.records:
            record.pk = inserted[record.key]
            record._state.adding, record._state.db = False, connection.alias
        if self.changes and connection.vendor != "postgresql":  # PostgreSQL updated them in the insert's statement
            with connection.cursor() as cursor:
                cursor.execute(*_update(self.changes))
        self._settle()
        return self.records

    def parts(self, only_if: str | None = None) -> tuple[list[str], list]:
        """PostgreSQL: the batch as data-modifying WITH queries for the caller's statement, `moved` (the balances)
        and `transfers` (the rows, returning their ids), with their parameters, in order. No key probe: the
        caller's statement returns `Batch.WRITTEN`, and `written` refuses a batch any of whose
        keys was taken (ON CONFLICT DO NOTHING skipped its row) by rolling the caller's transaction back.

        `only_if` (an SQL condition of the caller's statement): both write only when it holds, and a key already
        taken fails the whole statement instead of being skipped: for a caller outside a transaction, whose
        statement is its transaction (the door's move without the row's lock, tables/services/optimistic.py)."""
        parts, params = [], []
        if self.changes:
            update, update_params = _update(self.changes)
            if only_if is not None:
                update += f" AND {only_if}"
            parts.append(f"moved AS ({update})")
            params += update_params
        transfers = _transfers_sql() if only_if is None else f"{_rows_insert()} WHERE {only_if} RETURNING id"
        parts.append(f"transfers AS ({transfers})")
        params.append(json_rows.dumps(self.records, _fields()))
        return parts, params

    WRITTEN = "(SELECT count(*) FROM transfers)"  # in the caller's statement with `parts`: the transfers that went in

    def written(self, inserted: int) -> None:
        """The caller's statement with `parts` ran and inserted `inserted` transfers."""
        if inserted != len(self.records):
            transaction.set_rollback(True)
            raise WalletError(f"A key of the batch of {self.records[0].key!r} was already used: nothing moved.")
        self._settle()

    def _settle(self, replayed: bool = False) -> None:
        """Written (or found written before): the locked accounts as they now stand, kept by the caller for its
        next batch."""
        if not replayed:
            for ref, account in self.locked.items():
                account.balance = self.balances[ref]
        if self.keep is not None:
            self.keep.update(self.locked)
        self.pending = False


def _checked(movements, tables, locked, keep, replay: bool) -> Batch:
    balances = {ref: account.balance for ref, account in locked.items()}
    refusal = None
    for m in movements:
        if m.kind == TransferKind.BUY_IN and balances[m.destination]:
            stack = locked[m.destination]
            refusal = said(_("%(player)s already has %(chips)s chips at table %(table)s; add chips instead of buying in."),
                           player=stack.user, chips=balances[m.destination], table=stack.table_id)  # fmt: skip
            break
        held = balances[m.source]
        if m.source.kind != AccountKind.TREASURY and held < m.amount:
            refusal = said(_("Not enough chips: %(account)s holds %(held)s, %(needed)s needed."),
                           account=locked[m.source], held=held, needed=m.amount)  # fmt: skip
            break
        balances[m.source] = held - m.amount
        balances[m.destination] += m.amount
    if refusal is not None:
        # Refused on today's balances: but when these keys already moved these chips (a retry), that is the answer.
        existing = _existing(movements) if replay else None
        if existing:
            batch = Batch(movements, _replay(movements, existing, locked), {}, locked, {}, keep, replay)
            batch._settle(replayed=True)
            return batch
        raise WalletError(refusal)

    now = timezone.now()
    records = [
        Transfer(
            key=m.key,
            kind=m.kind,
            source=locked[m.source],
            destination=locked[m.destination],
            amount=m.amount,
            memo=m.memo,
            actor_id=m.actor_id,
            created_at=now,
            table_id=table,
            family=m.family,
        )
        for m, table in zip(movements, tables, strict=True)
    ]
    changes = {locked[ref].pk: balances[ref] - locked[ref].balance for ref in locked}
    changes = {pk: change for pk, change in changes.items() if change}
    return Batch(movements, records, changes, locked, balances, keep, replay)


def _update(changes: dict[int, int], unless_keys: list[str] | None = None) -> tuple[str, list]:
    """Every balance that changes, by its net change (the rows are locked since statement 1); with `unless_keys`,
    only if none of those keys is stored yet (the insert's own condition, for the statement they share)."""
    q = connection.ops.quote_name
    whens = " ".join(["WHEN %s THEN %s"] * len(changes))
    sql = (
        f"UPDATE {q(LedgerAccount._meta.db_table)} SET {q('balance')} = {q('balance')} + CASE {q('id')} {whens} "
        f"ELSE 0 END WHERE {q('id')} IN ({', '.join(['%s'] * len(changes))})"
    )
    params = [x for change in changes.items() for x in change] + list(changes)
    if unless_keys is not None:
        sql += f" AND NOT EXISTS (SELECT 1 FROM {q(Transfer._meta.db_table)} WHERE {q('key')} = ANY((%s)::varchar[]))"
        params.append(unless_keys)
    return sql, params


def _moved(locked) -> bool:
    """Whether any locked balance differs from what the lock read (only asked when the insert inserted nothing)."""
    now = dict(LedgerAccount.objects.filter(pk__in=[a.pk for a in locked.values()]).values_list("pk", "balance"))
    return any(now[account.pk] != account.balance for account in locked.values())


def _existing(movements) -> dict[str, Transfer]:
    return {t.key: t for t in Transfer.objects.filter(key__in=[m.key for m in movements])}


def _replay(movements, existing: dict[str, Transfer], locked) -> list[Transfer]:
    """The same keys again: the same batch returns its first transfers, anything else is an error."""
    for m in movements:
        t = existing.get(m.key)
        if t is not None and (t.source_id, t.destination_id, t.amount, t.kind) != (
            locked[m.source].pk,
            locked[m.destination].pk,
            m.amount,
            m.kind,
        ):
            raise WalletError(
                f"The key {t.key!r} was already used for a different transfer "
                f"({t.amount} chips, {t.get_kind_display()}, {t.source} → {t.destination})."
            )
    missing = [m.key for m in movements if m.key not in existing]
    if missing:
        used = next(iter(existing))
        raise WalletError(
            f"The key {used!r} was already used, but {missing[0]!r} of the same batch was not: "
            "a batch is replayed whole or not at all."
        )
    return [existing[m.key] for m in movements]


_COLUMNS = ("key", "kind", "source", "destination", "amount", "memo", "actor", "created_at", "table_id", "family")


@cache
def _fields() -> tuple:
    return tuple(Transfer._meta.get_field(name) for name in _COLUMNS)


@cache
def _rows_insert() -> str:
    """PostgreSQL: the insert of the transfers, which arrive as one JSON text (config/json_rows.py)."""
    return json_rows.insert_sql(Transfer, _fields(), "moving")


_RETURNING = 'ON CONFLICT DO NOTHING RETURNING id, "key"'


def _transfers_sql() -> str:
    """PostgreSQL: the transfers' insert in a caller's statement (`Batch.parts`): no key probe, the count decides."""
    return f"{_rows_insert()} {_RETURNING}"


@cache
def _insert_sql(vendor: str, rows: int) -> str:
    """The insert of `rows` transfers unless one of their keys is stored (PostgreSQL: one plan for any number)."""
    fields = _fields()
    table = connection.ops.quote_name(Transfer._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    key_column = connection.ops.quote_name("key")
    if vendor == "postgresql":
        probe = f"SELECT 1 FROM {table} WHERE {key_column} = ANY((%s)::varchar[])"
        return f"{_rows_insert()} WHERE NOT EXISTS ({probe}) {_RETURNING}"
    if vendor == "sqlite":
        row = "(" + ", ".join(["%s"] * len(fields)) + ")"
        return (
            f"INSERT INTO {table} ({columns}) SELECT * FROM (VALUES {', '.join([row] * rows)}) "
            f"WHERE NOT EXISTS (SELECT 1 FROM {table} WHERE {key_column} IN ({', '.join(['%s'] * rows)})) "
            f"{_RETURNING}"
        )
    raise NotImplementedError(f"wallet.batch does not know {vendor}")  # pragma: no cover


def _unprepared(execute, sql, params, many, context):
    """Django's execute wrapper (its query log and errors kept) running a statement never prepared, so planned with
    its values every run: a generic plan of the insert's key probe, made while the transfers were few, stayed a
    sequential scan as they grew (bench door: 0.27 ms a run became 1.1 ms after 9,000 transfers)."""
    assert not many, "one statement"
    context["connection"].validate_no_broken_transaction()  # as Django's own execute does first
    with context["connection"].wrap_database_errors:
        return context["cursor"].cursor.execute(sql, params, prepare=False)


def _insert(records: list[Transfer], changes: dict[int, int]) -> dict[str, int]:
    """Statement 2: all the transfers, or none when one of their keys is taken; gives {key: pk} of those inserted.
    On PostgreSQL the same statement updates the balances (`changes`, in a data-modifying WITH under the same
    condition), so a batch is two statements there; SQLite, the embedded default, updates them in a third.

    ON CONFLICT DO NOTHING covers a key taken by a transaction that commits while this one waits on the index (the
    balances then moved for a partial batch: `Batch.write` rolls the caller's transaction back)."""
    db = connections[DEFAULT_DB_ALIAS]  # looked up once: each read through `connection` looks it up again
    keys = [r.key for r in records]
    sql = _insert_sql(db.vendor, len(records))
    if db.vendor == "postgresql":
        params = [json_rows.dumps(records, _fields()), keys]
        if changes:
            update, update_params = _update(changes, unless_keys=keys)
            sql, params = f"WITH moved AS ({update}) {sql}", update_params + params
    else:
        params = [f.get_db_prep_save(getattr(r, f.attname), db) for r in records for f in _fields()] + keys
    with db.cursor() as cursor:
        if db.vendor == "postgresql":
            with db.execute_wrapper(_unprepared):
                cursor.execute(sql, params)
        else:
            cursor.execute(sql, params)
        return {key: pk for pk, key in cursor.fetchall()}
