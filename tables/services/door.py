"""The door: creating and closing tables, a player's action, and a clock running out.

Every change is one transaction: lock the table's row (one statement, which also looks up a repeated message id's
stored reply and, on PostgreSQL, locks the ledger accounts of its pot, house account and seated stacks), apply one
engine action to the stored state, check every chip the action moved as one ledger batch (no statement of its own
for those accounts), then write that batch's transfers and balances, append the deal's events, write the new state
with its version and clock, and store the reply when the message carried an id (one statement on PostgreSQL:
statements.py). Only after commit are the table's viewers, the lobby, the listeners and the clock told (notify.py).
Lock order everywhere: the table row first with its own pot, house account and seated stacks, then (a buy-in or
chips added) the player's own limits row (wallet/limits.py), then other ledger rows in primary-key order. Only a
holder of a table's row ever locks its pot, house account and stacks, so they never wait in a cycle with the
accounts locked after them.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from datetime import timedelta
from functools import cache

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.module_loading import import_string
from django.utils.translation import gettext_lazy as _

from wallet import limits
from wallet.accounts import WalletError, open_table_accounts
from wallet.batch import prepare

from .. import access, rows
from ..engine import play
from ..engine.actions import MOVE_KINDS
from ..engine.rules import MAX_ANTE, MAX_STACK_ANTES, MIN_BUY_IN_ANTES, SEATS_BY_FAMILY
from ..errors import DoorError, said
from ..models import Family, Table, TableSeat, TableStatus
from ..protocol import Command, check_client_id, parse_action
from ..refusals import engine_refusal
from ..selectors import clock_of, facts_of
from ..state_io import bot_players, chips_of, free_seats, seat_of
from ..words import moves
from . import history, ledger, notify, optimistic, presence, replies, statements

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Ack:
    """An applied message: its reply, and the committed change (None when a repeated id got its stored reply)."""

    reply: dict
    change: notify.Change | None = None

    @property
    def version(self) -> int:
        return self.reply["version"]


# --- creating and closing tables ---


def create_table(user, family, ante, seats, bots_allowed=False, *, kept_open=False, private=False) -> Table:
    """A player (or staff) opens a table; bad input is a DoorError with a clear message. `kept_open`: set up by
    staff, it never closes for being empty. `private`: seen and sat at only with its invite link (access.py)."""
    must_be_logged_in(user, _("Log in to create a table."))
    _within_limits(limits.check_may_create, user)
    if family not in Family.values:
        raise DoorError("bad_field", said(_("The rule family must be one of %(families)s, not %(family)s."),
                                          families=", ".join(Family.values), family=repr(family)))  # fmt: skip
    if isinstance(ante, bool) or not isinstance(ante, int) or not 1 <= ante <= MAX_ANTE:
        raise DoorError("out_of_range", said(_("The ante must be a whole number of chips from 1 to %(max)s, not %(ante)s."),
                                             max=MAX_ANTE, ante=repr(ante)))  # fmt: skip
    low, high = SEATS_BY_FAMILY[family]
    if isinstance(seats, bool) or not isinstance(seats, int) or not low <= seats <= high:
        raise DoorError("out_of_range", said(_("A %(family)s table has %(low)s to %(high)s seats, not %(seats)s."),
                                             family=_(family), low=low, high=high, seats=repr(seats)))  # fmt: skip
    if not isinstance(bots_allowed, bool):
        raise DoorError("bad_field", _("Whether bots may sit must be true or false."))
    if not isinstance(private, bool):
        raise DoorError("bad_field", _("Whether the table is private must be true or false."))
    state = play.TableState.new(family, ante, seats)
    with transaction.atomic():
        _check_tables_of(user)
        table = Table.objects.create(
            family=family, ante=ante, seats=seats, bots_allowed=bots_allowed, kept_open=kept_open, created_by=user,
            private=private, invite_token=access.new_token() if private else "", state=state.dumps(),
            version=state.version, empty_since=timezone.now(),
        )  # fmt: skip
        open_table_accounts(table.pk)
        from lobby.notify import table_changed as lobby_table_changed

        transaction.on_commit(lambda: lobby_table_changed(table.pk))
    return table


def close_table(table_id: int, staff=None, *, idle_before=None) -> Table:
    """Close a table: everybody is stood up and cashed out first, through the door, then nobody may act.

    With `idle_before`, close only a players' table nobody has sat at since then (checked under the lock)."""
    with transaction.atomic():
        table = lock(table_id)
        if not table.is_open:
            return table
        if idle_before is not None and (
            table.kept_open or table.empty_since is None or table.empty_since >= idle_before
        ):
            raise DoorError("illegal_action", f"Table {table_id} is not idle.")
        state = loads(table)
        if staff is not None and not getattr(staff, "is_staff", False):
            raise DoorError("illegal_action", "Only staff close a table.")
        # Its stand-ups and clocks move chips in several batches (a balance now, the bots' pool later): every account
        # they can touch is locked here first, in primary-key order, as a single move locks those it does not hold
        # yet (the pot, house account and stacks came with the row), so a player seated at two tables cannot
        # deadlock this closing against a move at his other table.
        ledger.lock_accounts(table.pk, chips_of(state).seats)
        # The actions share one state object, so only the closing itself is announced, with the final state.
        for seat in sorted(chips_of(state).seats.values()):
            if not state.seats[seat].leaving:
                play_action(table, state, play.Action("stand", seat=seat), announce=False)
        # Seats of players folded mid-deal free when the deal ends: play the clocks out until it has.
        for _round in range(50):
            if not chips_of(state).stacks or state.clock is None:
                break
            play_action(table, state, play.Action("timeout"), announce=False)
        left = chips_of(state)
        if left.stacks or left.pot:
            raise DoorError("illegal_action", f"Table {table_id} still holds chips ({left}); it cannot close yet.")
        table.status = TableStatus.CLOSED
        table.closed_at = timezone.now()
        table.closed_by = staff
        table.clock_kind, table.clock_seats, table.clock_deadline = "", [], None
        table.save(update_fields=["status", "closed_at", "closed_by", "clock_kind", "clock_seats", "clock_deadline"])
        closed = change_of(table, state, (), True, left, bot_players(state))
        transaction.on_commit(lambda: notify.table_changes(closed))
    return table


