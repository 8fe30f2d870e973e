"""Sign-up, e-mail verification and the first login, through the real allauth views."""

import re

import pytest
from allauth.account.models import EmailAddress
from allauth.core import context
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.backends.db import SessionStore
from django.core import mail
from django.urls import reverse

from accounts.forms import SignupForm

from .conftest import PASSWORD, make_verified_user

User = get_user_model()
SIGNUP = reverse("account_signup")
LOGIN = reverse("account_login")


def signup(client, email="vera@example.com", display_name="Vera", password=PASSWORD, password2=None):
    return client.post(
        SIGNUP,
        {
            "email": email,
            "display_name": display_name,
            "password1": password,
            "password2": password if password2 is None else password2,
        },
    )


def confirmation_link(message) -> str:
    match = re.search(r"https?://[^/\s]+(/accounts/confirm-email/[^\s]+/)", message.body)
    assert match, message.body
    return match.group(1)


@pytest.mark.django_db
def test_register_verify_login_and_see_the_balance_staff_credited(client, staff):
    from wallet.services import credit

    response = signup(client)
    assert response.status_code == 302
    assert response["Location"] == reverse("account_email_verification_sent")
    user = User.objects.get(email="vera@example.com")
    assert user.display_name == "Vera"
    assert not EmailAddress.objects.get(user=user).verified

    # Verification is mandatory: no session until the link is followed.
    assert client.get(reverse("accounts:profile")).status_code == 302
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["vera@example.com"]
    assert mail.outbox[0].subject.startswith("[Svara] ")
    assert 'choosing the display name "Vera"' in mail.outbox[0].body

    link = confirmation_link(mail.outbox[0])
    page = client.get(link)
    assert page.status_code == 200
    assert b"vera@example.com" in page.content
    confirmed = client.post(link)
    assert confirmed.status_code == 302 and confirmed["Location"] == "/"
    assert EmailAddress.objects.get(user=user).verified
    # Confirming logged him in (issue 12 item 12: it used to send him to the login page), with his welcome chips.
    lobby = client.get("/").content.decode()
    assert 'id="user-balance">2,000<' in lobby
    client.logout()

    credit(user, 1500, reason="more chips", staff=staff)

    logged_in = client.post(
        LOGIN,
        {"login": "vera@example.com", "password": PASSWORD, "next": reverse("accounts:profile")},
        follow=True,
    )
    assert logged_in.status_code == 200
    assert logged_in.context["user"] == user
    assert 'id="user-balance">3,500<' in logged_in.content.decode()  # the top bar, on every page
    # Another page (the password page) shows the same figure in the top bar.
    assert 'id="user-balance">3,500<' in client.get(reverse("account_change_password")).content.decode()
    profile = logged_in.content.decode()
    assert 'id="profile-balance">3,500<' in profile
    assert "Credited by staff: more chips" in profile and "Welcome chips" in profile


@pytest.mark.django_db
def test_a_new_player_gets_the_welcome_chips_once_from_the_treasury(client, settings):
    from django.core.management import call_command

    from wallet import services as wallet
    from wallet.models import Transfer, TransferKind
    from wallet.selectors import balance_of

    settings.SVARA_WELCOME_CHIPS = 1200
    signup(client)
    user = User.objects.get(email="vera@example.com")
    assert balance_of(user) == 1200
    again = wallet.welcome(user, 1200)  # the key is his: a second grant moves nothing
    assert Transfer.objects.filter(kind=TransferKind.WELCOME).count() == 1 and again.amount == 1200
    assert balance_of(user) == 1200
    call_command("audit_ledger")


@pytest.mark.django_db
def test_no_welcome_chips_when_the_setting_is_zero(client, settings):
    from wallet.selectors import balance_of

    settings.SVARA_WELCOME_CHIPS = 0
    signup(client)
    assert balance_of(User.objects.get(email="vera@example.com")) == 0


@pytest.mark.django_db
def test_signup_page_renders_in_the_site_look(client):
    html = client.get(SIGNUP).content.decode()
    assert '<link rel="stylesheet" href="/static/css/site.css">' in html
    assert 'class="card auth-card"' in html
    assert 'name="display_name"' in html
    # e-mail, then the display name, then the passwords
    assert html.index('name="email"') < html.index('name="display_name"') < html.index('name="password1"')


@pytest.mark.django_db
def test_taken_email_is_refused_with_a_clear_message_and_creates_nothing(client, player):
    users, addresses = User.objects.count(), EmailAddress.objects.count()
    response = signup(client, email="ANN@example.com", display_name="Another Ann")
    assert response.status_code == 200
    assert "A user is already registered with this email address." in response.content.decode()
    assert User.objects.count() == users
    assert EmailAddress.objects.count() == addresses
    assert mail.outbox == []


