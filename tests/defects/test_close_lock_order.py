"""Issue 11, defect 8: closing a table takes its ledger locks in the order every move takes them (primary key),
all at once, before any of its batches: it used to lock a player's balance (a stand-up's cash-out) and only later
the house (the rake of the deal its stand-ups ended), so a move at that player's other table, which locks the house
first, could deadlock with it. The house now keeps its rake in an account a table, locked with the table's row
(session 16); the bots' pool is the account every table shares, so the closing is held up here on the pool."""

import threading
import time

import pytest
from django.db import OperationalError, connection, connections, transaction

from tables import services
from tests.tables.conftest import audit_clean, make_user, state_of
from wallet import services as wallet
from wallet.accounts import balance_account, bots_pool_account

pytestmark = pytest.mark.django_db(transaction=True)


def waiting_for_a_lock(bound=200) -> bool:
    """Whether another backend of this database waits for a row lock (polled, at most `bound` times)."""
    for _ in range(bound):
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
            )
            if cursor.fetchone()[0]:
                return True
        time.sleep(0.05)
    return False


def test_closing_holds_no_balance_while_it_waits_for_an_account_every_table_shares(staff):
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's")
    # The closing runs on a thread that needs a pooled connection of its own within the 10 s the lock wait is
    # watched: start from a fresh pool (earlier tests' threads can leave connections checked out; in the full CI
    # order the closing waited for a pooled connection, not the row lock, and the wait for a lock was never seen).
    connections.close_all()
    if getattr(connection, "pool", None) is not None:
        connection.close_pool()
    pool = bots_pool_account()  # the lowest key of the accounts the closing touches: every move locks it first
    ann, boris, vera = (make_user(f"{n}@example.com", display_name=n) for n in ("Ann", "Boris", "Vera"))
    for user in (ann, boris, vera):
        wallet.credit(user, 10_000, reason="welcome chips", staff=staff)
    table = services.create_table(ann, "classic", 10, 6, False)
    for seat, user in enumerate((ann, boris, vera)):
        services.sit(table.pk, user, 400, seat=seat)
    services.act(table.pk, ann, {"kind": "sit_out"})  # Ann is not in the deal: standing her up cashes out at once
    for user in (boris, vera):
        services.act(table.pk, user, {"kind": "new_deal"})
    state = state_of(table.pk)
    seat = state.clock.seats[0]
    bet = next(e for e in state.legal_moves(seat) if e.kind == "bet")
    services.act(table.pk, (ann, boris, vera)[seat], {"kind": "bet", "amount": bet.max})  # a pot that pays rake
    ann_balance = balance_account(ann).pk
    assert pool.pk < ann_balance

    outcome = {}

    def close():
        try:
            services.close_table(table.pk, staff=staff)
            outcome["closed"] = True
        except Exception as error:  # noqa: BLE001 - reported by the assertion below
            outcome["error"] = error
        finally:
            connections.close_all()

    closer = threading.Thread(target=close)
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SELECT id FROM wallet_ledgeraccount WHERE id = %s FOR UPDATE", [pool.pk])
        closer.start()
        assert waiting_for_a_lock(), outcome  # the closing waits for the pool (an error it met: in `outcome`)
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("SELECT id FROM wallet_ledgeraccount WHERE id = %s FOR UPDATE NOWAIT", [ann_balance])
            balance_was_free = True
        except OperationalError:
            balance_was_free = False
    closer.join(timeout=60)
    assert outcome.get("closed"), outcome
    assert balance_was_free, "the closing held Ann's balance while it waited for the pool"
    audit_clean()
