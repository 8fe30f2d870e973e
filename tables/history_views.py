"""A player's hand histories: the list of his deals (/history/), a deal's replay (/history/<id>/) and its text
(/history/<id>.txt). Who may see a deal: tables/deal_access.py; what each viewer sees of it: tables/replay.py."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.paginator import EmptyPage, PageNotAnInteger, Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from . import hand_text, replay
from .deal_access import deal_for
from .models import DealSeat, Family

HISTORY_PAGE_SIZE = 25


class BadFilter(ValueError):
    pass


def _filters(query) -> dict:
    """?family=classic|bulgarian, ?table=<id>: a bad value is a clear error (400), not an empty list."""
    chosen = {}
    family = query.get("family", "")
    if family:
        if family not in Family.values:
            raise BadFilter(_("The family must be one of %(families)s, not %(family)s.") % {
                "families": ", ".join(Family.values), "family": repr(family)})  # fmt: skip
        chosen["family"] = family
    table = query.get("table", "")
    if table:
        if not table.isdigit() or not 0 < int(table) < 2**31:
            raise BadFilter(_("A table is a table number, not %(table)s.") % {"table": repr(table)})
        chosen["table_id"] = int(table)
    return chosen


@require_GET
def history_list(request):
    """The viewer's own finished deals, newest first (the index tables_dealseat_user_newest and its per-family and
    per-table siblings), 25 a page."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    try:
        filters = _filters(request.GET)
    except BadFilter as error:
        return render(request, "tables/history.html", {"error": str(error)}, status=400)
    rows = (
        DealSeat.objects.filter(user=request.user, ended=True, **filters)
        .select_related("deal")
        .only("seat", "net", "family", "table_id", "started_at", "deal__pot", "deal__svara", "deal__number")
        .order_by("-started_at", "-deal_id")
    )
    paginator = Paginator(rows, HISTORY_PAGE_SIZE)
    number = request.GET.get("page", "1")
    try:
        page = paginator.page(number)
    except (PageNotAnInteger, EmptyPage):
        error = _("There is no page %(page)s of your history (pages 1 to %(pages)s).") % {
            "page": repr(number), "pages": paginator.num_pages}  # fmt: skip
        return render(request, "tables/history.html", {"error": error}, status=400)
    query = "&".join(f"{k}={v}" for k, v in (("family", filters.get("family")), ("table", filters.get("table_id")))
                     if v)  # fmt: skip
    # The rows' links share one prefix, reversed once (/history/<id>/ and /history/<id>.txt: tables/urls.py).
    context = {"page": page, "families": Family.choices, "family": filters.get("family", ""),
               "table": filters.get("table_id", ""), "query": query, "base": reverse("tables:history")}  # fmt: skip
    return render(request, "tables/history.html", context)


def _replay_for(request, deal_id: int) -> replay.Replay:
    deal = deal_for(request.user, deal_id)
    return replay.build(deal, replay.viewer_seat(deal, request.user))


@require_GET
def deal_replay(request, deal_id: int):
    """The replay page: its steps for this viewer only, as JSON in the page (hidden cards are not in it at all).
    Anonymous visitors get the 404 anyone gets for a deal not theirs (deal_access)."""
    shown = _replay_for(request, deal_id)
    deal = shown.deal
    next_deal = hand_text.next_in_chain(deal)
    context = {"deal": deal, "table": deal.table, "replay": shown.to_json(), "seats": shown.seats,
               "previous": deal.previous, "next": next_deal,
               "you": shown.viewer if isinstance(shown.viewer, int) else None}  # fmt: skip
    return render(request, "tables/replay.html", context)


@require_GET
def deal_text(request, deal_id: int):
    """The deal as text/plain, one line per step, with the replay's visibility. Always in English: it is a file
    format too (docs/verify_deal.py and /fair/ read its fairness block back), the same for every reader
    (docs/translations.md)."""
    with translation.override("en"):
        text = hand_text.text(_replay_for(request, deal_id))
    return HttpResponse(text, content_type="text/plain; charset=utf-8")


@require_GET
def last_deal(request, table_id: int):
    """The table page's "Last deal" link: the replay of the last finished deal the viewer played at this table
    (always the latest, with no live update of the link), else a 404."""
    if not request.user.is_authenticated:
        raise Http404("No deal of yours at this table.")
    row = (
        DealSeat.objects.filter(user=request.user, table_id=table_id, ended=True)
        .order_by("-started_at", "-deal_id")
        .values_list("deal_id", flat=True)
        .first()
    )
    if row is None:
        raise Http404("No finished deal of yours at this table yet.")
    return redirect("tables:replay", row)
