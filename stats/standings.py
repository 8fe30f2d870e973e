"""What the profile and the leaderboard show, read from the day rows (stats/tally.py keeps them)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from django.conf import settings
from django.db.models import Max, Sum

from tables.models import Family

from .models import PlayerDay

PERIODS = {"week": "this week", "all": "all time"}
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
    """His figures per family he has played, each with its chart of net chips over time."""
    rows = list(PlayerDay.objects.filter(user=user).order_by("family", "day"))
    out = []
    for family in Family.values:
        days = [row for row in rows if row.family == family]
        if not days:
            continue
        running, series = 0, []
        for row in days:
            running += row.net
            series.append(running)
        out.append(FamilyStats(
            family=family,
            **{f: sum(getattr(row, f) for row in days)
               for f in ("deals", "deals_won", "played", "svaras", "svaras_won", "net")},
            biggest_pot=max(row.biggest_pot for row in days),
            chart=chart_points([0, *series]),
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
    """People (no bots) by net chips in the period, with at least SVARA_LEADERBOARD_MIN_DEALS deals in it."""
    rows = PlayerDay.objects.filter(family=family, bot=False)
    if period == "week":
        rows = rows.filter(day__gte=week_start())
    ranked = (
        rows.values("user_id", "user__display_name", "user__email")
        .annotate(deals_sum=Sum("deals"), net_sum=Sum("net"), latest=Max("day"))
        .filter(deals_sum__gte=settings.SVARA_LEADERBOARD_MIN_DEALS)
        .order_by("-net_sum", "-deals_sum", "user_id")[:LEADERBOARD_SIZE]
    )
    return [
        Standing(place, row["user_id"], row["user__display_name"] or row["user__email"].split("@")[0],
                 row["deals_sum"], row["net_sum"])
        for place, row in enumerate(ranked, start=1)
    ]
