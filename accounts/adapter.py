"""allauth adapter: fills the fields our user model has beyond allauth's own (display name, internal username)."""

from __future__ import annotations

import uuid

from allauth.account.adapter import DefaultAccountAdapter
from django.contrib.auth import get_user_model


def internal_username(email: str) -> str:
    """Players log in by e-mail; the username is only an internal unique handle. The e-mail when it fits and is
    free (easy to read in the admin), else a random handle (an old e-mail may still be someone's username)."""
    User = get_user_model()
    max_length = User._meta.get_field("username").max_length
    if email and len(email) <= max_length and not User.objects.filter(username__iexact=email).exists():
        return email
    return f"player-{uuid.uuid4().hex[:16]}"


class AccountAdapter(DefaultAccountAdapter):
    def save_user(self, request, user, form, commit=True):
        user = super().save_user(request, user, form, commit=False)
        display_name = form.cleaned_data.get("display_name")
        if display_name:
            user.display_name = display_name
        if not user.username:
            user.username = internal_username(user.email)
        if commit:
            user.save()
        return user
