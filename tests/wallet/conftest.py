import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from wallet import services


def _make_user(email, **extra):
    return get_user_model().objects.create_user(email=email, password="pw-for-tests-1", **extra)


@pytest.fixture
def make_user(db):
    return _make_user


@pytest.fixture
def staff(db):
    return _make_user("staff@example.com", is_staff=True, display_name="Staff")


@pytest.fixture
def player(db):
    return _make_user("ann@example.com", display_name="Ann")


@pytest.fixture
def other_player(db):
    return _make_user("boris@example.com", display_name="Boris")


@pytest.fixture
def bot(db):
    return _make_user("bot1@bots.svara.local", display_name="Bot 1", is_bot=True)


@pytest.fixture
def funded(player, staff):
    """Ann with 5000 chips credited by staff."""
    services.credit(player, 5000, reason="welcome chips", staff=staff)
    return player


def require_postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (row locks, triggers, concurrent connections): set DATABASE_URL")
