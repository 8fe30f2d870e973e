"""Sign-up and profile forms: the display name other players see, validated the same way everywhere."""

from __future__ import annotations

import re

from allauth.account.forms import SignupForm as AllauthSignupForm
from allauth.account.internal import flows
from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.said import said
from wallet import services as wallet

DISPLAY_NAME_MIN = 2
DISPLAY_NAME_MAX = 32
# Unicode letters and digits (players write in Cyrillic as often as Latin), plus space, underscore, hyphen, dot.
_ALLOWED = re.compile(r"^[\w .\-]+$")
_HAS_LETTER_OR_DIGIT = re.compile(r"[^\W_]")

DISPLAY_NAME_HELP = said(
    gettext_lazy("%(min)s–%(max)s characters: letters, digits, spaces and _ - . Shown to the other players at the tables."),
    min=DISPLAY_NAME_MIN, max=DISPLAY_NAME_MAX,
)


def clean_display_name(value: str, *, user=None) -> str:
    """Normalise and check a display name; raise ValidationError with a message a player understands.

    Names are compared without regard to case, so "Ivan" and "ivan" cannot both sit at a table."""
    name = " ".join((value or "").split())  # trim, and one space between words
    if len(name) < DISPLAY_NAME_MIN:
        raise ValidationError(
            _("Your display name must be at least %(min)s characters long.") % {"min": DISPLAY_NAME_MIN}, code="too_short"
        )
    if len(name) > DISPLAY_NAME_MAX:
        raise ValidationError(
            _("Your display name can be at most %(max)s characters long (it has %(length)s).")
            % {"max": DISPLAY_NAME_MAX, "length": len(name)},
            code="too_long",
        )
    if not _ALLOWED.match(name):
        raise ValidationError(
            _("Use only letters, digits, spaces and the characters _ - . in your display name."),
            code="bad_chars",
        )
    if not _HAS_LETTER_OR_DIGIT.search(name):
        raise ValidationError(_("Your display name needs at least one letter or digit."), code="no_letters")
    taken = get_user_model().objects.filter(display_name__iexact=name)
    if user is not None and user.pk is not None:
        taken = taken.exclude(pk=user.pk)
    if taken.exists():
        raise ValidationError(
            _("The display name “%(name)s” is already taken. Please choose another one.") % {"name": name}, code="taken"
        )
    return name


def display_name_field(**kwargs) -> forms.CharField:
    return forms.CharField(
        label=gettext_lazy("Display name"),
        min_length=None,
        max_length=64,  # the real limit is checked (with a clearer message) in clean_display_name
        help_text=DISPLAY_NAME_HELP,
        error_messages={"required": gettext_lazy("Please choose a display name: it is how the other players see you.")},
        widget=forms.TextInput(attrs={"autocomplete": "nickname", "placeholder": gettext_lazy("How others see you")}),
        **kwargs,
    )


class SignupForm(AllauthSignupForm):
    """allauth's sign-up (e-mail + password twice) with the display name added."""

    field_order = ["email", "display_name", "password1", "password2"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["display_name"] = display_name_field()
        if hasattr(self, "field_order"):
            self.order_fields(self.field_order)

    def clean_display_name(self) -> str:
        return clean_display_name(self.cleaned_data.get("display_name", ""))

    def save(self, request):
        # The user row, its EmailAddress row and its welcome chips are written together or not at all.
        with transaction.atomic():
            user = super().save(request)
            wallet.welcome(user, settings.SVARA_WELCOME_CHIPS)
            return user

    def try_save(self, request):
        try:
            return super().try_save(request)
        except IntegrityError:
            # Someone signed up between our check and our write, and the database refused the second row (the
            # atomic save left nothing behind). With this e-mail: answer as allauth does for a taken address found
            # late (the owner gets an "account already exists" e-mail). With this display name: say so, and let
            # the player choose another.
            email = self.cleaned_data.get("email")
            if get_user_model().objects.filter(email__iexact=email).exists():
                return None, flows.signup.prevent_enumeration(request, email=email)
            name = self.cleaned_data.get("display_name", "")
            messages.error(
                request, _("The display name “%(name)s” was taken a moment ago. Please choose another one.") % {"name": name}
            )
            return None, redirect("account_signup")


class ProfileForm(forms.ModelForm):
    display_name = display_name_field()

    class Meta:
        model = get_user_model()
        fields = ["display_name"]

    def clean_display_name(self) -> str:
        return clean_display_name(self.cleaned_data.get("display_name", ""), user=self.instance)

    def save(self, commit=True):
        """The user with the new name, or None when somebody took the name since `is_valid` (an error is added)."""
        try:
            with transaction.atomic():
                return super().save(commit)
        except IntegrityError:
            name = self.cleaned_data.get("display_name", "")
            self.add_error(
                "display_name", _("The display name “%(name)s” is already taken. Please choose another one.") % {"name": name}
            )
            return None
