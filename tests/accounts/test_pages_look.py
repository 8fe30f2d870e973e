"""Every account page people can reach is drawn in the site's look (allauth's layouts extend base.html)."""

import pytest
from django.urls import reverse

SITE_CSS = '<link rel="stylesheet" href="/static/css/site.css">'

ANONYMOUS_PAGES = [
    "account_login",
    "account_signup",
    "account_reset_password",
    "account_reset_password_done",
    "account_email_verification_sent",
]
SIGNED_IN_PAGES = ["account_change_password", "account_email", "account_logout", "accounts:profile"]


@pytest.mark.django_db
@pytest.mark.parametrize("name", ANONYMOUS_PAGES)
def test_entrance_pages_use_the_site_look(client, name):
    response = client.get(reverse(name))
    assert response.status_code == 200
    html = response.content.decode()
    assert SITE_CSS in html
    assert 'class="topbar"' in html
    assert 'class="card auth-card"' in html


@pytest.mark.django_db
@pytest.mark.parametrize("name", SIGNED_IN_PAGES)
def test_signed_in_pages_use_the_site_look_and_show_the_balance(client, player, name):
    client.force_login(player)
    response = client.get(reverse(name))
    assert response.status_code == 200
    html = response.content.decode()
    assert SITE_CSS in html
    assert 'id="user-balance">0<' in html


@pytest.mark.django_db
def test_a_broken_confirmation_link_says_so(client):
    response = client.get(reverse("account_confirm_email", args=["not-a-real-key"]))
    assert response.status_code == 200
    html = response.content.decode()
    assert SITE_CSS in html
    assert "expired or is invalid" in html


@pytest.mark.django_db
def test_signed_in_player_visiting_login_is_sent_on(client, player):
    client.force_login(player)
    response = client.get(reverse("account_login"))
    assert response.status_code == 302
    assert response["Location"] == "/"
