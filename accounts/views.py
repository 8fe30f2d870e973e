"""The player's own pages: the profile (name, e-mail, balance, chip history)."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render


@login_required
def profile(request):
    return render(request, "accounts/profile.html", {})
