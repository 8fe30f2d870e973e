"""A move without the table's lock: one statement, which is its own transaction, for the common action in a deal.

The door's usual way (door.py) is four round trips to PostgreSQL: BEGIN, the row's lock (with the stored reply and
the table's ledger accounts), the write, COMMIT. Most actions in a deal (a call, a bet, a fold that ends nothing,
a card opened, a New deal pressed before the last) need nothing the process does not already know: the table as
last committed, which every change brings to this process's sockets in its group message (`seen`), and the ids of
the table's own ledger accounts, which the last locked action here read (`accounts_seen`). Such an action is played
on that known state and written in one statement that holds only if the row still holds that very version and
text (statements.write_unlocked): PostgreSQL's row lock, taken by the UPDATE itself, orders it against every other
writer, and a writer that got there first leaves it writing nothing.

Anything else goes the locked way, from the start: a known state that is not the newest (the statement wrote
nothing), a refusal (the known state may be old: the locked way refuses for certain, in the newest state's words),
an action that starts, ends or splits a deal, moves chips but bets, changes the seats, or calls for a standing
answer; a database error (a single statement either wrote all or nothing). So every answer is the locked way's,
and this path only ever saves the lock and the transaction around one statement.

The chips stay exact without the accounts' locks: a table's stacks and pot move only with its row (door.py), so
at the version played on they hold what its state says; the statement checks the accounts are this table's, and
the ledger's CHECK constraint stays the backstop."""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import DatabaseError, IntegrityError
from django.utils import timezone

from wallet.accounts import WalletError
from wallet.batch import AccountRef, prepare_unlocked
from wallet.models import AccountKind, LedgerAccount, TransferKind

from .. import rows
from ..engine import play
from ..engine.events import BuyIn, DealEnded, DealStarted, Svara
from ..errors import DoorError
from ..models import Table, TableStatus
from ..protocol import PLAY_KINDS, Command
from ..state_io import bot_players, chips_of, seat_of
from . import history, ledger, notify, replies, statements

log = logging.getLogger(__name__)

_DEAL_ROWS = (DealStarted, DealEnded, Svara, BuyIn)  # events whose hand-history rows need statements of their own

_MOVED_BY_BETS = (AccountKind.STACK, AccountKind.POT)  # the only accounts a move this way names
_KNOWN_MAX = 4096  # tables a process keeps (the oldest forgotten first)


class Known:
    """The newest committed state of each table this process has heard of, and its ledger accounts' ids."""

    def __init__(self):
        self.tables: dict[int, tuple[int, str, dict, dict | None]] = {}  # id -> (version, stored, facts, clock)
        self.accounts: dict[int, dict[AccountRef, int]] = {}  # table id -> {its pot's and stacks' refs: account id}

    def seen(self, table_id: int, version: int, stored: str, facts: dict, clock: dict | None) -> None:
        known = self.tables.get(table_id)
        if known is None or known[0] < version:
            self.tables[table_id] = (version, stored, facts, clock)
            _bound(self.tables)

    def accounts_seen(self, table_id: int, accounts: dict[AccountRef, LedgerAccount]) -> None:
        ids = self.accounts.setdefault(table_id, {})
        ids.update((ref, account.pk) for ref, account in accounts.items() if ref.kind in _MOVED_BY_BETS)
        _bound(self.accounts)

    def forget(self) -> None:
        self.tables.clear()
        self.accounts.clear()


def _bound(memo: dict) -> None:
    if len(memo) > _KNOWN_MAX:
        memo.pop(next(iter(memo), None), None)


known = Known()


def seen(committed) -> None:
    """A committed version of a table (selectors.Committed) reached this process: a socket showed it."""
    known.seen(committed.table["id"], committed.version, committed.state, committed.table, committed.clock)


