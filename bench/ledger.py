"""Chip transfers per second through the wallet vs bare row writes, same process, same database.

    python -m bench ledger [--transfers 2000]

Wallet: `services.pay_in` / `pay_out` alternately between one stack and one pot, each in its own transaction
(lock both rows in pk order, idempotency check, insert, two balance updates).
Baseline: the same rows written without locks, key check or validation: one INSERT and two UPDATEs per
transaction. The ratio is the price of the ledger's guarantees. A throwaway test database is created and
dropped (SQLite in memory by default; PostgreSQL with DATABASE_URL). Target: at least a third of the baseline.

Then a table action as the door moves its chips, in one transaction each: a call, the rake and the payout (three
movements between two stacks, the pot and the house), once as three service calls (`pay_in`, `take_rake`,
`pay_out`) and once as one batch (`wallet.move`), with the statements each costs and the speed-up of the batch.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bench.throwaway_db import throwaway_database

TARGET_RATIO = 1 / 3
ROUNDS = 7


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

        one_by_one, batched = _actions(n, staff)

    ratio = wallet_rate / baseline_rate
    print(f"database: {connection.vendor}")
    print(f"wallet transfers/s:       {wallet_rate:10.0f}")
    print(f"bare row writes/s:        {baseline_rate:10.0f}")
    print(f"ratio wallet / baseline:  {ratio:10.2f}  (target >= {TARGET_RATIO:.2f})")
    print("an action of 3 movements (call, rake, payout), one transaction each:")
    for label, (rate, statements) in (("one service call each", one_by_one), ("one batch (move)", batched)):
        print(f"  {label + ':':<24}{rate:10.0f} transfers/s  {rate / 3:8.0f} actions/s  {statements} statements with BEGIN, COMMIT")
    print(f"  speed-up of the batch:  {batched[0] / one_by_one[0]:10.2f}x")
    return 0 if ratio >= TARGET_RATIO else 1


def _actions(n: int, staff) -> tuple[tuple[float, int], tuple[float, int]]:
    """(transfers/s, statements per action) for the action done by three service calls, then by one batch."""
    from django.contrib.auth import get_user_model
    from django.db import connection, reset_queries, transaction
    from django.test.utils import CaptureQueriesContext

    from wallet import services
    from wallet.services import AccountRef, Movement, TransferKind

    ante, table = 1000, 2  # stacks of 100 antes: the rake drains them by one chip an action
    a, b = (get_user_model().objects.create_user(email=f"bench-{x}@example.com") for x in "ab")
    for p in (a, b):
        services.credit(p, 1_000_000, reason="bench", staff=staff)
        services.buy_in(p, table, 100 * ante, ante=ante, key=f"bench-sit-{p.pk}")
    services.pay_in(a, table, 10, key="bench-open-pot")  # the pot and the house exist, as at any table in play
    services.take_rake(table, 1, family="classic", key="bench-open-house")
    actions = max(n // 3, 1)

    def by_services(i):
        caller, winner = (a, b) if i % 2 else (b, a)
        with transaction.atomic():
            services.pay_in(caller, table, 10, key=f"s{i}:in")
            services.take_rake(table, 1, family="classic", key=f"s{i}:rake")
            services.pay_out(winner, table, 9, key=f"s{i}:out")

    def by_batch(i):
        caller, winner = (a, b) if i % 2 else (b, a)
        pot = AccountRef.pot(table)
        with transaction.atomic():
            services.move(
                [
                    Movement(TransferKind.BET, AccountRef.stack(caller.pk, table), pot, 10, f"b{i}:in"),
                    Movement(TransferKind.RAKE, pot, AccountRef.house(table), 1, f"b{i}:rake", family="classic"),
                    Movement(TransferKind.PAY_OUT, pot, AccountRef.stack(winner.pk, table), 9, f"b{i}:out"),
                ]
            )

    statements = []
    for action in (by_services, by_batch):
        reset_queries()  # DEBUG logs every query; an overfull log only warns
        with CaptureQueriesContext(connection) as queries:
            action(-1)  # its statements, with the BEGIN and COMMIT of its transaction
        statements.append(len(queries))
    # The two paths take turns, ROUNDS times, and each gives its median: two shared, noisy cores move a single
    # timing by more than the difference being measured.
    per_round = max(actions // ROUNDS, 1)
    rates = ([], [])
    for r in range(ROUNDS):
        for which, action in enumerate((by_services, by_batch)):
            started = time.perf_counter()
            for i in range(r * per_round, (r + 1) * per_round):
                action(i)
            rates[which].append(3 * per_round / (time.perf_counter() - started))
    return (statistics.median(rates[0]), statements[0]), (statistics.median(rates[1]), statements[1])
