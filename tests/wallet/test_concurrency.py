"""Many threads, each with its own PostgreSQL connection, moving chips through the same accounts at once.

Row locks taken in primary-key order keep every balance exact and never below zero; the unique key makes a
transfer submitted by several threads at once move chips once."""

import threading

import pytest
from django.db import connection

from wallet import accounts, services
from wallet.audit import audit_ledger
from wallet.models import Transfer
from wallet.selectors import balance_of
from wallet.services import WalletError

from .conftest import _make_user, require_postgresql

THREADS = 8
ROUNDS = 15
ANTE = 10


def run_in_threads(work, n=THREADS):
    """Run work(i) in n threads released together; each thread closes its own connection."""
    barrier = threading.Barrier(n)
    errors, results = [], [None] * n

    def body(i):
        try:
            barrier.wait()
            results[i] = work(i)
        except BaseException as exc:  # reported to the test below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=body, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    return results


@pytest.mark.django_db(transaction=True)
def test_concurrent_buy_ins_cash_outs_and_credits_keep_exact_balances():
    require_postgresql()
    staff = _make_user("staff@example.com", is_staff=True)
    players = [_make_user(f"p{i}@example.com") for i in range(3)]
    for p in players:
        services.credit(p, 10_000, reason="start", staff=staff)

    def work(i):
        for r in range(ROUNDS):
            p = players[(i + r) % len(players)]
            table = 100 + i  # each thread its own seat, all threads the same balances
            services.buy_in(p, table, 200 + r, ante=ANTE, key=f"sit-{i}-{r}")
            services.credit(p, 7, reason="concurrent bonus", staff=staff, key=f"bonus-{i}-{r}")
            services.pay_in(p, table, 10, key=f"ante-{i}-{r}")
            services.take_rake(table, 1, family="classic", key=f"rake-{i}-{r}")
            services.pay_out(p, table, 9, key=f"win-{i}-{r}")
            services.cash_out(p, table, 199 + r, key=f"stand-{i}-{r}")
            # Every thread submits the same shared credit: it must move chips once.
            services.credit(players[0], 5, reason="shared", staff=staff, key=f"shared-{r}")

    run_in_threads(work)

    # Each (thread, round) costs its player 1 (rake) and gives 7; the shared credits give player 0 5 per round.
    per_player = {p.pk: 10_000 for p in players}
    for i in range(THREADS):
        for r in range(ROUNDS):
            per_player[players[(i + r) % len(players)].pk] += 6
    per_player[players[0].pk] += 5 * ROUNDS
    for p in players:
        assert balance_of(p) == per_player[p.pk]
    assert accounts.house_takings() == THREADS * ROUNDS
    assert Transfer.objects.filter(key__startswith="shared-").count() == ROUNDS
    report = audit_ledger()
    assert report.ok, report.problems
    assert report.in_circulation == -accounts.treasury_account().balance


@pytest.mark.django_db(transaction=True)
def test_concurrent_buy_ins_beyond_the_balance_let_exactly_one_through():
    require_postgresql()
    staff = _make_user("staff@example.com", is_staff=True)
    player = _make_user("ann@example.com")
    services.credit(player, 1000, reason="start", staff=staff)

    def work(i):
        try:
            services.buy_in(player, 200 + i, 1000, ante=ANTE, key=f"sit-{i}")
            return "seated"
        except WalletError as exc:
            assert "Not enough chips" in str(exc)
            return "refused"

    results = run_in_threads(work)
    assert results.count("seated") == 1
    assert balance_of(player) == 0
    assert audit_ledger().ok


@pytest.mark.django_db(transaction=True)
def test_the_same_key_from_many_threads_moves_chips_once():
    require_postgresql()
    staff = _make_user("staff@example.com", is_staff=True)
    player = _make_user("ann@example.com")
    services.credit(player, 5000, reason="start", staff=staff)

    results = run_in_threads(lambda i: services.buy_in(player, 300, 500, ante=ANTE, key="one-sit").pk)
    assert len(set(results)) == 1
    assert balance_of(player) == 4500
    assert accounts.stack_account(player, 300).balance == 500
    assert audit_ledger().ok


@pytest.mark.django_db(transaction=True)
def test_crossed_transfers_between_two_players_tables_do_not_deadlock():
    """Threads move chips in opposite directions between the same accounts; locks in pk order never cycle."""
    require_postgresql()
    staff = _make_user("staff@example.com", is_staff=True)
    a, b = _make_user("a@example.com"), _make_user("b@example.com")
    for p in (a, b):
        services.credit(p, 3000, reason="start", staff=staff)
        services.buy_in(p, 400, 1000, ante=ANTE, key=f"sit-{p.pk}")

    def work(i):
        first, second = (a, b) if i % 2 else (b, a)
        for r in range(ROUNDS):
            services.pay_in(first, 400, 3, key=f"in-{i}-{r}")
            services.pay_out(second, 400, 3, key=f"out-{i}-{r}")

    run_in_threads(work)
    assert accounts.pot_account(400).balance == 0
    assert accounts.stack_account(a, 400).balance + accounts.stack_account(b, 400).balance == 2000
    assert audit_ledger().ok
