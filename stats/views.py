"""The leaderboard page."""

from django.conf import settings
from django.shortcuts import render
from django.utils.translation import gettext as _

from tables.models import Family

from .standings import PERIODS, leaderboard, week_start


def leaderboard_page(request):
    family = request.GET.get("family", Family.CLASSIC)
    period = request.GET.get("period", "week")
    errors = []
    if family not in Family.values:
        errors.append(_("There is no family “%(family)s”: choose classic or bulgarian.") % {"family": family[:40]})
    if period not in PERIODS:
        errors.append(_("There is no period “%(period)s”: choose this week or all time.") % {"period": period[:40]})
    context = {
        "families": Family.choices, "periods": PERIODS.items(), "family": family, "period": period,
        "errors": errors, "min_deals": settings.SVARA_LEADERBOARD_MIN_DEALS, "week_start": week_start(),
        "standings": [] if errors else leaderboard(family, period),
    }
    return render(request, "stats/leaderboard.html", context, status=400 if errors else 200)