def _check_tables_of(user) -> None:
    """A player keeps at most SVARA_OPEN_TABLES_PER_PLAYER open tables of his own creating (staff and the house's
    bots are not counted): the user's row is locked, so two creations at once cannot both pass the count."""
    if user.is_staff or user.is_bot:
        return
    limit = settings.SVARA_OPEN_TABLES_PER_PLAYER
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    if Table.objects.filter(created_by=user, status=TableStatus.OPEN).count() >= limit:
        raise DoorError(
            "limit_reached",
            said(_("You already have %(limit)s open tables of your own; play at one, or wait until one closes (an "
                   "empty table closes by itself after a while)."), limit=limit),  # fmt: skip
        )


# --- a player's action ---


def act(table_id: int, user, action: Command | dict, client_id=None, *, unlocked: bool = True) -> Ack:
    """Apply one player's command to the table: returns the Ack, or raises DoorError and changes nothing.

    `action` is a protocol Command (or its dict form `{"kind", "amount"?, "card"?, "seat"?}`). A repeated
    `client_id` gets the stored reply and is never applied twice. A move in a deal on the state this process
    knows is tried first in one statement without the row's lock (optimistic.py); anything that cannot go that
    way, or finds the table moved on, goes the locked way (at once with `unlocked=False`: a socket's event loop
    tried it already, optimistic.act_from_loop)."""
    must_be_logged_in(user, _("Log in to take a seat and play; anonymous visitors may only watch."))
    command = parse_action(action)
    client_id = check_client_id(client_id)
    if unlocked and settings.SVARA_UNLOCKED_MOVES and not rows.db().in_atomic_block:  # the statement is its own transaction
        ack = optimistic.act(table_id, user, command, client_id)
        if ack is not None:
            return ack
    return answered_once(lambda: _act(table_id, user, command, client_id), table_id, user, client_id)


