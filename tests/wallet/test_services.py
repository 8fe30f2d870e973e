"""The services: each movement, what it refuses, and that a refused movement moves nothing."""

import pytest

from wallet import accounts, services
from wallet.audit import audit_ledger
from wallet.models import AccountKind, LedgerAccount, Transfer, TransferKind
from wallet.selectors import balance_of, chips_in_circulation, history_of
from wallet.services import WalletError

pytestmark = pytest.mark.django_db

TABLE = 7
ANTE = 10


def snapshot():
    return (
        sorted(LedgerAccount.objects.values_list("pk", "balance")),
        Transfer.objects.count(),
    )


def test_credit_moves_chips_from_treasury_and_records_staff_and_reason(player, staff):
    t = services.credit(player, 1000, reason="welcome chips", staff=staff)
    assert t.kind == TransferKind.CREDIT
    assert t.actor == staff
    assert t.memo == "welcome chips"
    assert balance_of(player) == 1000
    assert accounts.treasury_account().balance == -1000
    assert chips_in_circulation() == 1000


@pytest.mark.parametrize("reason", ["", "   ", None])
def test_credit_without_reason_is_refused(player, staff, reason):
    before = snapshot()
    with pytest.raises(WalletError, match="reason"):
        services.credit(player, 100, reason=reason, staff=staff)
    assert snapshot() == before


def test_credit_by_non_staff_is_refused(player, other_player):
    with pytest.raises(WalletError, match="staff"):
        services.credit(player, 100, reason="gift", staff=other_player)
    assert balance_of(player) == 0
    assert not Transfer.objects.exists()


@pytest.mark.parametrize("amount", [0, -5, 1.5, "10", True, None])
def test_amount_must_be_a_positive_whole_number(player, staff, amount):
    with pytest.raises(WalletError, match="amount"):
        services.credit(player, amount, reason="x", staff=staff)
    assert not Transfer.objects.exists()


def test_debit_returns_chips_to_treasury(funded, staff):
    services.debit(funded, 1200, reason="refund request", staff=staff)
    assert balance_of(funded) == 3800
    assert accounts.treasury_account().balance == -3800


def test_debit_beyond_balance_is_refused_and_moves_nothing(funded, staff):
    before = snapshot()
    with pytest.raises(WalletError, match="Not enough chips"):
        services.debit(funded, 5001, reason="too much", staff=staff)
    assert snapshot() == before


def test_bots_have_no_balance_to_credit(bot, staff):
    with pytest.raises(WalletError, match="Bots have no balance"):
        services.credit(bot, 100, reason="x", staff=staff)


@pytest.mark.parametrize("amount", [200, 550, 1000])
def test_table_buy_in_of_20_to_100_antes_D15(funded, amount):
    services.buy_in(funded, TABLE, amount, ante=ANTE, key=f"sit-{amount}")
    assert balance_of(funded) == 5000 - amount
    assert accounts.stack_account(funded, TABLE).balance == amount


@pytest.mark.parametrize("amount", [199, 1001, 10])
def test_table_buy_in_outside_20_to_100_antes_is_refused_D15(funded, amount):
    before = snapshot()
    with pytest.raises(WalletError, match="20 to 100 antes"):
        services.buy_in(funded, TABLE, amount, ante=ANTE, key="sit")
    assert snapshot() == before


def test_buy_in_beyond_balance_is_refused(player, staff):
    services.credit(player, 300, reason="x", staff=staff)
    before = snapshot()
    with pytest.raises(WalletError, match="Not enough chips"):
        services.buy_in(player, TABLE, 400, ante=ANTE, key="sit")
    assert snapshot() == before


def test_buy_in_while_already_holding_a_stack_is_refused(funded):
    services.buy_in(funded, TABLE, 500, ante=ANTE, key="sit-1")
    with pytest.raises(WalletError, match="already has 500 chips"):
        services.buy_in(funded, TABLE, 500, ante=ANTE, key="sit-2")
    assert balance_of(funded) == 4500


def test_add_chips_keeps_the_stack_at_most_100_antes_D15(funded):
    services.buy_in(funded, TABLE, 300, ante=ANTE, key="sit")
    services.add_chips(funded, TABLE, 700, ante=ANTE, stack=300, key="add-1")
    assert accounts.stack_account(funded, TABLE).balance == 1000
    before = snapshot()
    with pytest.raises(WalletError, match="at most 1000 chips"):
        services.add_chips(funded, TABLE, 1, ante=ANTE, stack=1000, key="add-2")
    assert snapshot() == before


