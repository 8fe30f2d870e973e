"""A move without the table's lock: one statement, which is its own transaction, for the common action in a deal.

The door's usual way (door.py) is four round trips to PostgreSQL: BEGIN, the row's lock (with the stored reply and
the table's ledger accounts), the write, COMMIT. Most actions in a deal (a call, a bet, a fold that ends nothing,
a card opened, a New deal pressed, the last one starting the deal with its antes and its hand history's rows, the
one that ends it with its award and rake) need nothing the process does not already know: the table as last
committed, which every change brings to this process's sockets in its group message (`seen`), and the ids of the
table's own ledger accounts, which a locked action reads and its group message tells every process at the table
(`accounts_seen`, `accounts_told`). A deal's end also needs the deal's stored events (its players' results come
from them): they are read first, one plain statement (`NeedsDealEvents`). Such an action is played on that known
state and written in one statement that holds only if the row still holds that very version and text
(statements.write_unlocked):
PostgreSQL's row lock, taken by the UPDATE itself, orders it against every other writer, and a writer that got
there first leaves it writing nothing.

Anything else goes the locked way, from the start: a known state that is not the newest (the statement wrote
nothing; from a socket, the move is first played again on the row as it is now: act_from_loop), a refusal (the
known state may be old: the locked way refuses for certain, in the newest state's words), an action that ends a
svara or opens one (a tie, a buy-in: the new row's id is needed at once), moves chips other than bets, the rake and
winnings, changes the seats (a leaver's seat freed at the deal's end), or calls for a standing answer; a deal
started from the test settings' queued decks (they are kept on the row); a database error (a single statement
either wrote all or nothing). So every answer is the locked way's, and this path only ever saves the lock and the
transaction around one statement.

The chips stay exact without the accounts' locks: a table's stacks, pot and house account move only with its row
(door.py), so at the version played on the stacks and pot hold what its state says (the house account only takes
the rake); the statement checks the accounts are this table's, and the ledger's CHECK constraint stays the backstop."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

import orjson
import psycopg
from django.conf import settings
from django.db import DatabaseError, IntegrityError
from django.utils import timezone

from wallet.accounts import WalletError
from wallet.batch import AccountRef, prepare_unlocked
from wallet.models import AccountKind, LedgerAccount, TransferKind

from .. import loop_db, reads, rows, selectors
from ..db_threads import table_turn, through_the_door
from ..engine import play
from ..engine.events import BuyIn, DealEnded, DealStarted, Svara
from ..errors import DoorError, in_one_line, is_outage
from ..models import Table, TableStatus
from ..protocol import PLAY_KINDS, Command, check_client_id
from ..selectors import clock_from
from ..state_io import bot_players, chips_of, seat_of
from . import door, history, ledger, notify, replies, statements

log = logging.getLogger(__name__)

_NEW_DEAL_ROWS = (Svara, BuyIn)  # events whose hand-history rows need statements of their own (a new row's id)

_TABLE_ACCOUNTS = (AccountKind.STACK, AccountKind.POT, AccountKind.HOUSE)  # the only accounts a move this way names
_KINDS = (TransferKind.BET, TransferKind.RAKE, TransferKind.PAY_OUT)  # between them: in play and at a deal's end
_KNOWN_MAX = 4096  # tables a process keeps (the oldest forgotten first)

# A move from a socket whose statement wrote nothing most likely lost a race: another process's move at the table got
# there first (New deal pressed by several players at once, a card opened during another's turn). The row is then
# read as it is now (one plain statement on the same connection) and the move played again on it, this way; after
# LOST_RACES such tries, or when the row has not moved on, it goes the locked way. Its change's group message may not
# be waited for instead: this socket's consumer takes it only after this move, and so may every other of this
# process at the table, queued behind the move for the table's turn (docs/benchmarks.md, session 24).
LOST_RACES = 3


@dataclass(frozen=True)
class Spare:
    """A table's known state decoded ahead of the next move here (`ready_next_move`), with its row as `_table` makes
    it: `plan` takes it once, if the table is still known at that very entry (`known`)."""

    known: tuple  # the entry of Known.tables it was made from
    state: play.TableState
    table: Table


class Known:
    """The newest committed state of each table this process has heard of, and its ledger accounts' ids."""

    def __init__(self):
        self.tables: dict[int, tuple[int, str, dict, dict | None]] = {}  # id -> (version, stored, facts, clock)
        self.accounts: dict[int, dict[AccountRef, int]] = {}  # table id -> {its pot's, house's, stacks' refs: id}
        self.spares: dict[int, Spare] = {}  # table id -> its state decoded ahead of the next move here

    def seen(self, table_id: int, version: int, stored: str, facts: dict, clock: dict | None) -> None:
        known = self.tables.get(table_id)
        if known is None or known[0] < version:
            self.tables[table_id] = (version, stored, facts, clock)
            self.spares.pop(table_id, None)  # decoded ahead of a state no move will be played on now
            _bound(self.tables)

    def version(self, table_id: int) -> int:
        known = self.tables.get(table_id)
        return -1 if known is None else known[0]

    def accounts_seen(self, table_id: int, accounts: dict[AccountRef, LedgerAccount]) -> None:
        self.ids_seen(table_id, ((ref, account.pk) for ref, account in accounts.items()))

    def ids_seen(self, table_id: int, ids) -> None:
        """(ref, account id) pairs of the table's accounts, read here or told (`accounts_told`)."""
        known_ids = self.accounts.setdefault(table_id, {})
        known_ids.update((ref, pk) for ref, pk in ids if ref.kind in _TABLE_ACCOUNTS)
        _bound(self.accounts)

    def forget(self) -> None:
        self.tables.clear()
        self.accounts.clear()
        self.spares.clear()


