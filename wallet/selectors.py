"""Reading the ledger: a player's balance and chip history, the chips in circulation."""

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q, Sum

from .models import AccountKind, LedgerAccount, Transfer, TransferKind


@dataclass(frozen=True)
class StatementLine:
    """One transfer as the account's owner sees it."""

    transfer: Transfer
    created_at: datetime
    kind: str
    amount: int  # chips moved, always positive
    change: int  # + into the account, - out of it
    balance_after: int
    description: str
    memo: str
    table_id: int | None
    key: str


def _describe(t: Transfer) -> str:
    at_table = f" at table {t.table_id}" if t.table_id else ""
    match t.kind:
        case TransferKind.CREDIT:
            return f"Credited by staff: {t.memo}" if t.memo else "Credited by staff"
        case TransferKind.DEBIT:
            return f"Debited by staff: {t.memo}" if t.memo else "Debited by staff"
        case TransferKind.BUY_IN:
            return f"Bought in{at_table}"
        case TransferKind.ADD_CHIPS:
            return f"Added chips{at_table}"
        case TransferKind.CASH_OUT:
            return f"Stood up{at_table}"
        case TransferKind.BET:
            return f"Paid into the pot{at_table}"
        case TransferKind.PAY_OUT:
            return f"Won from the pot{at_table}"
        case TransferKind.RAKE:
            return f"Rake{at_table}"
    label = TransferKind(t.kind).label if t.kind in TransferKind.values else t.kind
    return label[:1].upper() + label[1:] + at_table


def statement(
    account: LedgerAccount, *, since=None, until=None, limit: int | None = None
) -> list[StatementLine]:
    """The account's transfers, newest first, each with the balance right after it.

    The running balance is derived from the transfers themselves (oldest first), so it does not depend on
    the stored balance."""
    transfers = Transfer.objects.filter(Q(source=account) | Q(destination=account)).order_by(
        "created_at", "pk"
    )
    running = 0
    if since is not None:
        before = transfers.filter(created_at__lt=since)
        into = before.filter(destination=account).aggregate(s=Sum("amount"))["s"] or 0
        out = before.filter(source=account).aggregate(s=Sum("amount"))["s"] or 0
        running = into - out
        transfers = transfers.filter(created_at__gte=since)
    if until is not None:
        transfers = transfers.filter(created_at__lt=until)
    lines = []
    for t in transfers.select_related("source", "destination"):
        incoming = t.destination_id == account.pk
        change = t.amount if incoming else -t.amount
        running += change
        lines.append(
            StatementLine(
                transfer=t,
                created_at=t.created_at,
                kind=t.kind,
                amount=t.amount,
                change=change,
                balance_after=running,
                description=_describe(t),
                memo=t.memo,
                table_id=t.table_id,
                key=t.key,
            )
        )
    lines.reverse()
    return lines[:limit] if limit is not None else lines


def balance_of(user) -> int:
    """The player's chips away from the tables (0 if he never had any)."""
    account = LedgerAccount.objects.filter(kind=AccountKind.BALANCE, user=user).only("balance").first()
    return account.balance if account else 0


def history_of(user, *, limit: int | None = None) -> list[StatementLine]:
    """The player's own chip history: transfers into and out of his balance, newest first."""
    account = LedgerAccount.objects.filter(kind=AccountKind.BALANCE, user=user).first()
    if account is None:
        return []
    return statement(account, limit=limit)


def chips_in_circulation() -> int:
    """Every chip ever issued and not taken back: all accounts except the treasury (i.e. minus the treasury)."""
    total = LedgerAccount.objects.exclude(kind=AccountKind.TREASURY).aggregate(s=Sum("balance"))["s"]
    return total or 0
