"""The player's own pages: the profile (display name, e-mail, balance, chip history, the limits he sets for
himself: wallet/limits.py)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from stats.standings import player_stats
from wallet import limits
from wallet.forms import ExclusionForm, LimitsForm

from .forms import ProfileForm

HISTORY_PAGE_SIZE = 20


def _wallet_figures(user) -> tuple[int | None, list]:
    """Balance and chip history from the wallet; (None, []) while the wallet app lacks its selectors."""
    try:
        from wallet.selectors import balance_of, history_of
    except ImportError:
        return None, []
    return balance_of(user), list(history_of(user))


def _stand_up_everywhere(user) -> list[int]:
    """A self-exclusion takes effect at once: the player leaves every table he sits at, through the door."""
    from tables import services
    from tables.models import TableSeat

    left = []
    for table_id in TableSeat.objects.filter(user=user).values_list("table_id", flat=True).order_by("table_id"):
        try:
            services.stand(table_id, user)
            left.append(table_id)
        except services.DoorError:
            pass  # already leaving (mid-deal) or closed meanwhile
    return left


def _limits_initial(in_force: limits.Limits) -> dict:
    return {name: getattr(in_force, name) for name in limits.LIMIT_NAMES}


@login_required
def profile(request):
    user = request.user
    in_force = limits.of(user)
    form = ProfileForm(instance=user)
    limits_form = LimitsForm(initial=_limits_initial(in_force))
    exclusion_form = ExclusionForm()
    status = 200
    if request.method == "POST":
        which = request.POST.get("form", "name")
        if which == "limits":
            limits_form = LimitsForm(request.POST)
            if limits_form.is_valid():
                for said in limits.set_limits(user, **limits_form.cleaned_data):
                    messages.success(request, said)
                return redirect(f"{request.path}#limits")
            status = 400
        elif which == "exclusion":
            exclusion_form = ExclusionForm(request.POST)
            if exclusion_form.is_valid():
                until = limits.exclude(user, exclusion_form.cleaned_data["period"])
                left = _stand_up_everywhere(user)
                said = _("You are excluded from play until %(until)s.") % {"until": limits.when(until)}
                if left:
                    said += " " + _("You stood up at table %(tables)s: your chips are back on your balance (a hand in "
                                    "play is folded and its seat frees when the deal ends).") % {
                        "tables": ", ".join(map(str, left))}  # fmt: skip
                messages.success(request, said)
                return redirect(f"{request.path}#limits")
            status = 400
        else:
            form = ProfileForm(request.POST, instance=user)
            if form.is_valid() and form.save() is not None:
                messages.success(request, _("Your display name is now “%(name)s”.") % {"name": user.display_name})
                return redirect("accounts:profile")

    balance, history = _wallet_figures(user)
    page = Paginator(history, HISTORY_PAGE_SIZE).get_page(request.GET.get("page"))
    pending = [(limits.LIMIT_NAMES[name], change) for name, change in (in_force.pending or {}).items()]
    return render(
        request,
        "accounts/profile.html",
        {"form": form, "balance": balance, "history_page": page, "stats": player_stats(user), "limits_form": limits_form,
         "exclusion_form": exclusion_form, "limits": in_force, "pending": pending,
         "excluded": in_force.excluded_at(timezone.now()),
         "excluded_until": limits.when(in_force.excluded_until) if in_force.excluded_until else ""},
        status=status,
    )  # fmt: skip
