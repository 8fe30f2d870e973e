"""Reading the ledger: a player's balance and chip history, the chips in circulation."""

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q, Sum
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

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


# A movement at a table, in the reader's language (the history is read in a request, in his language).
AT_TABLE = {
    TransferKind.BUY_IN: _("Bought in at table %(table)s"),
    TransferKind.ADD_CHIPS: _("Added chips at table %(table)s"),
    TransferKind.CASH_OUT: _("Stood up at table %(table)s"),
    TransferKind.BET: _("Paid into the pot at table %(table)s"),
    TransferKind.PAY_OUT: _("Won from the pot at table %(table)s"),
    TransferKind.RAKE: _("Rake at table %(table)s"),
}


def _describe(t: Transfer) -> str:
    match t.kind:
        case TransferKind.CREDIT:
            return gettext("Credited by staff: %(reason)s") % {"reason": t.memo} if t.memo else gettext("Credited by staff")
        case TransferKind.DEBIT:
            return gettext("Debited by staff: %(reason)s") % {"reason": t.memo} if t.memo else gettext("Debited by staff")
    if t.kind in AT_TABLE and t.table_id:
        return AT_TABLE[t.kind] % {"table": t.table_id}
    label = str(TransferKind(t.kind).label) if t.kind in TransferKind.values else t.kind
    if t.table_id:
        return gettext("%(movement)s at table %(table)s") % {"movement": label[:1].upper() + label[1:], "table": t.table_id}
    return label[:1].upper() + label[1:]


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
