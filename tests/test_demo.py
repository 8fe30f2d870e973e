"""The README's run command loads demo data: loading it twice changes nothing and the ledger stays clean."""

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.management import call_command

from bots.services import bots_at
from tables.models import Table, TableStatus
from wallet.selectors import balance_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_demo_data_loads_twice_with_the_same_result_and_a_clean_ledger():
    call_command("load_demo")
    User = get_user_model()
    snapshot = (
        User.objects.count(),
        Table.objects.filter(status=TableStatus.OPEN).count(),
        [balance_of(User.objects.get(email=e)) for e in ("alice@svara.local", "bob@svara.local")],
    )
    call_command("load_demo")
    assert snapshot == (
        User.objects.count(),
        Table.objects.filter(status=TableStatus.OPEN).count(),
        [balance_of(User.objects.get(email=e)) for e in ("alice@svara.local", "bob@svara.local")],
    )
    assert snapshot[2] == [10_000, 10_000]
    assert User.objects.get(email="staff@svara.local").is_staff
    assert EmailAddress.objects.filter(email="alice@svara.local", verified=True, primary=True).exists()
    for family in ("classic", "bulgarian"):
        bot_tables = [t for t in Table.objects.filter(family=family, status=TableStatus.OPEN) if bots_at(t.pk)]
        assert bot_tables, f"no {family} table with bots in the demo"
    call_command("audit_ledger")


def test_the_demo_and_bot_policy_tables_never_close_for_being_empty():
    from datetime import timedelta

    from django.utils import timezone

    from lobby.tasks import close_idle_tables

    call_command("load_demo")
    staff_tables = set(Table.objects.filter(status=TableStatus.OPEN).values_list("pk", flat=True))
    assert len(staff_tables) == 5  # three people's tables, a bot table of each family
    assert set(Table.objects.filter(kept_open=True).values_list("pk", flat=True)) == staff_tables
    Table.objects.update(empty_since=timezone.now() - timedelta(days=1))
    assert close_idle_tables() == 0
    assert set(Table.objects.filter(status=TableStatus.OPEN).values_list("pk", flat=True)) == staff_tables


def test_a_demo_table_loaded_before_the_kept_open_mark_gets_it():
    call_command("load_demo")
    Table.objects.update(kept_open=False)
    call_command("load_demo")
    assert not Table.objects.filter(status=TableStatus.OPEN, kept_open=False).exists()
    assert Table.objects.filter(status=TableStatus.OPEN).count() == 5
