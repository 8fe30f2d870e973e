"""The player's own pages: the profile (display name, e-mail, balance, chip history)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import redirect, render

from stats.standings import player_stats

from .forms import ProfileForm

HISTORY_PAGE_SIZE = 20


def _wallet_figures(user) -> tuple[int | None, list]:
    """Balance and chip history from the wallet; (None, []) while the wallet app lacks its selectors."""
    try:
        from wallet.selectors import balance_of, history_of
    except ImportError:
        return None, []
    return balance_of(user), list(history_of(user))


@login_required
def profile(request):
    user = request.user
    if request.method == "POST":
        form = ProfileForm(request.POST, instance=user)
        if form.is_valid() and form.save() is not None:
            messages.success(request, f"Your display name is now “{user.display_name}”.")
            return redirect("accounts:profile")
    else:
        form = ProfileForm(instance=user)

    balance, history = _wallet_figures(user)
    page = Paginator(history, HISTORY_PAGE_SIZE).get_page(request.GET.get("page"))
    return render(
        request,
        "accounts/profile.html",
        {"form": form, "balance": balance, "history_page": page, "stats": player_stats(user)},
    )
