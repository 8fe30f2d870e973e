"""After a drill: did every chip stay where the ledger and the engine both say it is?

`audit_ledger` re-derives every balance from its transfers (and finds a key used twice); on top of it each
table's ledger accounts (a stack per player, the pot) must equal the stacks and the pot of the engine's stored
state, and every chip the treasury issued must still be somewhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Books:
    audit_problems: list[str] = field(default_factory=list)
    table_mismatches: list[str] = field(default_factory=list)
    issued: int = 0  # chips the treasury gave out
    in_circulation: int = 0  # chips in every other account
    transfers: int = 0
    transfers_doubled: int = 0

    @property
    def chips_lost(self) -> int:
        return self.issued - self.in_circulation

    @property
    def ok(self) -> bool:
        return not self.audit_problems and not self.table_mismatches and self.chips_lost == 0 \
            and not self.transfers_doubled


def check_books(table_ids: list[int]) -> Books:
    from django.db.models import Count

    from tables.models import Table
    from tables.state_io import chips_of
    from wallet.audit import audit_ledger
    from wallet.models import AccountKind, LedgerAccount, Transfer

    report = audit_ledger()
    books = Books(audit_problems=list(report.problems), in_circulation=report.in_circulation,
                  transfers=report.transfers)
    treasury = LedgerAccount.objects.filter(kind=AccountKind.TREASURY).first()
    books.issued = -treasury.balance if treasury is not None else 0
    books.transfers_doubled = sum(row["n"] - 1 for row in
                                  Transfer.objects.values("key").annotate(n=Count("pk")).filter(n__gt=1))
    from tables.engine.play import TableState

    for table in Table.objects.filter(pk__in=table_ids).order_by("pk"):
        chips = chips_of(TableState.loads(table.state))
        stacks = {str(a.user_id): a.balance for a in
                  LedgerAccount.objects.filter(kind=AccountKind.STACK, table_id=table.pk)}
        pot = LedgerAccount.objects.filter(kind=AccountKind.POT, table_id=table.pk).values_list("balance", flat=True)
        pot = pot[0] if pot else 0
        held = {player: chips for player, chips in stacks.items() if chips}
        engine = {player: chips for player, chips in chips.stacks.items() if chips}
        if held != engine:
            books.table_mismatches.append(f"table {table.pk}: ledger stacks {held}, engine stacks {engine}")
        if pot != chips.pot:
            books.table_mismatches.append(f"table {table.pk}: ledger pot {pot}, engine pot {chips.pot}")
    return books


def books_lines(books: Books) -> list[str]:
    lines = [f"  audit_ledger: {'clean' if not books.audit_problems else books.audit_problems[:5]}; "
             f"{books.transfers:,} transfers",
             f"  chips lost: {books.chips_lost} (issued {books.issued:,}, in circulation {books.in_circulation:,}); "
             f"transfers doubled: {books.transfers_doubled}",
             f"  tables whose ledger differs from the engine: {len(books.table_mismatches)}"]
    lines += [f"    {m}" for m in books.table_mismatches[:5]]
    return lines
