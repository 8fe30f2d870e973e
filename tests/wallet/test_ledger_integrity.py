"""Transfers are immutable and the database itself refuses overdrafts, zero transfers and changed history."""

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, connection, transaction

from wallet import accounts, services
from wallet.audit import audit_ledger
from wallet.models import ImmutableTransferError, LedgerAccount, Transfer

from .conftest import require_postgresql

pytestmark = pytest.mark.django_db


def test_a_transfer_cannot_be_saved_again_or_deleted(funded):
    t = Transfer.objects.get()
    t.amount = 1
    with pytest.raises(ImmutableTransferError):
        t.save()
    with pytest.raises(ImmutableTransferError):
        t.delete()
    with pytest.raises(ImmutableTransferError):
        Transfer.objects.filter(pk=t.pk).update(amount=1)
    with pytest.raises(ImmutableTransferError):
        Transfer.objects.all().delete()
    assert Transfer.objects.get().amount == 5000


def test_the_database_refuses_to_update_a_transfer_even_in_raw_sql(funded):
    with pytest.raises(Exception, match="immutable"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE wallet_transfer SET amount = 1")
    assert Transfer.objects.get().amount == 5000


def test_the_database_refuses_to_delete_a_transfer_in_raw_sql(funded):
    require_postgresql()
    with pytest.raises(Exception, match="immutable"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM wallet_transfer")
    assert Transfer.objects.count() == 1


def test_the_database_refuses_a_negative_player_balance(funded):
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerAccount.objects.filter(pk=accounts.balance_account(funded).pk).update(balance=-1)


def test_the_treasury_alone_may_go_negative(funded):
    assert accounts.treasury_account().balance == -5000


def test_the_database_refuses_a_transfer_of_zero_chips(funded):
    t = accounts.treasury_account()
    b = accounts.balance_account(funded)
    with pytest.raises(IntegrityError), transaction.atomic():
        Transfer.objects.create(key="zero", kind="credit", source=t, destination=b, amount=0)


def test_the_database_refuses_a_second_transfer_with_the_same_key(funded):
    t = accounts.treasury_account()
    b = accounts.balance_account(funded)
    key = Transfer.objects.get().key
    with pytest.raises(IntegrityError), transaction.atomic():
        Transfer.objects.create(key=key, kind="credit", source=t, destination=b, amount=5)


def test_the_database_refuses_a_second_balance_for_one_player(funded):
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerAccount.objects.create(kind="balance", user=funded)


def test_audit_ledger_is_clean_after_ordinary_play(funded, capsys):
    services.buy_in(funded, 3, 400, ante=20, key="sit")
    services.pay_in(funded, 3, 20, key="ante")
    services.take_rake(3, 1, family="bulgarian", key="rake")
    services.pay_out(funded, 3, 19, key="win")
    services.cash_out(funded, 3, 399, key="stand")
    call_command("audit_ledger")
    out = capsys.readouterr().out
    assert "Ledger clean" in out
    assert "5000 chips in circulation" in out
    report = audit_ledger()
    assert report.ok and report.in_circulation == 5000


def test_audit_ledger_reports_a_corrupted_balance_and_fails(funded, capsys):
    account = accounts.balance_account(funded)
    with connection.cursor() as cursor:
        cursor.execute("UPDATE wallet_ledgeraccount SET balance = 4000 WHERE id = %s", [account.pk])
    with pytest.raises(CommandError, match="does not add up"):
        call_command("audit_ledger")
    err = capsys.readouterr().err
    assert f"account #{account.pk}" in err
    assert "stored balance 4000, its transfers give 5000" in err
    assert "all balances sum to -1000, not 0" in err
