"""Logging in and out, changing and resetting the password."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from .conftest import PASSWORD

LOGIN = reverse("account_login")
PROFILE = reverse("accounts:profile")


def log_in(client, email, password):
    return client.post(LOGIN, {"login": email, "password": password})


@pytest.mark.django_db
def test_wrong_password_is_refused_with_a_clear_message(client, player):
    response = log_in(client, "ann@example.com", "not-the-password")
    assert response.status_code == 200
    assert "The email address and/or password you specified are not correct." in response.content.decode()
    assert "_auth_user_id" not in client.session
    assert client.get(PROFILE).status_code == 302


@pytest.mark.django_db
def test_unknown_email_gets_the_same_message_as_a_wrong_password(client, player):
    response = log_in(client, "nobody@example.com", PASSWORD)
    assert "The email address and/or password you specified are not correct." in response.content.decode()
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_login_is_by_email_and_case_insensitive(client, player):
    response = log_in(client, "Ann@Example.com", PASSWORD)
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(player.pk)


@pytest.mark.django_db
def test_logout_ends_the_session(client, player):
    client.force_login(player)
    page = client.get(PROFILE).content.decode()
    assert 'action="/accounts/logout/"' in page  # the top bar's log-out button
    response = client.post(reverse("account_logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session
    assert client.get(PROFILE).status_code == 302


@pytest.mark.django_db
def test_password_change_needs_the_old_password_and_then_works(client, player):
    client.force_login(player)
    url = reverse("account_change_password")
    page = client.get(url)
    assert page.status_code == 200
    assert 'class="manage-layout"' in page.content.decode()

    wrong = client.post(
        url, {"oldpassword": "not-it", "password1": "green-baize-77", "password2": "green-baize-77"}
    )
    assert wrong.status_code == 200
    assert "Please type your current password." in wrong.content.decode()
    player.refresh_from_db()
    assert player.check_password(PASSWORD)

    ok = client.post(
        url,
        {"oldpassword": PASSWORD, "password1": "green-baize-77", "password2": "green-baize-77"},
        follow=True,
    )
    assert ok.status_code == 200
    assert "Password successfully changed." in ok.content.decode()
    player.refresh_from_db()
    assert player.check_password("green-baize-77")
    client.post(reverse("account_logout"))
    assert log_in(client, "ann@example.com", "green-baize-77").status_code == 302


@pytest.mark.django_db
def test_password_reset_sends_a_link_that_sets_a_new_password(client, player):
    response = client.post(reverse("account_reset_password"), {"email": "ann@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["ann@example.com"]
    assert mail.outbox[0].subject.startswith("[Svara] ")
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/[^\s]+/)", mail.outbox[0].body).group(1)

    form_page = client.get(link, follow=True)  # allauth moves the key into the session, then shows the form
    assert form_page.status_code == 200
    set_url = form_page.redirect_chain[-1][0] if form_page.redirect_chain else link
    done = client.post(set_url, {"password1": "new-felt-2024x", "password2": "new-felt-2024x"})
    assert done.status_code == 302
    player.refresh_from_db()
    assert player.check_password("new-felt-2024x")
    assert log_in(client, "ann@example.com", "new-felt-2024x").status_code == 302


@pytest.mark.django_db
def test_password_reset_for_an_unknown_email_says_so_and_sends_nothing(client, player):
    response = client.post(reverse("account_reset_password"), {"email": "nobody@example.com"})
    assert response.status_code == 200
    assert "not assigned to any user account" in response.content.decode()
    assert mail.outbox == []