def act(table_id: int, user, command: Command, client_id: str | None):
    """The door's Ack of `command` played and written in one statement, or None: then nothing was written, and the
    locked way (door._act) must answer it."""
    from . import door

    # A seat's play only, not its comings and goings (a sit, a stand or added chips move a balance, read its
    # limits, change the seats); SQLite has no data-modifying WITH (and one writer at a time anyway).
    if command.kind not in PLAY_KINDS or not isinstance(table_id, int) or rows.db().vendor != "postgresql":
        return None
    memo = known.tables.get(table_id)
    ids = known.accounts.get(table_id)
    if memo is None or ids is None or memo[2]["status"] != TableStatus.OPEN:
        return None
    version, stored, facts, clock = memo
    state = play.TableState.loads(stored)
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
    if any(isinstance(event, _DEAL_ROWS) for event in events):
        return None
    table = _table(table_id, version, stored, facts, clock)
    try:
        movements = ledger.movements(table_id, table.family, state.version, action, before, after, events, bots)
        if any(movement.kind != TransferKind.BET for movement in movements):
            return None
        batch = prepare_unlocked(movements, _accounts(ids, before, table_id))
    except WalletError:
        return None
    if batch is None:
        return None
    now = timezone.now()
    stacks = {s: before.stacks[player] for player, s in before.seats.items()}
    event_rows = history.record(table, deal_before, svara_before, state.version, events, now,
                                sitters, stacks, state.fair)  # fmt: skip
    door.store_state(table, state, now, action.kind, occupied=True)
    reply = None
    if client_id is not None:
        reply = replies.reply_row(table, user, client_id, door.ack_reply(client_id, table.version))
    named = sorted({(ref, ids[ref]) for m in batch.movements for ref in (m.source, m.destination)},
                   key=lambda pair: pair[1])  # fmt: skip
    accounts = [(pk, str(ref.kind), ref.user_id) for ref, pk in named]
    try:
        written = statements.write_unlocked(table, (version, stored), event_rows, reply, batch, accounts)
    except IntegrityError as error:  # a key taken meanwhile (the same id twice at once): nothing was written
        log.info("table %s v%s: a move without the lock met a key taken meanwhile (%s); the locked way answers",
                 table_id, version, str(error).splitlines()[0])  # fmt: skip
        return None
    except DatabaseError:  # all or nothing: nothing was written; the locked way answers (and tells why)
        log.warning("table %s v%s: a move without the lock failed; the locked way answers", table_id, version,
                    exc_info=True)  # fmt: skip
        return None
    if not written:
        return None
    change = door.change_of(table, state, [event.to_json() for event in events], False, after, bots)
    known.seen(table_id, table.version, table.state, facts, change.clock)
    notify.table_changes(change)
    return door.Ack(door.ack_reply(client_id, table.version), change)


def _table(table_id: int, version: int, stored: str, facts: dict, clock: dict | None) -> Table:
    """The table's row as committed at `version` (not read: what the door writes from)."""
    deadline = None if clock is None else datetime.fromisoformat(clock["deadline"])
    return Table(
        pk=table_id, family=facts["family"], ante=facts["ante"], seats=facts["seats"],
        bots_allowed=facts["bots_allowed"], private=facts["private"], status=facts["status"], state=stored,
        version=version, clock_kind="" if clock is None else clock["kind"],
        clock_seats=[] if clock is None else list(clock["seats"]), clock_deadline=deadline, empty_since=None,
    )  # fmt: skip


def _accounts(ids: dict[AccountRef, int], before, table_id: int) -> dict[AccountRef, LedgerAccount]:
    """The table's pot and its players' stacks known here, with the balances the state played on gives them (the
    statement holds only at that state)."""
    balances = {AccountRef.pot(table_id): before.pot}
    for player, chips in before.stacks.items():
        balances[AccountRef.stack(int(player), table_id)] = chips
    return {
        ref: LedgerAccount(pk=ids[ref], kind=ref.kind, user_id=ref.user_id, table_id=ref.table_id, balance=balance)
        for ref, balance in balances.items()
        if ref in ids
    }
