"""Staff admin: balances and the ledger are read-only; credits and debits go through the services with the
staff member and reason recorded; users are searched and deactivated, never deleted."""

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from wallet import services
from wallet.models import LedgerAccount, Transfer
from wallet.selectors import balance_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_(client, make_user):
    boss = make_user("boss@example.com", is_staff=True, is_superuser=True, display_name="Boss")
    client.force_login(boss)
    client.boss = boss
    return client


def test_ledger_accounts_list_is_readable_but_not_editable(admin_client_, funded):
    response = admin_client_.get(reverse("admin:wallet_ledgeraccount_changelist"))
    assert response.status_code == 200
    assert b"5000" in response.content
    assert b"Credit or debit a player" in response.content
    account = LedgerAccount.objects.get(kind="balance")
    assert admin_client_.get(reverse("admin:wallet_ledgeraccount_add")).status_code == 403
    before = account.balance
    admin_client_.post(reverse("admin:wallet_ledgeraccount_change", args=[account.pk]), {"balance": 1})
    account.refresh_from_db()
    assert account.balance == before
    assert (
        admin_client_.post(reverse("admin:wallet_ledgeraccount_delete", args=[account.pk])).status_code == 403
    )


def test_transfers_cannot_be_added_changed_or_deleted_in_admin(admin_client_, funded):
    t = Transfer.objects.get()
    assert admin_client_.get(reverse("admin:wallet_transfer_changelist")).status_code == 200
    assert admin_client_.get(reverse("admin:wallet_transfer_change", args=[t.pk])).status_code == 200
    assert admin_client_.get(reverse("admin:wallet_transfer_add")).status_code == 403
    admin_client_.post(reverse("admin:wallet_transfer_change", args=[t.pk]), {"amount": 1, "memo": "x"})
    assert admin_client_.post(reverse("admin:wallet_transfer_delete", args=[t.pk])).status_code == 403
    response = admin_client_.post(
        reverse("admin:wallet_transfer_changelist"), {"action": "delete_selected", "_selected_action": [t.pk]}
    )
    assert response.status_code in (200, 302)
    t.refresh_from_db()
    assert (t.amount, t.memo) == (5000, "welcome chips")
    assert Transfer.objects.count() == 1


def test_staff_credit_in_admin_records_the_staff_member_and_reason(admin_client_, player):
    url = reverse("admin:wallet_ledgeraccount_adjust")
    page = admin_client_.get(url)
    key = page.context["form"].initial["key"]
    data = {
        "player": player.email,
        "direction": "credit",
        "amount": 750,
        "reason": "tournament prize",
        "key": key,
    }
    response = admin_client_.post(url, data)
    assert response.status_code == 302
    # Submitting the same form again (a double click, a reload) moves the chips once.
    admin_client_.post(url, data)
    assert balance_of(player) == 750
    t = Transfer.objects.get()
    assert (t.kind, t.actor, t.memo) == ("credit", admin_client_.boss, "tournament prize")


def test_staff_debit_beyond_the_balance_shows_the_error_and_moves_nothing(admin_client_, funded):
    url = reverse("admin:wallet_ledgeraccount_adjust")
    data = {"player": funded.email, "direction": "debit", "amount": 9000, "reason": "oops", "key": "k1"}
    response = admin_client_.post(url, data)
    assert response.status_code == 200
    assert b"Not enough chips" in response.content
    assert balance_of(funded) == 5000


@pytest.mark.parametrize(
    "change, message",
    [
        ({"player": "nobody@example.com"}, b"No player with that e-mail or id."),
        ({"amount": 0}, b"greater than or equal to 1"),
        ({"reason": "   "}, b"This field is required."),
    ],
)
def test_bad_credit_form_is_refused_with_a_clear_error(admin_client_, player, change, message):
    data = {"player": player.email, "direction": "credit", "amount": 10, "reason": "r", "key": "k", **change}
    response = admin_client_.post(reverse("admin:wallet_ledgeraccount_adjust"), data)
    assert response.status_code == 200
    assert message in response.content
    assert not Transfer.objects.exists()


def test_staff_without_the_adjust_permission_cannot_credit(client, make_user, player):
    clerk = make_user("clerk@example.com", is_staff=True)
    clerk.user_permissions.add(Permission.objects.get(codename="view_ledgeraccount"))
    client.force_login(clerk)
    url = reverse("admin:wallet_ledgeraccount_adjust")
    assert client.get(url).status_code == 403
    data = {"player": player.email, "direction": "credit", "amount": 10, "reason": "r", "key": "k"}
    assert client.post(url, data).status_code == 403
    assert balance_of(player) == 0


def test_user_admin_searches_by_email_and_display_name(admin_client_, player, other_player):
    url = reverse("admin:accounts_user_changelist")
    by_name = admin_client_.get(url, {"q": "Boris"})
    assert b"boris@example.com" in by_name.content and b"ann@example.com" not in by_name.content
    by_email = admin_client_.get(url, {"q": "ann@"})
    assert b"ann@example.com" in by_email.content and b"boris@example.com" not in by_email.content


def test_user_admin_deactivates_instead_of_deleting(admin_client_, funded, other_player):
    url = reverse("admin:accounts_user_changelist")
    admin_client_.post(url, {"action": "deactivate", "_selected_action": [funded.pk, admin_client_.boss.pk]})
    funded.refresh_from_db()
    admin_client_.boss.refresh_from_db()
    other_player.refresh_from_db()
    assert not funded.is_active
    assert admin_client_.boss.is_active  # nobody locks himself out
    assert other_player.is_active
    assert admin_client_.post(reverse("admin:accounts_user_delete", args=[funded.pk])).status_code == 403
    page = admin_client_.get(reverse("admin:accounts_user_change", args=[funded.pk]))
    assert b"5000 chips" in page.content


def test_deactivated_user_no_longer_logs_in(client, funded, staff):
    funded.is_active = False
    funded.save()
    assert not client.login(username=funded.username, password="pw-for-tests-1")
    services.credit(funded, 1, reason="still has a ledger", staff=staff)
    assert balance_of(funded) == 5001


def test_staff_fund_the_bots_pool_from_the_treasury_in_admin(admin_client_):
    from wallet import accounts

    url = reverse("admin:wallet_ledgeraccount_adjust")
    data = {
        "player": "",
        "direction": "fund_bots",
        "amount": 20000,
        "reason": "bots for the evening",
        "key": "b1",
    }
    assert admin_client_.post(url, data).status_code == 302
    assert accounts.bots_pool_account().balance == 20000
    t = Transfer.objects.get()
    assert (t.kind, t.actor, t.memo) == ("bot_seed", admin_client_.boss, "bots for the evening")


def test_a_credit_needs_a_player(admin_client_):
    data = {"player": "", "direction": "credit", "amount": 10, "reason": "r", "key": "k"}
    response = admin_client_.post(reverse("admin:wallet_ledgeraccount_adjust"), data)
    assert b"Choose the player to credit or debit." in response.content
    assert not Transfer.objects.exists()