def answered_once(handle, table_id, user, client_id, answer=Ack):
    """Run a handler of a message with an id. Another handler of the same id may have committed while this one
    waited for the table's lock (its locking statement still saw no reply): then this one's answer is that
    reply, whether it ran into the stored reply (replies.RepliedMeanwhile) or into a refusal the first one's
    change caused (e.g. "not your turn" after the first one's call). Either way its transaction rolled back."""
    while True:
        try:
            return handle()
        except replies.RepliedMeanwhile:
            continue
        except DoorError:
            stored = replies.stored(table_id, user, client_id) if client_id is not None else None
            if stored is None:
                raise
            return answer(stored)


def _act(table_id: int, user, command: Command, client_id) -> Ack:
    with transaction.atomic():
        table, stored = enter(table_id, user, client_id)
        if stored is not None:
            return Ack(stored)
        ledger_accounts = getattr(table, "ledger_accounts", None)
        if ledger_accounts is not None:  # the next move here may go without the lock (optimistic.py)
            optimistic.known.accounts_seen(table.pk, ledger_accounts)
        state = loads(table)
        seat = seat_of(state, user.pk)
        if seat is None and not access.may_sit(table, user):  # a private table does not exist without the link
            raise DoorError("no_such_table", said(_("There is no table %(table)s."), table=repr(table_id)))
        if command.kind == "sit":
            engine_action = _sit_action(table, state, user, seat, command)
            if not user.is_bot:
                _within_limits(limits.check_buy_in, user.pk, command.amount, _("sit down"))
        else:
            if seat is None:
                raise DoorError("not_seated", _("You do not sit at this table."))
            if command.kind == "add_chips":
                _check_add_chips(table, state, seat, command.amount)
                _within_limits(limits.check_buy_in, user.pk, command.amount, _("add chips"))
            check_move(state, seat, command)
            engine_action = engine_move(seat, command)
        change = play_action(table, state, engine_action, reply_to=None if client_id is None else (user, client_id))
        reply = ack_reply(client_id, table.version)
        if command.kind == "sit":
            presence.sat_down(table, user)
    optimistic.known.seen(table.pk, change.version, change.stored, facts_of(table), change.clock)
    return Ack(reply, change)


def sit(table_id: int, user, amount: int, seat: int | None = None, client_id=None) -> Ack:
    """Take a seat with a table buy-in of 20–100 antes (a bot's comes from the bots' pool)."""
    return act(table_id, user, Command("sit", amount=amount, seat=seat), client_id)


def stand(table_id: int, user, client_id=None) -> Ack:
    return act(table_id, user, Command("stand"), client_id)


# --- a clock running out ---


def run_out_clock(table_id: int, version: int | None = None) -> bool:
    """The running clock's time is up: apply §9 through the door. A no-op (False) when the version moved on
    since the task was scheduled, when no clock runs, or when its deadline is still ahead.

    A refused timeout (a fault: the rules always allow one) is undone whole, logged once as an error, and its
    clock stopped with the reason kept on the table for staff: no enforcer retries it every second."""
    # Most clock tasks find the table moved on: one plain read tells, without a transaction or a lock.
    due = Table.objects.filter(pk=table_id, status=TableStatus.OPEN, clock_deadline__lte=timezone.now())
    if not (due if version is None else due.filter(version=version)).exists():
        return False
    with transaction.atomic():
        table = lock(table_id)
        if not table.is_open or table.clock_deadline is None:
            return False
        if version is not None and table.version != version:
            return False
        if table.clock_deadline > timezone.now():
            return False
        state = loads(table)
        try:
            with transaction.atomic():  # a refusal undoes every row the action wrote before it (the ledger's too)
                play_action(table, state, play.Action("timeout"))
        except DoorError as error:
            log.error("timeout refused at table %s v%s, its clock is stopped: %s", table_id, table.version,
                      error.message)  # fmt: skip
            Table.objects.filter(pk=table_id).update(
                clock_deadline=None, fault=f"v{table.version}: timeout refused: {error.message}"[:500]
            )
            return False
    return True