@pytest.mark.django_db
@pytest.mark.parametrize(
    "display_name, message",
    [
        ("", "Please choose a display name"),
        ("   ", "Please choose a display name"),
        ("A", "at least 2 characters"),
        ("x" * 33, "at most 32 characters"),
        ("Ann<script>", "Use only letters, digits, spaces and the characters _ - ."),
        ("ann@home", "Use only letters, digits, spaces and the characters _ - ."),
        ("__--..", "at least one letter or digit"),
    ],
)
def test_bad_display_name_is_refused_and_creates_nothing(client, display_name, message):
    response = signup(client, email="new@example.com", display_name=display_name)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not User.objects.exists()
    assert not EmailAddress.objects.exists()
    assert mail.outbox == []


@pytest.mark.django_db
def test_display_name_taken_in_another_case_is_refused(client, player):
    response = signup(client, email="new@example.com", display_name="  aNN ")
    assert response.status_code == 200
    assert "The display name “aNN” is already taken." in response.content.decode()
    assert not User.objects.filter(email="new@example.com").exists()
    assert not EmailAddress.objects.filter(email="new@example.com").exists()


@pytest.mark.django_db
def test_display_name_may_use_cyrillic_and_is_trimmed(client):
    response = signup(client, email="ivan@example.com", display_name="  Иван   Петров ")
    assert response.status_code == 302
    assert User.objects.get(email="ivan@example.com").display_name == "Иван Петров"


@pytest.mark.django_db
def test_mismatched_passwords_create_nothing(client):
    response = signup(client, email="new@example.com", password2="something-else-77")
    assert response.status_code == 200
    assert "You must type the same password each time." in response.content.decode()
    assert not User.objects.exists()
    assert not EmailAddress.objects.exists()


@pytest.mark.django_db
def test_signup_with_an_email_that_was_once_a_username_still_works(client):
    # The internal username defaults to the e-mail; a player who changed his e-mail keeps the old one as
    # username, and a newcomer with that old e-mail must still be able to sign up.
    old = make_verified_user("old@example.com", "Oldtimer")
    old.email = "moved@example.com"
    old.save()
    assert old.username == "old@example.com"
    EmailAddress.objects.filter(user=old).update(email="moved@example.com")
    response = signup(client, email="old@example.com", display_name="Newcomer")
    assert response.status_code == 302
    newcomer = User.objects.get(email="old@example.com")
    assert newcomer.username != "old@example.com"


def try_save_late(rf, form, data):
    """The sign-up view's save of an already validated form, as a request of its own (the race's second half)."""
    request = rf.post(SIGNUP, data)
    request.session = SessionStore()
    request._messages = FallbackStorage(request)
    request.user = AnonymousUser()
    with context.request_context(request):
        user, response = form.try_save(request)
    return user, response, request


@pytest.mark.django_db
def test_email_taken_between_check_and_save_creates_no_second_account(rf, client):
    # The race of two simultaneous sign-ups: the form was validated, then the same e-mail got registered.
    data = {
        "email": "race@example.com",
        "display_name": "Racer",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    form = SignupForm(data=data)
    assert form.is_valid(), form.errors
    first = make_verified_user("race@example.com", "First")

    user, response, _ = try_save_late(rf, form, data)
    assert user is None
    assert response.status_code == 302
    assert list(User.objects.filter(email__iexact="race@example.com")) == [first]
    assert EmailAddress.objects.filter(email__iexact="race@example.com").count() == 1
    assert not User.objects.filter(display_name="Racer").exists()
    assert [m.to for m in mail.outbox] == [["race@example.com"]]
    assert "already" in mail.outbox[0].subject.lower() or "already" in mail.outbox[0].body.lower()


@pytest.mark.django_db
def test_display_name_taken_between_check_and_save_is_refused_with_a_clear_message(rf):
    # Two sign-ups racing for one display name: the form was validated, then somebody took the name (in another
    # case). The database's constraint refuses the second person; nothing of the second account is left.
    data = {"email": "second@example.com", "display_name": "Racer", "password1": PASSWORD, "password2": PASSWORD}
    form = SignupForm(data=data)
    assert form.is_valid(), form.errors
    first = make_verified_user("first@example.com", "RACER")

    user, response, request = try_save_late(rf, form, data)
    assert user is None
    assert response.status_code == 302 and response["Location"] == SIGNUP
    assert [str(m) for m in request._messages] == [
        "The display name “Racer” was taken a moment ago. Please choose another one."
    ]
    assert list(User.objects.filter(display_name__iexact="racer")) == [first]
    assert not User.objects.filter(email__iexact="second@example.com").exists()
    assert not EmailAddress.objects.filter(email__iexact="second@example.com").exists()
    assert mail.outbox == []