def test_cash_out_returns_the_stack_to_the_balance(funded):
    services.buy_in(funded, TABLE, 1000, ante=ANTE, key="sit")
    services.cash_out(funded, TABLE, 1000, key="stand")
    assert balance_of(funded) == 5000
    assert accounts.stack_account(funded, TABLE).balance == 0


def test_cash_out_of_more_than_the_stack_is_refused(funded):
    services.buy_in(funded, TABLE, 1000, ante=ANTE, key="sit")
    with pytest.raises(WalletError, match="Not enough chips"):
        services.cash_out(funded, TABLE, 1001, key="stand")
    assert balance_of(funded) == 4000


def test_cash_out_of_nothing_moves_nothing(funded):
    assert services.cash_out(funded, TABLE, 0, key="stand") is None
    assert Transfer.objects.count() == 1


def test_a_deal_pot_paid_in_paid_out_and_raked_sums_to_zero_8(funded, other_player, staff):
    services.credit(other_player, 2000, reason="x", staff=staff)
    services.buy_in(funded, TABLE, 1000, ante=ANTE, key="sit-a")
    services.buy_in(other_player, TABLE, 1000, ante=ANTE, key="sit-b")
    services.pay_in(funded, TABLE, 510, key="deal1-a")
    services.pay_in(other_player, TABLE, 510, key="deal1-b")
    rake = services.take_rake(TABLE, 30, family="classic", key="deal1-rake")
    services.pay_out(funded, TABLE, 990, key="deal1-win")
    assert rake.family == "classic" and rake.table_id == TABLE
    assert accounts.pot_account(TABLE).balance == 0
    assert accounts.house_takings() == 30
    assert accounts.stack_account(funded, TABLE).balance == 1480
    assert accounts.stack_account(other_player, TABLE).balance == 490
    assert audit_ledger().ok


def test_paying_out_more_than_the_pot_is_refused(funded):
    services.buy_in(funded, TABLE, 1000, ante=ANTE, key="sit")
    services.pay_in(funded, TABLE, 100, key="ante")
    with pytest.raises(WalletError, match="Not enough chips"):
        services.pay_out(funded, TABLE, 101, key="win")
    assert accounts.pot_account(TABLE).balance == 100


def test_rake_must_record_the_family(funded):
    with pytest.raises(WalletError, match="family"):
        services.take_rake(TABLE, 5, family="", key="rake")


def test_same_key_twice_moves_chips_once(funded):
    first = services.buy_in(funded, TABLE, 500, ante=ANTE, key="sit")
    again = services.buy_in(funded, TABLE, 500, ante=ANTE, key="sit")
    assert again.pk == first.pk
    assert balance_of(funded) == 4500
    assert accounts.stack_account(funded, TABLE).balance == 500


def test_same_key_for_a_different_movement_is_a_clear_error(funded):
    services.buy_in(funded, TABLE, 500, ante=ANTE, key="sit")
    before = snapshot()
    with pytest.raises(WalletError, match="already used for a different transfer"):
        services.buy_in(funded, TABLE, 600, ante=ANTE, key="sit")
    with pytest.raises(WalletError, match="already used for a different transfer"):
        services.cash_out(funded, TABLE, 500, key="sit")
    assert snapshot() == before


def test_services_join_the_callers_transaction_and_roll_back_with_it(funded):
    from django.db import transaction

    with pytest.raises(RuntimeError), transaction.atomic():
        services.buy_in(funded, TABLE, 500, ante=ANTE, key="sit")
        raise RuntimeError("the table server's step failed")
    assert balance_of(funded) == 5000
    assert not Transfer.objects.filter(key="sit").exists()


def test_a_refused_service_inside_an_outer_transaction_leaves_it_usable(funded):
    from django.db import transaction

    with transaction.atomic():
        services.buy_in(funded, TABLE, 500, ante=ANTE, key="sit")
        with pytest.raises(WalletError):
            services.cash_out(funded, TABLE, 501, key="stand")
        services.cash_out(funded, TABLE, 500, key="stand")
    assert balance_of(funded) == 5000