# --- inside the door ---


def _within_limits(check, *args) -> None:
    """The player's own limits (wallet/limits.py): a refusal says which limit and until when."""
    try:
        check(*args)
    except limits.LimitError as refused:
        raise DoorError(refused.code, refused.said) from None


def must_be_logged_in(user, message) -> None:
    if user is None or not getattr(user, "is_authenticated", False):
        raise DoorError("login_required", message)


def lock(table_id, reply_to: tuple[int, str] | None = None) -> Table:
    """The table's row, locked until the transaction ends; with `reply_to` (user id, client id), the same
    statement fetches the stored reply to that message as `table.stored_reply`."""
    try:
        table = statements.lock_row(int(table_id), reply_to)
    except (ValueError, TypeError, OverflowError):
        table = None
    if table is None:
        raise DoorError("no_such_table", said(_("There is no table %(table)s."), table=repr(table_id)))
    return table


def enter(table_id: int, user, client_id) -> tuple[Table, dict | None]:
    """Inside the caller's transaction: lock the table; a repeated client id gets its stored reply back (never
    applied twice); a closed table refuses."""
    table = lock(table_id, None if client_id is None else (user.pk, client_id))
    stored = getattr(table, "stored_reply", None)
    if stored is not None:
        return table, stored
    if not table.is_open:
        raise DoorError("table_closed", said(_("Table %(table)s is closed."), table=table_id))
    return table, None


def loads(table: Table) -> play.TableState:
    return play.TableState.loads(table.state)


@cache
def _deck_provider(path: str):
    return import_string(path)


def _decks_for(table: Table):
    """The test settings' deck provider (SVARA_DECK_PROVIDER) for this table's next deal, else None."""
    path = settings.SVARA_DECK_PROVIDER
    return _deck_provider(path).for_table(table) if path else None


def ack_reply(client_id, version: int) -> dict:
    return {"type": "ack", "id": client_id, "version": version}


def play_action(
    table: Table, state: play.TableState, action: play.Action, announce: bool = True, reply_to=None,
    answer_standing: bool = True,
) -> notify.Change:
    """Apply one engine action under the table's lock and write everything it moved, then the answers of the
    standing choices it calls for; the ack to the message `reply_to` (user, client id), if it carried an id, is
    written with the last of them. After commit, tell (unless the caller announces a later change of the same
    transaction instead)."""
    before = chips_of(state)
    bots = bot_players(state)  # before the action too: a bot whose seat it vacates cashes out to the pool
    deal_before = state.deal_no if state.phase != "waiting" else None
    svara_before = state.svara_chain
    sitters = history.roster(state)  # who plays a deal this action may start (a seat it vacates keeps its name)
    decks = _decks_for(table)
    try:
        events = state.apply(action, rng=decks) if decks is not None else state.apply(action)
    except play.IllegalAction as error:
        raise DoorError("illegal_action", engine_refusal(str(error))) from None
    if decks is not None:
        decks.done()
    after = chips_of(state)
    bots |= bot_players(state)
    try:  # checked under the accounts' locks here, written with the state below
        batch = prepare(ledger.movements(table.pk, table.family, state.version, action, before, after, events, bots),
                        held=getattr(table, "ledger_accounts", None), replay=False)  # fmt: skip
    except WalletError as error:
        raise _refused(error) from None
    if batch.locked:  # those it opened too: the next bet here may go without the lock (optimistic.py)
        optimistic.known.accounts_seen(table.pk, batch.locked)
    now = timezone.now()
    stacks = {seat: before.stacks[player] for player, seat in before.seats.items()}
    event_rows = history.record(table, deal_before, svara_before, state.version, events, now, sitters, stacks,
                                 state.fair)
    store_state(table, state, now, action.kind, occupied=bool(after.stacks))
    answer = state.standing_answer()  # a standing choice this change calls for: answered next, in this transaction
    reply = None
    if reply_to is not None and answer is None:  # the ack carries the version of the message's last change
        user, client_id = reply_to
        reply = replies.reply_row(table, user, client_id, ack_reply(client_id, table.version))
    try:
        written = statements.write_action(table, event_rows, reply, batch)
    except WalletError as error:
        raise _refused(error) from None
    if not written:
        raise replies.RepliedMeanwhile(client_id)
    seats_changed = after.seats != before.seats
    if seats_changed:
        _mirror_seats(table, after)
    accounts = {**getattr(table, "ledger_accounts", {}), **batch.locked}  # those read under the lock, those opened
    change = change_of(table, state, [event.to_json() for event in events], seats_changed, after, bots, accounts)
    if announce:
        transaction.on_commit(lambda: notify.table_changes(change))
    if answer is None or not answer_standing:
        return change
    return _answer_standing(table, state, change, announce, answer, reply_to)


