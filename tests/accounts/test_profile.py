"""The profile page: display name, e-mail, balance and the player's own chip history."""

import pytest
from django.urls import reverse

from .conftest import make_verified_user

PROFILE = reverse("accounts:profile")


@pytest.mark.django_db
def test_anonymous_visitor_is_sent_to_login(client):
    response = client.get(PROFILE)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('account_login')}?next={PROFILE}"


@pytest.mark.django_db
def test_profile_shows_name_email_and_zero_balance_for_a_new_player(client, player):
    client.force_login(player)
    html = client.get(PROFILE).content.decode()
    assert "Ann" in html
    assert "ann@example.com" in html
    assert 'id="profile-balance">0<' in html
    assert 'id="user-balance">0<' in html
    assert "No chips have moved yet." in html


@pytest.mark.django_db
def test_display_name_can_be_changed(client, player):
    client.force_login(player)
    response = client.post(PROFILE, {"display_name": " Anna  K. "}, follow=True)
    assert response.status_code == 200
    assert "Your display name is now “Anna K.”." in response.content.decode()
    player.refresh_from_db()
    assert player.display_name == "Anna K."


@pytest.mark.django_db
def test_keeping_ones_own_name_in_another_case_is_allowed(client, player):
    client.force_login(player)
    client.post(PROFILE, {"display_name": "ANN"})
    player.refresh_from_db()
    assert player.display_name == "ANN"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "display_name, message",
    [
        ("boris", "The display name “boris” is already taken."),
        ("B", "at least 2 characters"),
        ("Ann/Boris", "Use only letters, digits, spaces and the characters _ - ."),
        ("", "Please choose a display name"),
    ],
)
def test_bad_new_display_name_is_refused_and_changes_nothing(client, player, display_name, message):
    make_verified_user("boris@example.com", "Boris")
    client.force_login(player)
    response = client.post(PROFILE, {"display_name": display_name})
    assert response.status_code == 200
    html = response.content.decode()
    assert message in html
    # the top bar still shows the name actually stored
    assert 'title="Your profile">Ann<' in html
    player.refresh_from_db()
    assert player.display_name == "Ann"


@pytest.mark.django_db
def test_history_lists_own_movements_newest_first_and_paginates(client, player, staff):
    from wallet.services import credit, debit

    other = make_verified_user("boris@example.com", "Boris")
    credit(other, 999, reason="not Ann's", staff=staff)
    for i in range(1, 24):
        credit(player, i, reason=f"gift {i}", staff=staff)
    debit(player, 50, reason="correction", staff=staff)
    total = sum(range(1, 24)) - 50

    client.force_login(player)
    first = client.get(PROFILE).content.decode()
    assert f'id="profile-balance">{total}<' in first
    assert "24 movements" in first
    assert "Page 1 of 2" in first
    assert "Debited by staff: correction" in first
    assert first.index("Debited by staff: correction") < first.index("Credited by staff: gift 23<")
    assert "not Ann" not in first
    assert ">-50<" in first
    assert "Credited by staff: gift 1<" not in first  # the oldest is on page 2

    second = client.get(PROFILE + "?page=2").content.decode()
    assert "Page 2 of 2" in second
    assert "Credited by staff: gift 1<" in second
    assert "Credited by staff: gift 4<" in second
    assert "Debited by staff: correction" not in second


@pytest.mark.django_db
def test_staff_see_finance_and_admin_links_players_do_not(client, player, staff):
    client.force_login(player)
    html = client.get(PROFILE).content.decode()
    assert 'href="/finance/"' not in html
    assert 'href="/admin/"' not in html
    client.force_login(staff)
    html = client.get(PROFILE).content.decode()
    assert 'href="/finance/"' in html
    assert 'href="/admin/"' in html
