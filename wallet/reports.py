"""Finance reports for staff: rake by day, table and rule family; chips in circulation; the daily rake chart."""

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from django.db.models import Count, Sum
from django.db.models.functions import TruncDate
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _

from .models import AccountKind, LedgerAccount, Transfer, TransferKind


def day_bounds(start: date, end: date) -> tuple[datetime, datetime]:
    """[start 00:00, the day after end 00:00) in the site's time zone: both dates count in full."""
    tz = timezone.get_current_timezone()
    return (
        datetime.combine(start, time.min, tzinfo=tz),
        datetime.combine(end + timedelta(days=1), time.min, tzinfo=tz),
    )


def _rake(start: date, end: date):
    since, until = day_bounds(start, end)
    return Transfer.objects.filter(kind=TransferKind.RAKE, created_at__gte=since, created_at__lt=until)


def rake_by_day(start: date, end: date) -> list[tuple[date, int]]:
    """Every day of the range with its rake, days without rake included (as 0), oldest first."""
    totals = dict(
        _rake(start, end)
        .annotate(day=TruncDate("created_at", tzinfo=timezone.get_current_timezone()))
        .values("day")
        .annotate(total=Sum("amount"))
        .values_list("day", "total")
    )
    days = (end - start).days + 1
    return [(start + timedelta(days=i), totals.get(start + timedelta(days=i), 0)) for i in range(days)]


def rake_by_table(start: date, end: date) -> list[dict]:
    """Rake per table (with its family and number of raked pots), largest first."""
    rows = (
        _rake(start, end)
        .values("table_id", "family")
        .annotate(total=Sum("amount"), pots=Count("pk"))
        .order_by("-total", "table_id")
    )
    return list(rows)


def rake_by_family(start: date, end: date) -> list[dict]:
    rows = (
        _rake(start, end).values("family").annotate(total=Sum("amount"), pots=Count("pk")).order_by("family")
    )
    return list(rows)


@dataclass(frozen=True)
class CirculationRow:
    kind: str
    label: str
    accounts: int
    chips: int


def circulation() -> dict:
    """Where the chips are: players' balances, stacks and pots at tables, the bots' pool, the house.

    Their total is the chips in circulation, which equals what the treasury has issued (minus its balance)."""
    sums = {
        row["kind"]: row
        for row in LedgerAccount.objects.values("kind").annotate(chips=Sum("balance"), accounts=Count("pk"))
    }
    rows = [
        CirculationRow(
            kind, label, sums.get(kind, {}).get("accounts", 0), sums.get(kind, {}).get("chips") or 0
        )
        for kind, label in (
            (AccountKind.BALANCE, _("Players' balances")),
            (AccountKind.STACK, _("Stacks at tables")),
            (AccountKind.POT, _("Pots at tables")),
            (AccountKind.BOTS_POOL, _("Bots' pool")),
            (AccountKind.HOUSE, _("House (rake)")),
        )
    ]
    total = sum(r.chips for r in rows)
    issued = -(sums.get(AccountKind.TREASURY, {}).get("chips") or 0)
    at_tables = sum(r.chips for r in rows if r.kind in (AccountKind.STACK, AccountKind.POT))
    return {
        "rows": rows,
        "total": total,
        "issued": issued,
        "at_tables": at_tables,
        "balanced": total == issued,
    }


def rake_chart_svg(days: list[tuple[date, int]], *, width: int = 720, height: int = 220) -> str:
    """An inline SVG bar chart of daily rake, drawn on the server (no JavaScript)."""
    pad_left, pad_bottom, pad_top = 48, 24, 12
    plot_w, plot_h = width - pad_left - 8, height - pad_bottom - pad_top
    top = max((total for _, total in days), default=0) or 1
    n = max(len(days), 1)
    slot = plot_w / n
    bar_w = max(slot * 0.8, 1)
    bars = []
    for i, (day, total) in enumerate(days):
        h = plot_h * total / top
        bars.append(
            (
                f"{pad_left + i * slot + (slot - bar_w) / 2:.1f}",
                f"{pad_top + plot_h - h:.1f}",
                f"{bar_w:.1f}",
                f"{h:.1f}",
                _("%(day)s: %(chips)s chips") % {"day": day.isoformat(), "chips": total},
            )
        )
    bars_svg = format_html_join(
        "",
        '<rect class="bar" x="{}" y="{}" width="{}" height="{}" style="fill: var(--gold, #e2b84b)">'
        "<title>{}</title></rect>",
        bars,
    )
    first = days[0][0].isoformat() if days else ""
    last = days[-1][0].isoformat() if days else ""
    return format_html(
        '<svg class="rake-chart" role="img" aria-label="{label}" '
        'viewBox="0 0 {w} {h}" width="100%" xmlns="http://www.w3.org/2000/svg">'
        '<line x1="{pl}" y1="{base}" x2="{right}" y2="{base}" stroke="currentColor" stroke-opacity="0.5"/>'
        '<text x="{tx}" y="{ty}" font-size="11" text-anchor="end" fill="currentColor">{top}</text>'
        '<text x="{tx}" y="{base}" font-size="11" text-anchor="end" fill="currentColor">0</text>'
        "{bars}"
        '<text x="{pl}" y="{h_text}" font-size="11" fill="currentColor">{first}</text>'
        '<text x="{right}" y="{h_text}" font-size="11" text-anchor="end" fill="currentColor">{last}</text>'
        "</svg>",
        label=_("Daily rake from %(first)s to %(last)s, peak %(top)s chips")
        % {"first": first, "last": last, "top": top if any(t for _, t in days) else 0},
        first=first,
        last=last,
        top=top if any(t for _, t in days) else 0,
        w=width,
        h=height,
        pl=pad_left,
        base=pad_top + plot_h,
        right=width - 8,
        tx=pad_left - 6,
        ty=pad_top + 10,
        bars=bars_svg,
        h_text=height - 6,
    )