def _refused(error: WalletError) -> DoorError:
    return DoorError("wallet", error.args[0] if error.args else str(error))  # its words may be lazy


STANDING_ANSWERS_MAX = 64  # more than a deal's prompts: a bound against a fault, never reached in play


def _answer_standing(table: Table, state: play.TableState, change: notify.Change, announce: bool, answer,
                     reply_to) -> notify.Change:  # fmt: skip
    """A standing choice answers at once, in the same transaction as the change that raised its prompt (each
    answer is its own version, told in order). The change returned holds every answer's events too, for the
    player whose action it was."""
    events = list(change.events)
    for _answer in range(STANDING_ANSWERS_MAX):
        change = play_action(table, state, answer, announce, reply_to, answer_standing=False)
        events += change.events
        answer = state.standing_answer()
        if answer is None:
            break
    else:
        log.error("table %s v%s: standing choices kept answering; stopped", table.pk, table.version)
    return replace(change, events=tuple(events))


def change_of(table: Table, state, events, seats_changed: bool, chips, bots: set[str], accounts=None) -> notify.Change:
    """The committed change, from the table as written; `chips` are the state's (chips_of), `bots` include every
    bot seated in it; `accounts`, the table's ledger accounts the change read under its lock (with those it opened),
    are told to every process at the table (optimistic.told_accounts)."""
    return notify.Change(
        table_id=table.pk, version=table.version, stored=table.state, state=state, events=tuple(events),
        clock=clock_of(table), status=table.status, seats_changed=seats_changed,
        bot_seats=frozenset(seat for player, seat in chips.seats.items() if player in bots),
        accounts=optimistic.told_accounts(accounts),
    )  # fmt: skip


def store_state(table: Table, state, now, kind: str, occupied: bool) -> None:
    """The table's new state, version, clock and emptiness, on the row object (written by write_action)."""
    clock = state.clock
    if clock is None:
        table.clock_kind, table.clock_seats, table.clock_deadline = "", [], None
    else:
        seats = sorted(int(s) for s in clock.seats)
        # The same clock still waiting on (some of) the same seats keeps its deadline: opening a card, somebody
        # sitting down, or one of two tied players answering must not restart anybody's time. A timeout always does.
        same = (
            table.clock_deadline is not None
            and table.clock_kind == clock.kind
            and set(seats) <= set(table.clock_seats)
            and kind != "timeout"
        )
        if not same:
            table.clock_deadline = now + timedelta(seconds=clock.seconds * settings.SVARA_CLOCK_SCALE)
        table.clock_kind, table.clock_seats = clock.kind, seats
    table.state = state.dumps()
    table.version = state.version
    if occupied:
        table.empty_since = None
    elif table.empty_since is None:
        table.empty_since = now


def _mirror_seats(table: Table, after) -> None:
    TableSeat.objects.filter(table=table).exclude(user_id__in=[int(p) for p in after.seats]).delete()
    existing = {str(s.user_id): s for s in TableSeat.objects.filter(table=table)}
    for player, seat in after.seats.items():
        row = existing.get(player)
        if row is None:
            TableSeat.objects.create(table=table, seat=seat, user_id=int(player), stack=after.stacks[player])
        elif row.seat != seat:
            TableSeat.objects.filter(pk=row.pk).update(seat=seat)


