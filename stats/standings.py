"""What the profile and the leaderboard show, read from the day rows (stats/tally.py keeps them)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from django.conf import settings
from django.utils.translation import gettext_lazy as _

from tables.models import Family

from .models import PlayerDay, PlayerTotal, PlayerWeek

PERIODS = {"week": _("this week"), "all": _("all time")}
LEADERBOARD_SIZE = 50


@dataclass(frozen=True, slots=True)
class FamilyStats:
    family: str
    deals: int
    deals_won: int
    played: int
    svaras: int
    svaras_won: int
    biggest_pot: int
    net: int
    chart: str  # the points of an SVG polyline of net chips over time, "" with fewer than two days

    @property
    def label(self) -> str:
        return Family(self.family).label

    @property
    def played_share(self) -> float:
        """The share of his deals he played beyond the ante (0..1)."""
        return self.played / self.deals if self.deals else 0.0


@dataclass(frozen=True, slots=True)
class Standing:
    place: int
    user_id: int
    name: str
    deals: int
    net: int


def week_start(today: date | None = None) -> date:
    """Monday of this week (UTC): the leaderboard's week."""
    today = today or datetime.now(UTC).date()
    return today - timedelta(days=today.weekday())


def player_stats(user) -> list[FamilyStats]:
    """His figures per family he has played (all time), each with its chart of net chips day by day."""
    days = list(PlayerDay.objects.filter(user=user).order_by("day").values_list("family", "net"))
    out = []
    totals = sorted(PlayerTotal.objects.filter(user=user), key=lambda total: Family.values.index(total.family))
    for total in totals:
        running, series = 0, [0]
        for family, net in days:
            if family == total.family:
                running += net
                series.append(running)
        out.append(FamilyStats(
            family=total.family, biggest_pot=total.biggest_pot, chart=chart_points(series),
            **{f: getattr(total, f) for f in ("deals", "deals_won", "played", "svaras", "svaras_won", "net")},
        ))
    return out


def chart_points(series: list[int], width: int = 240, height: int = 60) -> str:
    """An SVG polyline's points for the series, scaled into width × height (zero stays on the chart)."""
    if len(series) < 3:  # the zero start and at least two days
        return ""
    low, high = min(series), max(series)
    span = (high - low) or 1
    step = width / (len(series) - 1)
    return " ".join(f"{i * step:.1f},{height - (value - low) * height / span:.1f}" for i, value in enumerate(series))


def leaderboard(family: str, period: str) -> list[Standing]:
    """People (no bots) by net chips in the period, with at least SVARA_LEADERBOARD_MIN_DEALS deals in it: one
    span's rows, read in the order of their index."""
    if period == "week":
        rows = PlayerWeek.objects.filter(week=week_start())
    else:
        rows = PlayerTotal.objects.all()
    ranked = (
        rows.filter(family=family, bot=False, deals__gte=settings.SVARA_LEADERBOARD_MIN_DEALS)
        .select_related("user").order_by("-net", "-deals", "user_id")[:LEADERBOARD_SIZE]
    )
    return [Standing(place, row.user_id, row.user.table_name, row.deals, row.net)
            for place, row in enumerate(ranked, start=1)]