def test_bots_sit_with_chips_from_the_pool_and_return_them(bot, staff):
    services.fund_bots(10_000, "seed-1", staff=staff)
    services.bot_buy_in(bot, TABLE, 1000, "bot-sit")
    assert accounts.bots_pool_account().balance == 9000
    services.pay_in(bot, TABLE, 10, key="bot-ante")
    services.pay_out(bot, TABLE, 10, key="bot-win")
    services.bot_cash_out(bot, TABLE, 1000, "bot-stand")
    assert accounts.bots_pool_account().balance == 10_000
    assert audit_ledger().ok


def test_bot_buy_in_beyond_the_pool_is_refused(bot):
    with pytest.raises(WalletError, match="Not enough chips"):
        services.bot_buy_in(bot, TABLE, 1000, "bot-sit")


def test_a_player_cannot_draw_from_the_bots_pool(player, staff):
    services.fund_bots(1000, "seed")
    with pytest.raises(WalletError, match="Only a bot"):
        services.bot_buy_in(player, TABLE, 100, "x")


def test_history_lists_the_balance_transfers_newest_first_with_running_balance(funded, staff):
    services.buy_in(funded, TABLE, 1000, ante=ANTE, key="sit")
    services.pay_in(funded, TABLE, 10, key="ante")  # stack → pot: not on the balance
    services.cash_out(funded, TABLE, 990, key="stand")
    lines = history_of(funded)
    assert [line.kind for line in lines] == ["cash_out", "buy_in", "credit"]
    assert [line.change for line in lines] == [990, -1000, 5000]
    assert [line.balance_after for line in lines] == [4990, 4000, 5000]
    assert lines[0].description == f"Stood up at table {TABLE}"
    assert lines[2].description == "Credited by staff: welcome chips"
    assert history_of(funded, limit=1)[0].kind == "cash_out"


def test_balance_and_history_of_a_player_without_chips(player):
    assert balance_of(player) == 0
    assert history_of(player) == []
    assert not LedgerAccount.objects.filter(kind=AccountKind.BALANCE).exists()


def test_a_retry_that_passes_every_check_answers_with_the_first_transfer(funded):
    """The conflict path: the stack could pay again, but the key's unique row says it already did."""
    services.buy_in(funded, TABLE, 500, ante=ANTE, key="sit")
    first = services.pay_in(funded, TABLE, 20, key="t7:v3:in")
    again = services.pay_in(funded, TABLE, 20, key="t7:v3:in")
    assert again.pk == first.pk and Transfer.objects.filter(key="t7:v3:in").count() == 1
    assert accounts.stack_account(funded, TABLE).balance == 480
    assert accounts.pot_account(TABLE).balance == 20


def test_refusals_of_every_table_movement_leave_the_outer_transaction_usable(funded, staff, bot):
    from django.db import transaction

    services.fund_bots(1000, key="pool")
    with transaction.atomic():
        services.buy_in(funded, TABLE, 500, ante=ANTE, key="sit")
        before = snapshot()
        refusals = [
            lambda: services.pay_in(funded, TABLE, 501, key="in"),
            lambda: services.pay_out(funded, TABLE, 1, key="out"),
            lambda: services.take_rake(TABLE, 1, family="classic", key="rake"),
            lambda: services.debit(funded, 10_000, reason="too much", staff=staff),
            lambda: services.bot_buy_in(bot, TABLE, 5000, "bot-sit"),
            lambda: services.bot_cash_out(bot, TABLE, 1, "bot-stand"),
            lambda: services.add_chips(funded, TABLE, 600, ante=ANTE, stack=500, key="add"),
        ]
        for refuse in refusals:
            with pytest.raises(WalletError):
                refuse()
            assert snapshot() == before
        services.pay_in(funded, TABLE, 20, key="in")  # and the transaction goes on
    assert accounts.pot_account(TABLE).balance == 20 and audit_ledger().ok


def test_a_table_movement_inside_the_callers_transaction_costs_two_queries(funded, django_assert_num_queries):
    """A batch of one (wallet.batch.move): lock both accounts, insert the transfer and update both balances (one
    statement on PostgreSQL, two on SQLite). It used to cost nine (two account look-ups, savepoints around the
    service and the insert, the lock, the update)."""
    from django.db import connection

    services.buy_in(funded, TABLE, 500, ante=ANTE, key="sit")
    accounts.pot_account(TABLE)
    with django_assert_num_queries(2 if connection.vendor == "postgresql" else 3):
        services.pay_in(funded, TABLE, 20, key="in")
