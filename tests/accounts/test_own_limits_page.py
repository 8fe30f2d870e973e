"""The profile's "Your limits" (tracker issue 14): setting limits with clear errors, raises shown as pending, the
self-exclusion confirmed and shown; staff read the limits in the admin and can change or lift nothing."""

import pytest
from django.urls import reverse

from wallet import limits
from wallet.models import PlayerLimits

from .conftest import make_verified_user

PROFILE = reverse("accounts:profile")


@pytest.fixture
def logged_in(client, player):
    client.force_login(player)
    return client


@pytest.mark.django_db
def test_setting_limits_takes_effect_and_says_so(logged_in, player):
    response = logged_in.post(
        PROFILE, {"form": "limits", "daily_buy_in_cap": "1000", "daily_loss_limit": "", "session_minutes": "45"},
        follow=True,
    )  # fmt: skip
    html = response.content.decode()
    assert response.status_code == 200
    assert "Your daily buy-in cap is now 1,000 chips, at once." in html
    assert "Your session reminder is now 45 minutes, at once." in html
    assert limits.of(player).daily_buy_in_cap == 1000 and limits.of(player).daily_loss_limit is None
    assert 'name="daily_buy_in_cap" value="1000"' in html


@pytest.mark.django_db
def test_a_raise_is_shown_as_pending_for_24_hours(logged_in, player):
    limits.set_limits(player, daily_buy_in_cap=1000)
    response = logged_in.post(PROFILE, {"form": "limits", "daily_buy_in_cap": "5000"}, follow=True)
    html = response.content.decode()
    assert "a raise waits 24 hours" in html and "until then it stays 1,000 chips" in html
    assert 'id="pending-limits"' in html and "Pending: your daily buy-in cap becomes 5,000" in html
    assert limits.of(player).daily_buy_in_cap == 1000


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "value", "error"),
    [
        ("daily_buy_in_cap", "0", "greater than or equal to 1"),
        ("daily_loss_limit", "-3", "greater than or equal to 1"),
        ("session_minutes", "lots", "Enter a whole number"),
        ("session_minutes", "100000", "less than or equal to 1440"),
    ],
)
def test_bad_limits_get_a_clear_error_and_change_nothing(logged_in, player, field, value, error):
    response = logged_in.post(PROFILE, {"form": "limits", field: value})
    assert response.status_code == 400
    assert error in response.content.decode()
    assert not PlayerLimits.objects.filter(user=player).exists()


@pytest.mark.django_db
def test_an_exclusion_needs_the_confirmation_then_starts_at_once(logged_in, player):
    unconfirmed = logged_in.post(PROFILE, {"form": "exclusion", "period": "week"})
    assert unconfirmed.status_code == 400
    assert "a self-exclusion cannot be lifted early" in unconfirmed.content.decode()
    assert not limits.of(player).excluded_until
    bad = logged_in.post(PROFILE, {"form": "exclusion", "period": "forever", "confirm": "on"})
    assert bad.status_code == 400 and "Select a valid choice" in bad.content.decode()
    response = logged_in.post(PROFILE, {"form": "exclusion", "period": "week", "confirm": "on"}, follow=True)
    html = response.content.decode()
    until = limits.of(player).excluded_until
    assert until is not None
    assert f"You are excluded from play until {limits.when(until)}." in html
    assert 'id="exclusion-status"' in html


@pytest.mark.django_db
def test_staff_see_the_limits_in_the_admin_read_only(client, player):
    admin = make_verified_user("root@example.com", "Root", is_staff=True, is_superuser=True)
    until = limits.exclude(player, "month")
    limits.set_limits(player, daily_loss_limit=300)
    row = PlayerLimits.objects.get(user=player)
    client.force_login(admin)
    listing = client.get(reverse("admin:wallet_playerlimits_changelist"))
    assert listing.status_code == 200 and "Ann" in listing.content.decode()
    change = reverse("admin:wallet_playerlimits_change", args=[row.pk])
    assert client.get(change).status_code == 200
    client.post(change, {"excluded_until_0": "", "excluded_until_1": "", "daily_loss_limit": ""})
    assert client.get(reverse("admin:wallet_playerlimits_add")).status_code == 403
    assert client.post(reverse("admin:wallet_playerlimits_delete", args=[row.pk])).status_code == 403
    row.refresh_from_db()
    assert row.excluded_until == until and row.daily_loss_limit == 300


@pytest.mark.django_db(transaction=True)
def test_starting_an_exclusion_stands_the_player_up_at_every_table(logged_in, player, staff):
    from tables import services
    from tables.models import TableSeat
    from wallet.selectors import balance_of
    from wallet.services import credit

    credit(player, 1000, reason="chips", staff=staff)
    tables = [services.create_table(staff, "classic", 10, 4, False) for _ in range(2)]
    for table in tables:
        services.sit(table.pk, player, 300)
    response = logged_in.post(PROFILE, {"form": "exclusion", "period": "day", "confirm": "on"}, follow=True)
    assert f"You stood up at table {tables[0].pk}, {tables[1].pk}" in response.content.decode()
    assert not TableSeat.objects.filter(user=player).exists()
    assert balance_of(player) == 1000
