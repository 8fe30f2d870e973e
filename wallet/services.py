"""The services for each chip movement, one `Movement` each through `wallet.batch.move`.

`move` is the one way chips move: a batch of movements under row locks taken in primary-key order, applied in
order to the locked balances, never below zero, once per key (see `wallet.batch`). The table server moves every
chip of one action as one batch; each service here is that batch of one, with the rules that need the user or
the table (staff, bots, 20 to 100 antes). Every service is atomic on its own and may run inside the caller's
transaction; a refused movement raises `WalletError` and moves nothing, leaving the caller's transaction usable
(but for a key taken by another transaction at that very moment: then the caller's block is marked to roll back).

The services that touch a table's stack or pot (buy-in, chips added, cash-out, paying in and out, the rake, a
bot's buy-in and cash-out) belong under that table's row lock, as the door holds it: the door locks a table's pot
and stacks with its row, before the other accounts it moves, which is safe only because nothing else locks them
(tables/services/door.py). Outside the door they serve the ledger's own benchmark and tests.
"""

from functools import wraps
from uuid import uuid4

from django.db import transaction

from tables.engine.rules import MAX_STACK_ANTES, MIN_BUY_IN_ANTES

from .accounts import WalletError
from .batch import AccountRef, Movement, move
from .models import Transfer, TransferKind

__all__ = [
    "WalletError",
    "AccountRef",
    "Movement",
    "move",
    "credit",
    "welcome",
    "debit",
    "buy_in",
    "add_chips",
    "cash_out",
    "pay_in",
    "pay_out",
    "take_rake",
    "fund_bots",
    "bot_buy_in",
    "bot_cash_out",
    "MIN_BUY_IN_ANTES",
    "MAX_STACK_ANTES",
]

# §10: sitting down costs 20 to 100 antes; adding chips may bring the stack up to 100 antes (D15): MIN_BUY_IN_ANTES
# and MAX_STACK_ANTES, imported above from the rules' numbers and re-exported for the door.


def _check_amount(amount, *, allow_zero: bool = False) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise WalletError(f"An amount of chips must be a whole number, not {amount!r}.")
    if amount < 0 or (amount == 0 and not allow_zero):
        raise WalletError(f"An amount of chips must be positive, not {amount}.")
    return amount


def _check_ante(ante) -> int:
    if isinstance(ante, bool) or not isinstance(ante, int) or ante <= 0:
        raise WalletError(f"The ante must be a positive whole number, not {ante!r}.")
    return ante


def _user_id(user) -> int:
    if user is None or getattr(user, "pk", None) is None:
        raise WalletError("A ledger account needs a saved user.")
    return user.pk


def _move_one(kind, source: AccountRef, destination: AccountRef, amount: int, key: str, **extra) -> Transfer:
    """One movement as a batch of one. `move` writes nothing when it refuses, so inside the caller's transaction
    it needs no savepoint of its own; outside one it gets its own transaction."""
    movement = Movement(kind, source, destination, amount, key, **extra)
    if transaction.get_connection().in_atomic_block:
        return move([movement])[0]
    with transaction.atomic():
        return move([movement])[0]


def _durable(service):
    """The service's commit waits for the disk, whatever the connection's default (the table server's actions
    commit asynchronously: config/settings/base.py), so a staff credit or debit is never lost to a crash."""

    @wraps(service)
    def durably(*args, **kwargs):
        with transaction.atomic():
            connection = transaction.get_connection()
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute("SET LOCAL synchronous_commit TO on")
            return service(*args, **kwargs)

    return durably


def _check_staff(staff):
    if staff is None or not getattr(staff, "is_staff", False) or not getattr(staff, "is_active", False):
        raise WalletError("Only an active staff member may credit or debit a balance.")
    return staff


def _check_reason(reason) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise WalletError("A credit or debit needs a reason.")
    reason = reason.strip()
    if len(reason) > 255:
        raise WalletError("A reason may be at most 255 characters long.")
    return reason


def _check_player(user):
    if getattr(user, "is_bot", False):
        raise WalletError("Bots have no balance; their chips come from the bots' pool.")
    return user


@_durable
def credit(user, amount: int, *, reason: str, staff, key: str | None = None) -> Transfer:
    """Staff give a player chips from the treasury, with a reason recorded against them."""
    _check_player(user)
    return _move_one(
        TransferKind.CREDIT,
        AccountRef.treasury(),
        AccountRef.balance(_user_id(user)),
        _check_amount(amount),
        key or f"credit:{uuid4()}",
        memo=_check_reason(reason),
        actor_id=_check_staff(staff).pk,
    )


def welcome(user, amount: int) -> Transfer | None:
    """A new player's starting chips, from the treasury like a staff credit, once per player (the key is his id):
    so a newcomer can sit down at once. Called in the transaction that creates the account; 0 grants nothing."""
    _check_player(user)
    if _check_amount(amount, allow_zero=True) == 0:
        return None
    return _move_one(
        TransferKind.WELCOME,
        AccountRef.treasury(),
        AccountRef.balance(_user_id(user)),
        amount,
        f"welcome:{_user_id(user)}",
        memo="welcome chips",
    )