def _sit_action(table, state, user, seat, command: Command) -> play.Action:
    if seat is not None:
        raise DoorError("already_seated", said(_("You already sit at seat %(seat)s of this table (one seat per player)."), seat=seat))
    if user.is_bot and not table.bots_allowed:
        raise DoorError("illegal_action", _("Bots may not sit at this table."))
    amount = command.amount
    low, high = MIN_BUY_IN_ANTES * table.ante, MAX_STACK_ANTES * table.ante
    if not low <= amount <= high:
        raise DoorError(
            "out_of_range",
            said(_("The table buy-in is %(low)s to %(high)s chips (%(min_antes)s to %(max_antes)s antes of %(ante)s), "
                   "not %(amount)s."), low=low, high=high, min_antes=MIN_BUY_IN_ANTES, max_antes=MAX_STACK_ANTES,
                 ante=table.ante, amount=amount),  # fmt: skip
        )
    free = free_seats(state)
    wanted = command.seat
    if wanted is None:
        if not free:
            raise DoorError("seat_taken", _("Every seat at this table is taken."))
        wanted = free[0]
    elif not 0 <= wanted < table.seats:
        raise DoorError("out_of_range", said(_("This table has seats 0 to %(last)s, not %(seat)s."), last=table.seats - 1, seat=wanted))
    elif wanted not in free:
        raise DoorError("seat_taken", said(_("Seat %(seat)s is taken."), seat=wanted))
    return play.Action("sit", seat=wanted, player=str(user.pk), name=user.table_name, amount=amount, bot=user.is_bot)


def _check_add_chips(table, state, seat, amount) -> None:
    stack = state.seats[seat].stack
    high = MAX_STACK_ANTES * table.ante
    if stack + amount > high:
        raise DoorError(
            "out_of_range",
            said(_("A stack may hold at most %(high)s chips (%(antes)s antes); with %(stack)s you may add up to "
                   "%(room)s."), high=high, antes=MAX_STACK_ANTES, stack=stack, room=max(high - stack, 0)),  # fmt: skip
        )


def _check_amount(state, seat, command: Command) -> None:
    """An amount outside what `legal` offers for the move is out_of_range (docs/protocol.md); a move not offered at
    all is the engine's to refuse (illegal_action, with its reason)."""
    if command.amount is None or command.kind not in MOVE_KINDS:
        return
    offered = next((legal for legal in state.legal_moves(seat) if legal.kind == command.kind), None)
    if offered is None or offered.min is None or offered.min <= command.amount <= offered.max:
        return
    if offered.min == offered.max:
        message = _("The amount of a %(kind)s is exactly %(low)s now, not %(amount)s.")
    else:
        message = _("The amount of a %(kind)s is %(low)s to %(high)s now, not %(amount)s.")
    raise DoorError("out_of_range", said(message, kind=moves(command.kind), low=offered.min, high=offered.max,
                                         amount=command.amount))  # fmt: skip


def check_move(state, seat: int, command: Command) -> None:
    """A seated player's play (not a sit, a stand or added chips): refused with the clearest reason the door
    gives before the engine's own (whose turn it is, the amount's range)."""
    _check_turn(state, seat, command.kind)
    _check_amount(state, seat, command)


def engine_move(seat: int, command: Command) -> play.Action:
    return play.Action(command.kind, seat=seat, amount=command.amount, card=command.card, choice=command.choice,
                       seed=command.seed)  # fmt: skip


def _check_turn(state, seat, kind) -> None:
    """'Not your turn' is clearer than the engine's general refusal when another seat's clock runs."""
    if kind in MOVE_KINDS and kind != "open":  # a card may be opened at any moment of the deal
        clock = state.clock
        if clock is None or seat not in list(clock.seats):
            if kind not in {legal.kind for legal in state.legal_moves(seat)}:
                if clock:
                    refused = said(_("It is not your turn: seat %(seats)s is to act."),
                                   seats=", ".join(map(str, clock.seats)))  # fmt: skip
                else:
                    refused = _("It is not your turn: nobody is to act.")
                raise DoorError("not_your_turn", refused)
