"""What a player's own limits cost a buy-in: sit down and stand up through the door, without limits vs with a daily
buy-in cap and a loss limit (wallet/limits.py), same process, same table.

    python -m bench limits [--rounds 300] [--history 1000]

Baseline: a player with no limits row (the door's check is one `SELECT … FOR UPDATE` that finds nothing).
Measured: a player with a cap and a loss limit (the lock of his row, then the day's buy-ins and cash-outs summed
from the ledger), after `--history` buy-ins and cash-outs earlier that day, so the sum has rows to read. Each
figure is sit + stand cycles per second (two door transactions each); the ratio is the price of the limits. A
throwaway test database is created and dropped (SQLite by default; PostgreSQL with DATABASE_URL, where the lock
means something).
"""

from __future__ import annotations

import argparse
import time

from bench.throwaway_db import throwaway_database


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench limits")
    parser.add_argument("--rounds", type=int, default=300, help="sit + stand cycles per figure")
    parser.add_argument("--history", type=int, default=1000, help="buy-ins (and cash-outs) already made today")
    args = parser.parse_args(argv)

    with throwaway_database():
        from django.conf import settings
        from django.contrib.auth import get_user_model
        from django.db import connection

        from tables import services
        from wallet import limits
        from wallet.services import credit

        settings.DEBUG = False
        users = get_user_model().objects
        staff = users.create_user(email="bench-staff@example.com", is_staff=True)
        table = services.create_table(staff, "classic", 10, 2, False, kept_open=True)

        def player(name: str):
            user = users.create_user(email=f"{name}@example.com")
            credit(user, 10_000_000, reason="bench", staff=staff)
            return user

        def cycles(user, rounds: int) -> float:
            start = time.perf_counter()
            for _ in range(rounds):
                services.sit(table.pk, user, 200)
                services.stand(table.pk, user)
            return rounds / (time.perf_counter() - start)

        free, limited = player("free"), player("limited")
        # The same day's history for both: the sum reads it only for the limited one.
        cycles(free, args.history)
        cycles(limited, args.history)
        limits.set_limits(limited, daily_buy_in_cap=10**9, daily_loss_limit=10**9)
        cycles(free, 20)  # warm
        cycles(limited, 20)
        baseline = cycles(free, args.rounds)
        measured = cycles(limited, args.rounds)

        print(f"database: {connection.vendor}; {args.rounds} sit + stand cycles each, after {args.history} today")
        print(f"  without limits      {baseline:8.1f} cycles/s  ({1000 / baseline:6.2f} ms)")
        print(f"  cap and loss limit  {measured:8.1f} cycles/s  ({1000 / measured:6.2f} ms)")
        print(f"  ratio               {measured / baseline:8.2f}  (with limits / without)")
    return 0