def _bound(memo: dict) -> None:
    if len(memo) > _KNOWN_MAX:
        try:
            memo.pop(next(iter(memo), None), None)
        except RuntimeError:  # a door thread changed it meanwhile: the next call bounds it
            pass


known = Known()


def seen(committed) -> None:
    """A committed version of a table (selectors.Committed) reached this process: a socket showed it."""
    known.seen(committed.table["id"], committed.version, committed.state, committed.table, committed.clock)


def ready_next_move(committed, user_id: int) -> None:
    """A player here was just shown `committed`. When his seat is the one to play next, or the deal has ended (New
    deal), his move will most likely be played on that state: it is decoded ahead, with the row the statement is
    built from, once the loop has written his frame (a later turn of the loop), so his move's round trip does not
    decode it (0.085 ms less at a paced move's p50 in two swapped same-run A/Bs: docs/benchmarks.md, session 29)."""
    if not settings.SVARA_UNLOCKED_MOVES or rows.db().vendor != "postgresql":  # no move is played this way
        return
    state = selectors.decoded(committed)  # the viewers' shared copy, read only: the move needs its own
    seat = seat_of(state, user_id)
    if seat is not None and (state.phase == "waiting" or state.turn == seat):
        asyncio.get_running_loop().call_soon(_spare, committed.table["id"])


def _spare(table_id: int) -> None:
    entry = known.tables.get(table_id)
    if entry is None or entry[2]["status"] != TableStatus.OPEN:
        return
    spare = known.spares.get(table_id)
    if spare is not None and spare.known is entry:
        return
    version, stored, facts, clock = entry
    known.spares[table_id] = Spare(entry, play.TableState.loads(stored), _table(table_id, version, stored, facts, clock))
    _bound(known.spares)


def _taken(table_id: int, entry: tuple) -> tuple[play.TableState, Table | None]:
    """The known state `entry` of the table to play a move on, and its row if decoded ahead (`ready_next_move`):
    each spare serves one move (the engine changes the state it plays on)."""
    spare = known.spares.pop(table_id, None)
    if spare is not None and spare.known is entry:
        return spare.state, spare.table
    return play.TableState.loads(entry[1]), None


def told_accounts(accounts: dict[AccountRef, LedgerAccount] | None) -> tuple:
    """What a change tells every process at the table of its ledger accounts (notify.Change.accounts): the pot's,
    the house account's and the stacks' ids, as (kind, user id, id). Else a process that did not read them itself
    (the other players' sits, a pot opened by a deal played elsewhere) would send its players' bets the locked way."""
    if not accounts:
        return ()
    return tuple((str(ref.kind), ref.user_id, account.pk) for ref, account in accounts.items()
                 if ref.kind in _TABLE_ACCOUNTS)  # fmt: skip


