import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from tables import services
from wallet import services as wallet


def make_user(email, **extra):
    return get_user_model().objects.create_user(email=email, password="pw-for-tests-1", **extra)


@pytest.fixture
def staff(db):
    return make_user("staff@example.com", is_staff=True, display_name="Staff")


@pytest.fixture
def players(staff):
    """Ann, Boris and Vera, 10,000 chips each on their balance."""
    people = []
    for name in ("Ann", "Boris", "Vera"):
        user = make_user(f"{name.lower()}@example.com", display_name=name)
        wallet.credit(user, 10_000, reason="welcome chips", staff=staff)
        people.append(user)
    return people


@pytest.fixture
def classic_table(players):
    return services.create_table(players[0], "classic", 10, 6, False)


@pytest.fixture
def bulgarian_table(players):
    return services.create_table(players[0], "bulgarian", 10, 8, False)


def audit_clean():
    call_command("audit_ledger")  # raises CommandError on any problem
