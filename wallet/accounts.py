"""Finding (or opening) the ledger account that holds a given pile of chips."""

from django.db import IntegrityError, transaction
from django.db.models import Sum

from .models import AccountKind, LedgerAccount


class WalletError(ValueError):
    """A chip movement was refused; the message says why and nothing was moved."""


def _get_or_open(**owner) -> LedgerAccount:
    account = LedgerAccount.objects.filter(**owner).first()
    if account is not None:
        return account
    try:
        # A savepoint, so a concurrent opening of the same account does not spoil the caller's transaction.
        with transaction.atomic():
            return LedgerAccount.objects.create(**owner)
    except IntegrityError:
        return LedgerAccount.objects.get(**owner)


def _check_table_id(table_id) -> int:
    if isinstance(table_id, bool) or not isinstance(table_id, int) or table_id <= 0:
        raise WalletError(f"A table id must be a positive whole number, not {table_id!r}.")
    return table_id


def _check_user(user):
    if user is None or getattr(user, "pk", None) is None:
        raise WalletError("A ledger account needs a saved user.")
    return user


def balance_account(user) -> LedgerAccount:
    """The player's chips away from the tables."""
    return _get_or_open(kind=AccountKind.BALANCE, user=_check_user(user), table_id=None)


def stack_account(user, table_id: int) -> LedgerAccount:
    """The chips the player (or bot) has in front of him at one table."""
    return _get_or_open(kind=AccountKind.STACK, user=_check_user(user), table_id=_check_table_id(table_id))


def pot_account(table_id: int) -> LedgerAccount:
    return _get_or_open(kind=AccountKind.POT, user=None, table_id=_check_table_id(table_id))


def open_table_accounts(table_id: int) -> None:
    """A new table's pot and house account, opened with it in one statement (in the caller's transaction): the
    first deal's antes then name accounts every process at the table already knows (tables/services/optimistic.py)."""
    table_id = _check_table_id(table_id)
    LedgerAccount.objects.bulk_create([LedgerAccount(kind=AccountKind.POT, table_id=table_id),
                                       LedgerAccount(kind=AccountKind.HOUSE, table_id=table_id)])  # fmt: skip


def house_account(table_id: int) -> LedgerAccount:
    """Where the rake taken at one table goes (the house's takings: `house_takings`)."""
    return _get_or_open(kind=AccountKind.HOUSE, user=None, table_id=_check_table_id(table_id))


def house_takings() -> int:
    """Every chip of rake the house holds: its accounts at every table (and one without a table, from before)."""
    return LedgerAccount.objects.filter(kind=AccountKind.HOUSE).aggregate(chips=Sum("balance"))["chips"] or 0


def treasury_account() -> LedgerAccount:
    """The source of every chip: staff credits come from here, so it alone goes negative."""
    return _get_or_open(kind=AccountKind.TREASURY, user=None, table_id=None)


def bots_pool_account() -> LedgerAccount:
    """The bots' chips; a bot has no balance of its own, its stack comes from and returns to this pool."""
    return _get_or_open(kind=AccountKind.BOTS_POOL, user=None, table_id=None)
