import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model

PASSWORD = "felt-and-chips-42"


def make_verified_user(email, display_name, *, password=PASSWORD, **extra):
    """A player as allauth would leave him after sign-up and verification."""
    user = get_user_model().objects.create_user(
        email=email, password=password, display_name=display_name, **extra
    )
    EmailAddress.objects.create(user=user, email=email, primary=True, verified=True)
    return user


@pytest.fixture
def player(db):
    return make_verified_user("ann@example.com", "Ann")


@pytest.fixture
def staff(db):
    return make_verified_user("staff@example.com", "Floor", is_staff=True)
