"""The leaderboard page."""

from django.conf import settings
from django.shortcuts import render

from tables.models import Family

from .standings import PERIODS, leaderboard, week_start


def leaderboard_page(request):
    family = request.GET.get("family", Family.CLASSIC)
    period = request.GET.get("period", "week")
    errors = []
    if family not in Family.values:
        errors.append(f"There is no family “{family[:40]}”: choose classic or bulgarian.")
    if period not in PERIODS:
        errors.append(f"There is no period “{period[:40]}”: choose this week or all time.")
    context = {
        "families": Family.choices, "periods": PERIODS.items(), "family": family, "period": period,
        "errors": errors, "min_deals": settings.SVARA_LEADERBOARD_MIN_DEALS, "week_start": week_start(),
        "standings": [] if errors else leaderboard(family, period),
    }
    return render(request, "stats/leaderboard.html", context, status=400 if errors else 200)
