from django.conf import settings
from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower


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
    # The language he picked with the header's switcher; blank: his browser's (accounts/language.py).
    language = models.CharField(max_length=8, blank=True, choices=settings.LANGUAGES, default="")

    objects = PlayerManager()

    class Meta(AbstractUser.Meta):
        constraints = [
            # A person's display name is theirs alone, whatever the case; the forms check it first with a clear
            # message, this catches two sign-ups racing for one name. Bots share names ("Ava (bot)").
            models.UniqueConstraint(
                Lower("display_name"),
                condition=Q(is_bot=False) & ~Q(display_name=""),
                name="accounts_display_name_unique",
                violation_error_message="This display name is already taken.",
            )
        ]

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
