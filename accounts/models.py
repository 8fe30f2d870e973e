from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models


class PlayerManager(UserManager):
    """Users log in by e-mail; the username is kept only as an internal handle."""

    def _create_user(self, username, email, password, **extra_fields):
        email = self.normalize_email(email)
        username = username or email
        return super()._create_user(username, email, password, **extra_fields)

    def create_user(self, username=None, email=None, password=None, **extra_fields):
        return super().create_user(username or email, email, password, **extra_fields)

    def create_superuser(self, username=None, email=None, password=None, **extra_fields):
        return super().create_superuser(username or email, email, password, **extra_fields)


class User(AbstractUser):
    email = models.EmailField("e-mail address", unique=True)
    display_name = models.CharField(
        max_length=32, blank=True, help_text="The name other players see at the tables."
    )
    is_bot = models.BooleanField(default=False, help_text="Seats filled by the platform's bots.")

    objects = PlayerManager()

    EMAIL_FIELD = "email"
    REQUIRED_FIELDS = ["email"]

    def __str__(self) -> str:
        return self.table_name

    @property
    def table_name(self) -> str:
        """The name shown at tables: the display name, else the part of the e-mail before the @."""
        if self.display_name:
            return self.display_name
        return (self.email or self.username).split("@")[0]