def accounts_told(table_id: int, told) -> None:
    """A change's group message told this process the table's ledger accounts (`told_accounts`)."""
    known.ids_seen(table_id, ((AccountRef(AccountKind(kind), user_id, table_id), pk) for kind, user_id, pk in told))


@dataclass(frozen=True)
class NeedsDealEvents:
    """`plan`'s answer for a move that ends deal `number`, played on the table's `version`: its results come from the
    deal's stored events, so the caller reads them (its own way: a thread's connection, a loop's) and plans again
    with them (DealEvents)."""

    number: int
    version: int


@dataclass(frozen=True)
class DealEvents:
    """The stored events of deal `number`, read after the table's `version` was known committed: every event up to
    it is among them (a later one means the row moved on, and the move's statement writes nothing)."""

    number: int
    version: int
    events: list[dict]


@dataclass(frozen=True)
class Planned:
    """A move played on the known state, not yet written: its statement, and what it answers once written."""

    table_id: int
    played_on: int  # the version
    facts: dict
    statement: tuple[str, list]  # statements.unlocked_statement
    ack: door.Ack


def plan(table_id: int, user, command: Command, client_id: str | None,
         deal_events: DealEvents | None = None) -> Planned | NeedsDealEvents | None:  # fmt: skip
    """`command` played on the state this process knows, with the statement that writes it, or None: then this way
    cannot take it, and the locked way (door._act) must answer it. Reads nothing from the database: a move that
    ends a deal (not a svara) is NeedsDealEvents until the caller has read the deal's events (`deal_events`), and
    None if the known state has moved on meanwhile (the events read may then miss the newer ones)."""
    # A seat's play only, not its comings and goings (a sit, a stand or added chips move a balance, read its
    # limits, change the seats); SQLite has no data-modifying WITH (and one writer at a time anyway).
    if command.kind not in PLAY_KINDS or not isinstance(table_id, int) or rows.db().vendor != "postgresql":
        return None
    memo = known.tables.get(table_id)
    ids = known.accounts.get(table_id)
    if memo is None or ids is None or memo[2]["status"] != TableStatus.OPEN:
        return None
    version, stored, facts, clock = memo
    state, table = _taken(table_id, memo)
    seat = seat_of(state, user.pk)
    if seat is None:
        return None
    before = chips_of(state)
    sitters = history.roster(state)
    deal_before = state.deal_no if state.phase != "waiting" else None
    svara_before = state.svara_chain
    try:
        door.check_move(state, seat, command)
        action = door.engine_move(seat, command)
        events = state.apply(action)
    except (DoorError, play.IllegalAction):
        return None
    after = chips_of(state)
    bots = bot_players(state)  # the seats do not change: these are the bots before the move too
    if after.seats != before.seats or state.standing_answer() is not None:
        return None
    if any(isinstance(event, _NEW_DEAL_ROWS) for event in events):
        return None
    ends = any(isinstance(event, DealEnded) for event in events)
    if ends and (deal_before is None or svara_before):  # a svara's end writes its chain's first row too: locked
        return None
    starts = any(isinstance(event, DealStarted) for event in events)
    if starts and settings.SVARA_DECK_PROVIDER:  # the test settings' queued decks are the locked way's to deal
        return None
    if table is None:
        table = _table(table_id, version, stored, facts, clock)
    try:
        movements = ledger.movements(table_id, table.family, state.version, action, before, after, events, bots)
        if any(movement.kind not in _KINDS for movement in movements):
            return None
        batch = prepare_unlocked(movements, _accounts(ids, before, movements))
    except WalletError:
        return None
    if batch is None:
        return None
    if ends and deal_events is None:
        return NeedsDealEvents(deal_before, version)
    if ends and (deal_events.number, deal_events.version) != (deal_before, version):
        return None
    now = timezone.now()
    stacks = {s: before.stacks[player] for player, s in before.seats.items()}
    openings: list[statements.Opening] = []  # the deal a New deal starts: its rows go in the statement
    ended = history.Ended(deal_events.events, []) if ends else None  # the deal it ends: closed in the statement too
    event_rows = history.record(table, deal_before, svara_before, state.version, events, now,
                                sitters, stacks, state.fair, openings, ended)  # fmt: skip
    door.store_state(table, state, now, action.kind, occupied=True)
    reply = None
    if client_id is not None:
        reply = replies.reply_row(table, user, client_id, door.ack_reply(client_id, table.version))
    named = sorted({(ref, ids[ref]) for m in batch.movements for ref in (m.source, m.destination)},
                   key=lambda pair: pair[1])  # fmt: skip
    accounts = [(pk, str(ref.kind), ref.user_id) for ref, pk in named]
    statement = statements.unlocked_statement(table, (version, stored), event_rows, reply, batch, accounts,
                                              openings[0] if openings else None,
                                              ended.closings[0] if ended is not None else None)  # fmt: skip
    change = door.change_of(table, state, [event.to_json() for event in events], False, after, bots)
    return Planned(table_id, version, facts, statement, door.Ack(door.ack_reply(client_id, table.version), change))


