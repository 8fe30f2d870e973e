"""Re-deriving the ledger from its transfers and saying what does not add up."""

from dataclasses import dataclass, field

from django.db.models import Count, F, Q, Sum

from .models import AccountKind, LedgerAccount, Transfer


@dataclass
class AuditReport:
    accounts: int = 0
    transfers: int = 0
    in_circulation: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def audit_ledger() -> AuditReport:
    """Every stored balance equals its transfers in minus out; no balance below zero except the treasury's;
    all balances sum to zero; no idempotency key twice; no transfer of a non-positive amount."""
    report = AuditReport()
    incoming = dict(
        Transfer.objects.values("destination").annotate(s=Sum("amount")).values_list("destination", "s")
    )
    outgoing = dict(Transfer.objects.values("source").annotate(s=Sum("amount")).values_list("source", "s"))
    total = 0
    for account in LedgerAccount.objects.select_related("user").order_by("pk"):
        report.accounts += 1
        total += account.balance
        derived = incoming.get(account.pk, 0) - outgoing.get(account.pk, 0)
        if account.balance != derived:
            report.problems.append(
                f"account #{account.pk} ({account}): stored balance {account.balance}, "
                f"its transfers give {derived}"
            )
        if account.balance < 0 and account.kind != AccountKind.TREASURY:
            report.problems.append(f"account #{account.pk} ({account}): negative balance {account.balance}")
        if account.kind != AccountKind.TREASURY:
            report.in_circulation += account.balance
    if total != 0:
        report.problems.append(f"all balances sum to {total}, not 0")
    stray = (set(incoming) | set(outgoing)) - set(LedgerAccount.objects.values_list("pk", flat=True))
    if stray:
        report.problems.append(f"transfers name missing accounts: {sorted(stray)}")
    for row in Transfer.objects.values("key").annotate(n=Count("pk")).filter(n__gt=1).order_by("key"):
        report.problems.append(f"key {row['key']!r} used by {row['n']} transfers")
    bad = Transfer.objects.filter(Q(amount__lte=0) | Q(source=F("destination"))).count()
    if bad:
        report.problems.append(f"{bad} transfers move a non-positive amount or from an account to itself")
    report.transfers = Transfer.objects.count()
    return report