@_durable
def debit(user, amount: int, *, reason: str, staff, key: str | None = None) -> Transfer:
    """Staff take chips from a player's balance back to the treasury."""
    _check_player(user)
    return _move_one(
        TransferKind.DEBIT,
        AccountRef.balance(_user_id(user)),
        AccountRef.treasury(),
        _check_amount(amount),
        key or f"debit:{uuid4()}",
        memo=_check_reason(reason),
        actor_id=_check_staff(staff).pk,
    )


def buy_in(user, table_id: int, amount: int, *, ante: int, key: str) -> Transfer:
    """Sitting down: 20 to 100 antes from the player's balance to his (empty) stack at the table (§10)."""
    _check_player(user)
    ante, amount = _check_ante(ante), _check_amount(amount)
    low, high = MIN_BUY_IN_ANTES * ante, MAX_STACK_ANTES * ante
    if not low <= amount <= high:
        raise WalletError(
            f"The table buy-in is {low} to {high} chips (20 to 100 antes of {ante}), not {amount}."
        )
    user_id = _user_id(user)
    return _move_one(
        TransferKind.BUY_IN, AccountRef.balance(user_id), AccountRef.stack(user_id, table_id), amount, key
    )


def add_chips(user, table_id: int, amount: int, *, ante: int, stack: int, key: str) -> Transfer:
    """Between deals: more chips from the balance, the stack staying at most 100 antes (D15)."""
    _check_player(user)
    ante, amount = _check_ante(ante), _check_amount(amount)
    if isinstance(stack, bool) or not isinstance(stack, int) or stack < 0:
        raise WalletError(f"The current stack must be a whole number of chips, not {stack!r}.")
    high = MAX_STACK_ANTES * ante
    if stack + amount > high:
        raise WalletError(
            f"A stack may hold at most {high} chips (100 antes of {ante}); with {stack} you may add up to "
            f"{max(high - stack, 0)}, not {amount}."
        )
    user_id = _user_id(user)
    return _move_one(
        TransferKind.ADD_CHIPS, AccountRef.balance(user_id), AccountRef.stack(user_id, table_id), amount, key
    )


def cash_out(user, table_id: int, amount: int, *, key: str) -> Transfer | None:
    """Standing up: the stack returns to the balance. Nothing to return (0) moves nothing and gives None."""
    _check_player(user)
    if _check_amount(amount, allow_zero=True) == 0:
        return None
    user_id = _user_id(user)
    return _move_one(
        TransferKind.CASH_OUT, AccountRef.stack(user_id, table_id), AccountRef.balance(user_id), amount, key
    )


def pay_in(user, table_id: int, amount: int, *, key: str) -> Transfer | None:
    """An ante, bet, call or svara buy-in: stack → pot. 0 moves nothing and gives None."""
    if _check_amount(amount, allow_zero=True) == 0:
        return None
    return _move_one(
        TransferKind.BET, AccountRef.stack(_user_id(user), table_id), AccountRef.pot(table_id), amount, key
    )


def pay_out(user, table_id: int, amount: int, *, key: str) -> Transfer | None:
    """Winnings: pot → stack. 0 moves nothing and gives None."""
    if _check_amount(amount, allow_zero=True) == 0:
        return None
    return _move_one(
        TransferKind.PAY_OUT, AccountRef.pot(table_id), AccountRef.stack(_user_id(user), table_id), amount, key
    )


def take_rake(table_id: int, amount: int, *, family: str, key: str) -> Transfer | None:
    """The house's rake (§8): pot → house, recorded with the table and rule family. 0 moves nothing."""
    if not isinstance(family, str) or not family:
        raise WalletError("The rake must record the table's rule family.")
    if _check_amount(amount, allow_zero=True) == 0:
        return None
    return _move_one(TransferKind.RAKE, AccountRef.pot(table_id), AccountRef.house(table_id), amount, key,
                     family=family)  # fmt: skip


@_durable
def fund_bots(amount: int, key: str, *, staff=None, reason: str = "") -> Transfer:
    """Treasury → bots' pool: the chips bots sit down with."""
    return _move_one(
        TransferKind.BOT_SEED,
        AccountRef.treasury(),
        AccountRef.bots_pool(),
        _check_amount(amount),
        key,
        memo=reason.strip() if isinstance(reason, str) else "",
        actor_id=staff.pk if staff is not None else None,
    )


def _check_bot(bot_user):
    if bot_user is None or not getattr(bot_user, "is_bot", False):
        raise WalletError("Only a bot draws its stack from the bots' pool.")
    return bot_user


def bot_buy_in(bot_user, table_id: int, amount: int, key: str) -> Transfer:
    """A bot sits down: bots' pool → the bot's stack at the table."""
    return _move_one(
        TransferKind.BOT_BUY_IN,
        AccountRef.bots_pool(),
        AccountRef.stack(_user_id(_check_bot(bot_user)), table_id),
        _check_amount(amount),
        key,
    )


def bot_cash_out(bot_user, table_id: int, amount: int, key: str) -> Transfer | None:
    """A bot stands up: its stack returns to the bots' pool. 0 moves nothing and gives None."""
    _check_bot(bot_user)
    if _check_amount(amount, allow_zero=True) == 0:
        return None
    return _move_one(
        TransferKind.BOT_CASH_OUT, AccountRef.stack(_user_id(bot_user), table_id), AccountRef.bots_pool(), amount, key
    )