def written(planned: Planned) -> door.Ack:
    """The move's answer once its statement wrote it: this process knows the new state, its viewers are told."""
    change = planned.ack.change
    known.seen(planned.table_id, change.version, change.stored, planned.facts, change.clock)
    notify.table_changes(change)
    return planned.ack


def _failed(planned: Planned, error: Exception, outage: bool = False) -> None:
    """All or nothing: the statement wrote nothing; the locked way answers (and, for an outage, tells why)."""
    # A key taken meanwhile (the same id twice at once): an ordinary race, one line.
    if isinstance(error, (IntegrityError, psycopg.IntegrityError)):
        log.info("table %s v%s: a move without the lock met a key taken meanwhile (%s); the locked way answers",
                 planned.table_id, planned.played_on, in_one_line(error))  # fmt: skip
    elif outage:  # PostgreSQL restarted or cut the loop's connection: the locked way tells the client
        log.warning("table %s v%s: a move without the lock lost its connection (%s); the locked way answers",
                    planned.table_id, planned.played_on, in_one_line(error))  # fmt: skip
    else:
        log.warning("table %s v%s: a move without the lock failed; the locked way answers", planned.table_id,
                    planned.played_on, exc_info=error)  # fmt: skip


def act(table_id: int, user, command: Command, client_id: str | None):
    """On a thread: the door's Ack of `command` played and written in one statement on this thread's connection,
    or None: then nothing was written, and the locked way (door._act) must answer it."""
    planned = plan(table_id, user, command, client_id)
    if isinstance(planned, NeedsDealEvents):
        try:
            stored = reads.deal_events(table_id, planned.number, svara=0)
        except DatabaseError:  # the locked way meets it again, and tells
            return None
        planned = plan(table_id, user, command, client_id, DealEvents(planned.number, planned.version, stored))
    if not isinstance(planned, Planned):
        return None
    try:
        if not statements.write_unlocked(planned.statement):
            return None
    except DatabaseError as error:
        _failed(planned, error)
        return None
    return written(planned)


async def act_from_loop(table_id: int, user, command: Command, client_id: str | None,
                        meanwhile: Callable[[door.Ack], None] | None = None):  # fmt: skip
    """From an event loop (a table's socket): the door's Ack of `command`. A move this way is played and its
    statement awaited on one of the loop's own connections (tables/loop_db.py): no door thread, no hop; while
    PostgreSQL runs it, `meanwhile` is given the Ack it will answer if written (the socket renders its frame then).
    A move that wrote nothing on a row that has moved on is played again on the row as it is now (LOST_RACES).
    Anything else, or a move that wrote nothing otherwise, goes the locked way on a door thread; so does a move when
    no loop connection is free, there still trying this way first. Either way after this process's earlier calls at
    the table."""
    async with table_turn(table_id):
        tried = False
        if settings.SVARA_UNLOCKED_MOVES and user is not None and user.is_authenticated:
            for _race in range(LOST_RACES):
                try:
                    outcome = await _on_loop(table_id, user, command, client_id, meanwhile)
                    tried = True
                    if isinstance(outcome, door.Ack):
                        return outcome
                    # Wrote nothing: played again on the row as it is now, if it has moved on; else the locked way.
                    if outcome is None or not await _moved_on(table_id, outcome):
                        break
                except loop_db.Busy:
                    break
        return await through_the_door(door.act)(table_id, user, command, client_id, unlocked=not tried)


