"""Chip transfers per second through the wallet vs bare row writes, same process, same database.

    python -m bench ledger [--transfers 2000]

Wallet: `services.pay_in` / `pay_out` alternately between one stack and one pot, each in its own transaction
(lock both rows in pk order, idempotency check, insert, two balance updates).
Baseline: the same rows written without locks, key check or validation: one INSERT and two UPDATEs per
transaction. The ratio is the price of the ledger's guarantees. A throwaway test database is created and
dropped (SQLite in memory by default; PostgreSQL with DATABASE_URL). Target: at least a third of the baseline.
"""

from __future__ import annotations

import argparse
import time

from bench.throwaway_db import throwaway_database

TARGET_RATIO = 1 / 3


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench ledger")
    parser.add_argument("--transfers", type=int, default=2000)
    args = parser.parse_args(argv)

    with throwaway_database():
        from django.contrib.auth import get_user_model
        from django.db import connection, transaction
        from django.db.models import F

        from wallet import accounts, services
        from wallet.models import LedgerAccount, Transfer, TransferKind

        staff = get_user_model().objects.create_user(email="bench-staff@example.com", is_staff=True)
        player = get_user_model().objects.create_user(email="bench@example.com")
        services.credit(player, 10_000, reason="bench", staff=staff)
        services.buy_in(player, 1, 1000, ante=10, key="bench-sit")
        n = args.transfers

        started = time.perf_counter()
        for i in range(n // 2):
            services.pay_in(player, 1, 10, key=f"in-{i}")
            services.pay_out(player, 1, 10, key=f"out-{i}")
        wallet_rate = n / (time.perf_counter() - started)

        stack, pot = accounts.stack_account(player, 1), accounts.pot_account(1)
        started = time.perf_counter()
        for i in range(n):
            src, dst = (stack, pot) if i % 2 == 0 else (pot, stack)
            with transaction.atomic():
                Transfer.objects.create(
                    key=f"raw-{i}", kind=TransferKind.BET, source=src, destination=dst, amount=10
                )
                LedgerAccount.objects.filter(pk=src.pk).update(balance=F("balance") - 10)
                LedgerAccount.objects.filter(pk=dst.pk).update(balance=F("balance") + 10)
        baseline_rate = n / (time.perf_counter() - started)

    ratio = wallet_rate / baseline_rate
    print(f"database: {connection.vendor}")
    print(f"wallet transfers/s:       {wallet_rate:10.0f}")
    print(f"bare row writes/s:        {baseline_rate:10.0f}")
    print(f"ratio wallet / baseline:  {ratio:10.2f}  (target >= {TARGET_RATIO:.2f})")
    return 0 if ratio >= TARGET_RATIO else 1
