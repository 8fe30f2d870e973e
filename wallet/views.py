"""Thin views over wallet.reports and wallet.selectors: the signed-in player's own balance (JSON), and the finance
pages for staff (`?format=csv` exports each)."""

import csv

from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.http import require_GET

from . import reports
from .forms import DateRangeForm, StatementForm
from .models import AccountKind, LedgerAccount
from .selectors import balance_of, chips_in_circulation, statement

# --- the player's own chips -------------------------------------------------------------------------------------


@require_GET
def balance(request):
    """The signed-in player's chip balance, for the top bar after a buy-in or a cash-out."""
    if not request.user.is_authenticated:
        return JsonResponse({"error": "Log in to see your balance."}, status=401)
    return JsonResponse({"balance": balance_of(request.user)})


# --- finance pages for staff ------------------------------------------------------------------------------------


def _csv(filename: str, header: list[str], rows) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    writer.writerow(header)
    writer.writerows(rows)
    return response


def _wants_csv(request) -> bool:
    return request.GET.get("format") == "csv"


@staff_member_required
def index(request):
    return render(request, "wallet/index.html", {"in_circulation": chips_in_circulation()})


@staff_member_required
def rake(request):
    form = DateRangeForm(request.GET)
    if not form.is_valid():
        return render(request, "wallet/rake.html", {"form": form}, status=400)
    start, end = form.cleaned_data["date_from"], form.cleaned_data["date_to"]
    by_day = reports.rake_by_day(start, end)
    by_table = reports.rake_by_table(start, end)
    by_family = reports.rake_by_family(start, end)
    if _wants_csv(request):
        span = f"{start}_{end}"
        match request.GET.get("by", "day"):
            case "table":
                rows = [(r["table_id"], r["family"], r["pots"], r["total"]) for r in by_table]
                return _csv(f"rake-by-table-{span}.csv", ["table_id", "family", "raked_pots", "rake"], rows)
            case "family":
                rows = [(r["family"], r["pots"], r["total"]) for r in by_family]
                return _csv(f"rake-by-family-{span}.csv", ["family", "raked_pots", "rake"], rows)
            case _:
                rows = [(day.isoformat(), total) for day, total in by_day]
                return _csv(f"rake-by-day-{span}.csv", ["day", "rake"], rows)
    return render(
        request,
        "wallet/rake.html",
        {
            "form": form,
            "start": start,
            "end": end,
            "by_day": by_day,
            "by_table": by_table,
            "by_family": by_family,
            "total": sum(total for _, total in by_day),
            "chart": reports.rake_chart_svg(by_day),
            "query": f"date_from={start}&date_to={end}",
        },
    )


@staff_member_required
def circulation(request):
    if _wants_csv(request):
        with translation.override("en"):  # a CSV is data: its words are the same for every reader
            data = reports.circulation()
        rows = [(r.kind, r.label, r.accounts, r.chips) for r in data["rows"]]
        rows.append(("total", "Chips in circulation", "", data["total"]))
        rows.append(("treasury", "Issued by the treasury", "", data["issued"]))
        return _csv("chips-in-circulation.csv", ["kind", "where", "accounts", "chips"], rows)
    return render(request, "wallet/circulation.html", reports.circulation())


@staff_member_required
def player_statement(request):
    if "player" not in request.GET:
        return render(request, "wallet/statement.html", {"form": StatementForm()})
    form = StatementForm(request.GET)
    if not form.is_valid():
        return render(request, "wallet/statement.html", {"form": form}, status=400)
    player = form.cleaned_data["player"]
    start, end = form.cleaned_data["date_from"], form.cleaned_data["date_to"]
    since, until = reports.day_bounds(start, end)
    account = LedgerAccount.objects.filter(kind=AccountKind.BALANCE, user=player).first()
    if _wants_csv(request):
        with translation.override("en"):  # a CSV is data: its words are the same for every reader
            lines = statement(account, since=since, until=until) if account else []
        rows = [
            (
                line.created_at.isoformat(),
                line.kind,
                line.description,
                line.change,
                line.balance_after,
                line.key,
            )
            for line in reversed(lines)  # oldest first, as a statement reads
        ]
        return _csv(
            f"statement-{player.pk}-{start}_{end}.csv",
            ["time", "kind", "description", "change", "balance_after", "key"],
            rows,
        )
    lines = statement(account, since=since, until=until) if account else []
    return render(
        request,
        "wallet/statement.html",
        {
            "form": form,
            "player": player,
            "start": start,
            "end": end,
            "lines": lines,
            "query": request.GET.urlencode(),
        },
    )