async def _moved_on(table_id: int, played_on: int) -> bool:
    """After a statement that wrote nothing: whether the table's row has moved on from version `played_on`, as this
    process knows it or as the row, read now, says (then known from here on)."""
    if known.version(table_id) > played_on:  # its group message came meanwhile
        return True
    memo = known.tables.get(table_id)
    if memo is None:  # forgotten meanwhile (tests do)
        return False
    try:
        async with loop_db.connection() as connection:
            row = await (await connection.execute(statements.newest_sql(), [table_id])).fetchone()
    except psycopg.Error:  # the locked way meets it again, and tells
        return False
    if row is None:
        return False
    version, stored, status, kind, seats, deadline = row
    known.seen(table_id, version, stored, {**memo[2], "status": status}, clock_from(kind, orjson.loads(seats), deadline))
    return version > played_on


async def _on_loop(table_id: int, user, command: Command, client_id: str | None, meanwhile) -> door.Ack | int | None:
    """The Ack of the move written; or the version it was played on when its statement wrote nothing; or None when
    this way cannot take it (or its statement failed)."""
    try:
        client_id = check_client_id(client_id)
    except DoorError:
        return None  # the door refuses it, in its words
    planned = plan(table_id, user, command, client_id)
    if isinstance(planned, NeedsDealEvents):
        stored = await _deal_events(table_id, planned.number)
        planned = None if stored is None else plan(table_id, user, command, client_id,
                                                   DealEvents(planned.number, planned.version, stored))  # fmt: skip
    if not isinstance(planned, Planned):
        return None
    # Its own task, shielded: a caller cancelled (its socket closed) does not cut the statement off midway; it runs
    # to its end and the connection goes back fit, as a door thread's call runs on.
    running = asyncio.ensure_future(_run_on_loop(planned))
    if meanwhile is not None:
        await asyncio.sleep(0)  # the task sends the statement (it then waits for the answer)
        meanwhile(planned.ack)
    ran = await asyncio.shield(running)
    if ran is None:
        return None
    return written(planned) if ran else planned.played_on


async def _deal_events(table_id: int, number: int) -> list[dict] | None:
    """The stored events of deal `number` (not a svara's), read on one of the loop's connections; None when the read
    failed (the locked way meets it again, and tells)."""
    sql, params = reads.deal_events_statement(table_id, number, 0)
    try:
        async with loop_db.connection() as connection:
            found = await (await connection.execute(sql, params)).fetchall()
    except psycopg.Error:
        return None
    return [reads.event_of(value) for (value,) in found]


async def _run_on_loop(planned: Planned) -> bool | None:
    """Whether the statement wrote; None when it failed."""
    sql, params = planned.statement
    try:
        async with loop_db.connection() as connection:
            cursor = await connection.execute(sql, params)
            return (await cursor.fetchone())[0] == 1
    except psycopg.Error as error:
        _failed(planned, error, outage=is_outage(error))
        return None


def _table(table_id: int, version: int, stored: str, facts: dict, clock: dict | None) -> Table:
    """The table's row as committed at `version` (not read: what the door writes from)."""
    deadline = None if clock is None else datetime.fromisoformat(clock["deadline"])
    return Table(
        pk=table_id, family=facts["family"], ante=facts["ante"], seats=facts["seats"],
        bots_allowed=facts["bots_allowed"], private=facts["private"], status=facts["status"], state=stored,
        version=version, clock_kind="" if clock is None else clock["kind"],
        clock_seats=[] if clock is None else list(clock["seats"]), clock_deadline=deadline, empty_since=None,
    )  # fmt: skip


def _accounts(ids: dict[AccountRef, int], before, movements) -> dict[AccountRef, LedgerAccount]:
    """The accounts the movements name that are known here (a pot's, stacks', the house account's), with the
    balances the state played on gives them (the statement holds only at that state)."""
    accounts = {}
    for ref in {ref for movement in movements for ref in (movement.source, movement.destination)}:
        pk = ids.get(ref)
        if pk is None:
            continue
        if ref.kind == AccountKind.HOUSE:  # it only takes the rake: checked for nothing, added to by the statement
            balance = 0
        else:
            balance = before.pot if ref.kind == AccountKind.POT else before.stacks.get(str(ref.user_id))
        if balance is not None:
            accounts[ref] = LedgerAccount(pk=pk, kind=ref.kind, user_id=ref.user_id, table_id=ref.table_id,
                                          balance=balance)  # fmt: skip
    return accounts
