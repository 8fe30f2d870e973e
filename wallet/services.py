"""The one way chips move: `transfer`, and the services for each movement built on it.

Every service is atomic on its own and may run inside the caller's transaction (the table server moves chips in
the same transaction as the table state). Accounts are locked with `select_for_update` in primary-key order so two
transfers never wait on each other in a cycle; balances are checked under those locks and, as a backstop, by the
database's CHECK constraints. A refused movement raises `WalletError` and moves nothing.
"""

from collections.abc import Callable, Iterable
from uuid import uuid4

from django.db import IntegrityError, transaction
from django.db.models import Case, F, Value, When

from tables.engine.rules import MAX_STACK_ANTES, MIN_BUY_IN_ANTES

from .accounts import (
    WalletError,
    balance_account,
    bots_pool_account,
    house_account,
    pot_account,
    stack_account,
    treasury_account,
)
from .models import AccountKind, LedgerAccount, Transfer, TransferKind

__all__ = [
    "WalletError",
    "transfer",
    "lock_accounts",
    "credit",
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

Guard = Callable[[LedgerAccount, LedgerAccount], None]


def _check_amount(amount, *, allow_zero: bool = False) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise WalletError(f"An amount of chips must be a whole number, not {amount!r}.")
    if amount < 0 or (amount == 0 and not allow_zero):
        raise WalletError(f"An amount of chips must be positive, not {amount}.")
    return amount


def _check_key(key) -> str:
    if not isinstance(key, str) or not key.strip():
        raise WalletError("Every transfer needs an idempotency key (a non-empty string).")
    if len(key) > 200:
        raise WalletError("An idempotency key may be at most 200 characters long.")
    return key


def _check_ante(ante) -> int:
    if isinstance(ante, bool) or not isinstance(ante, int) or ante <= 0:
        raise WalletError(f"The ante must be a positive whole number, not {ante!r}.")
    return ante


def _replay(existing: Transfer, source: LedgerAccount, destination: LedgerAccount, amount: int, kind: str):
    """The same key again: the same movement returns the first transfer, anything else is an error."""
    if (existing.source_id, existing.destination_id, existing.amount, existing.kind) != (
        source.pk,
        destination.pk,
        amount,
        kind,
    ):
        raise WalletError(
            f"The key {existing.key!r} was already used for a different transfer "
            f"({existing.amount} chips, {existing.get_kind_display()}, {existing.source} → {existing.destination})."
        )
    return existing


def lock_accounts(accounts: Iterable[LedgerAccount]) -> dict[int, LedgerAccount]:
    """Lock the accounts' rows in primary-key order and return fresh copies by primary key.

    A caller moving chips between several accounts in one transaction may lock them all first, so its
    later transfers take no lock out of order."""
    pks = sorted({a.pk for a in accounts})
    locked = LedgerAccount.objects.select_for_update().filter(pk__in=pks).order_by("pk")
    return {a.pk: a for a in locked}


def transfer(
    source: LedgerAccount,
    destination: LedgerAccount,
    amount: int,
    *,
    kind: str,
    key: str,
    memo: str = "",
    actor=None,
    table_id: int | None = None,
    family: str = "",
    guard: Guard | None = None,
) -> Transfer:
    """Move `amount` chips from `source` to `destination`, once per `key`.

    `guard(source, destination)` runs under the locks with fresh balances and may raise `WalletError`; when it or
    the balance check refuses, a transfer already made under `key` (a retry) is the answer instead. A refusal
    changes nothing (its own savepoint); the services below call `_transfer` inside theirs."""
    with transaction.atomic():
        return _transfer(source, destination, amount, kind=kind, key=key, memo=memo, actor=actor,
                         table_id=table_id, family=family, guard=guard)


def _transfer(source, destination, amount, *, kind, key, memo="", actor=None, table_id=None, family="", guard=None):
    """`transfer` inside the caller's atomic block (every service here opens one: a refusal undoes it all).
    Only safe in a savepoint of the caller's own: a refusal here would otherwise keep the accounts it opened."""
    assert transaction.get_connection().in_atomic_block, "_transfer runs inside the caller's atomic block"
    amount = _check_amount(amount)
    key = _check_key(key)
    if kind not in TransferKind.values:
        raise WalletError(f"Unknown transfer kind {kind!r}.")
    if source.pk is None or destination.pk is None:
        raise WalletError("Both accounts must exist before chips move between them.")
    if source.pk == destination.pk:
        raise WalletError("A transfer needs two different accounts.")
    if len(memo) > 255:
        raise WalletError("A memo may be at most 255 characters long.")

    locked = lock_accounts([source, destination])
    src, dst = locked[source.pk], locked[destination.pk]
    try:
        if guard is not None:
            guard(src, dst)
        if src.kind != AccountKind.TREASURY and src.balance < amount:
            raise WalletError(f"Not enough chips: {src} holds {src.balance}, {amount} needed.")
    except WalletError:
        # Refused on today's balances: but when this key already moved these chips (a retry), that is the answer.
        existing = Transfer.objects.filter(key=key).first()
        if existing is not None:
            return _replay(existing, src, dst, amount, kind)
        raise
    try:
        # A savepoint: the key is unique, so a second use of it (a retry, or a concurrent insert on other
        # accounts) fails here, not the caller; the first transfer with that key is then the answer.
        with transaction.atomic():
            record = Transfer.objects.create(
                key=key,
                kind=kind,
                source=src,
                destination=dst,
                amount=amount,
                memo=memo,
                actor=actor,
                table_id=table_id,
                family=family,
            )
    except IntegrityError:
        existing = Transfer.objects.filter(key=key).first()
        if existing is None:
            raise
        return _replay(existing, src, dst, amount, kind)
    # Both balances in one statement (the rows are locked above).
    LedgerAccount.objects.filter(pk__in=(src.pk, dst.pk)).update(
        balance=F("balance") + Case(When(pk=src.pk, then=Value(-amount)), default=Value(amount))
    )
    # Keep the caller's objects current.
    source.balance = src.balance - amount
    destination.balance = dst.balance + amount
    return record


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


@transaction.atomic  # a refusal also undoes any account it opened
def credit(user, amount: int, *, reason: str, staff, key: str | None = None) -> Transfer:
    """Staff give a player chips from the treasury, with a reason recorded against them."""
    _check_player(user)
    return _transfer(
        treasury_account(),
        balance_account(user),
        _check_amount(amount),
        kind=TransferKind.CREDIT,
        key=key or f"credit:{uuid4()}",
        memo=_check_reason(reason),
        actor=_check_staff(staff),
    )


@transaction.atomic  # a refusal also undoes any account it opened
def debit(user, amount: int, *, reason: str, staff, key: str | None = None) -> Transfer:
    """Staff take chips from a player's balance back to the treasury."""
    _check_player(user)
    return _transfer(
        balance_account(user),
        treasury_account(),
        _check_amount(amount),
        kind=TransferKind.DEBIT,
        key=key or f"debit:{uuid4()}",
        memo=_check_reason(reason),
        actor=_check_staff(staff),
    )


def _stack_must_be_empty(src: LedgerAccount, dst: LedgerAccount) -> None:
    if dst.balance:
        raise WalletError(
            f"{dst.user} already has {dst.balance} chips at table {dst.table_id}; add chips instead of buying in."
        )


@transaction.atomic  # a refusal also undoes any account it opened
def buy_in(user, table_id: int, amount: int, *, ante: int, key: str) -> Transfer:
    """Sitting down: 20 to 100 antes from the player's balance to his stack at the table (§10)."""
    _check_player(user)
    ante, amount = _check_ante(ante), _check_amount(amount)
    low, high = MIN_BUY_IN_ANTES * ante, MAX_STACK_ANTES * ante
    if not low <= amount <= high:
        raise WalletError(
            f"The table buy-in is {low} to {high} chips (20 to 100 antes of {ante}), not {amount}."
        )
    return _transfer(
        balance_account(user),
        stack_account(user, table_id),
        amount,
        kind=TransferKind.BUY_IN,
        key=key,
        table_id=table_id,
        guard=_stack_must_be_empty,
    )


@transaction.atomic  # a refusal also undoes any account it opened
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
    return _transfer(
        balance_account(user),
        stack_account(user, table_id),
        amount,
        kind=TransferKind.ADD_CHIPS,
        key=key,
        table_id=table_id,
    )


@transaction.atomic  # a refusal also undoes any account it opened
def cash_out(user, table_id: int, amount: int, *, key: str) -> Transfer | None:
    """Standing up: the stack returns to the balance. Nothing to return (0) moves nothing and gives None."""
    _check_player(user)
    if _check_amount(amount, allow_zero=True) == 0:
        return None
    return _transfer(
        stack_account(user, table_id),
        balance_account(user),
        amount,
        kind=TransferKind.CASH_OUT,
        key=key,
        table_id=table_id,
    )


@transaction.atomic  # a refusal also undoes any account it opened
def pay_in(user, table_id: int, amount: int, *, key: str) -> Transfer | None:
    """An ante, bet, call or svara buy-in: stack → pot. 0 moves nothing and gives None."""
    if _check_amount(amount, allow_zero=True) == 0:
        return None
    return _transfer(
        stack_account(user, table_id),
        pot_account(table_id),
        amount,
        kind=TransferKind.BET,
        key=key,
        table_id=table_id,
    )


@transaction.atomic  # a refusal also undoes any account it opened
def pay_out(user, table_id: int, amount: int, *, key: str) -> Transfer | None:
    """Winnings: pot → stack. 0 moves nothing and gives None."""
    if _check_amount(amount, allow_zero=True) == 0:
        return None
    return _transfer(
        pot_account(table_id),
        stack_account(user, table_id),
        amount,
        kind=TransferKind.PAY_OUT,
        key=key,
        table_id=table_id,
    )


@transaction.atomic  # a refusal also undoes any account it opened
def take_rake(table_id: int, amount: int, *, family: str, key: str) -> Transfer | None:
    """The house's rake (§8): pot → house, recorded with the table and rule family. 0 moves nothing."""
    if not isinstance(family, str) or not family:
        raise WalletError("The rake must record the table's rule family.")
    if len(family) > 16:
        raise WalletError(f"Unknown rule family {family!r}.")
    if _check_amount(amount, allow_zero=True) == 0:
        return None
    return _transfer(
        pot_account(table_id),
        house_account(),
        amount,
        kind=TransferKind.RAKE,
        key=key,
        table_id=table_id,
        family=family,
    )


@transaction.atomic  # a refusal also undoes any account it opened
def fund_bots(amount: int, key: str, *, staff=None, reason: str = "") -> Transfer:
    """Treasury → bots' pool: the chips bots sit down with."""
    return _transfer(
        treasury_account(),
        bots_pool_account(),
        _check_amount(amount),
        kind=TransferKind.BOT_SEED,
        key=key,
        memo=reason.strip() if isinstance(reason, str) else "",
        actor=staff,
    )


def _check_bot(bot_user):
    if bot_user is None or not getattr(bot_user, "is_bot", False):
        raise WalletError("Only a bot draws its stack from the bots' pool.")
    return bot_user


@transaction.atomic  # a refusal also undoes any account it opened
def bot_buy_in(bot_user, table_id: int, amount: int, key: str) -> Transfer:
    """A bot sits down: bots' pool → the bot's stack at the table."""
    return _transfer(
        bots_pool_account(),
        stack_account(_check_bot(bot_user), table_id),
        _check_amount(amount),
        kind=TransferKind.BOT_BUY_IN,
        key=key,
        table_id=table_id,
    )


@transaction.atomic  # a refusal also undoes any account it opened
def bot_cash_out(bot_user, table_id: int, amount: int, key: str) -> Transfer | None:
    """A bot stands up: its stack returns to the bots' pool. 0 moves nothing and gives None."""
    _check_bot(bot_user)
    if _check_amount(amount, allow_zero=True) == 0:
        return None
    return _transfer(
        stack_account(bot_user, table_id),
        bots_pool_account(),
        amount,
        kind=TransferKind.BOT_CASH_OUT,
        key=key,
        table_id=table_id,
    )
