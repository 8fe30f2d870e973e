"""The table page (everything live on it comes over the WebSocket, docs/protocol.md) and "Count the hand", the
rules' points of any three cards (the engine's `hand_points`, RULES §2), as a page and as JSON."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tables import access, words
from tables.engine import rules
from tables.engine.cards import FAMILIES, CardError, deck, format_hand, parse_hand, wild_card
from tables.engine.points import hand_points
from tables.engine.strategy import LEVELS as BOT_LEVELS
from tables.models import Table, TableSeat
from tables.refusals import card_refusal
from wallet import limits


def visible_table(request, table_id: int) -> Table:
    """The table, or the same 404 for an id that names no table and for a private table this visitor may not see
    (tables/access.py)."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not access.may_see(table, request.user, request.session):
        raise Http404("No Table matches the given query.")
    return table


@require_GET
def table_page(request, table_id: int):
    if "invite" in request.GET:
        # The invite link: remember the grant and drop the token from the address bar (and the history). A wrong or
        # revoked token is the 404 of a table that does not exist.
        table = Table.objects.filter(pk=table_id).first()
        if table is None or not access.accept_invite(table, request.user, request.session, request.GET["invite"]):
            raise Http404("No Table matches the given query.")
        return redirect("tables:table", table_id=table.pk)
    table = visible_table(request, table_id)
    is_host = table.private and access.is_host(table, request.user)
    seated = None
    if request.user.is_authenticated:
        seated = TableSeat.objects.filter(table=table, user=request.user).values_list("seated_at", flat=True).first()
    context = {"table": table, "rules": rules, "may_seat_bots": may_seat_bots(table, request.user),
               "bot_levels": BOT_LEVELS, "is_host": is_host,
               "invite_url": request.build_absolute_uri(invite_path(table)) if is_host else "",
               "session_minutes": limits.of(request.user).session_minutes, "seated_since": seated}  # fmt: skip
    return render(request, "tables/table.html", context, status=200 if table.is_open else 410)


@require_GET
def fair_page(request):
    """Fair deals (docs/fair.md): the procedure in plain words, and a check of any deal in the browser."""
    return render(request, "tables/fair.html")


def invite_path(table: Table) -> str:
    return f"{reverse('tables:table', kwargs={'table_id': table.pk})}?invite={table.invite_token}"


@require_POST
def renew_invite(request, table_id: int):
    """The creator revokes the invite link and gets a new one: nobody who has not sat may use the old one."""
    table = visible_table(request, table_id)
    if access.renew_token(table.pk, request.user) is None:
        raise Http404("No Table matches the given query.")
    from tables.services.notify import access_changed

    access_changed(table.pk)
    messages.success(request, _("The old invite link no longer works; send the new one to whom you want at the table."))
    return redirect("tables:table", table_id=table.pk)


# --- bots at your own table -------------------------------------------------------------------------------------

BOTS_AT_ONCE_MAX = 7  # every other seat of the largest table


def may_seat_bots(table: Table, user) -> bool:
    """The table's creator or staff, at an open table that allows bots (bots/services.py `seat_bot` checks again)."""
    if not table.is_open or not table.bots_allowed or not getattr(user, "is_authenticated", False):
        return False
    if table.private:  # issue 14: only the creator seats bots at a private table
        return access.is_host(table, user)
    return user.is_staff or (table.created_by_id is not None and table.created_by_id == user.pk)


@require_POST
def seat_bots(request, table_id: int):
    """POST level=easy|strong, count=1..: seat that many bots at once (each through the door, RULES §10). JSON:
    {"seated": [names]} or, when refused, {"error": why} with nothing (more) seated."""
    from bots.services import BotError, seat_bot
    from tables.errors import DoorError

    table = visible_table(request, table_id)
    if not request.user.is_authenticated:
        return JsonResponse({"error": _("Log in to seat bots.")}, status=403)
    if not may_seat_bots(table, request.user):
        why = _("This table was created without bots.") if not table.bots_allowed else (
            _("This table is closed.") if not table.is_open else _("Only the table's creator or staff may seat bots."))
        return JsonResponse({"error": why}, status=403)
    level = request.POST.get("level", "strong")
    if level not in BOT_LEVELS:
        return JsonResponse({"error": _("No such bot level: %(level)s (one of %(levels)s).") % {
            "level": repr(level), "levels": ", ".join(BOT_LEVELS)}}, status=400)  # fmt: skip
    try:
        count = int(request.POST.get("count", "1"))
    except ValueError:
        count = 0
    if not 1 <= count <= BOTS_AT_ONCE_MAX:
        return JsonResponse({"error": _("Seat 1 to %(max)s bots at once.") % {"max": BOTS_AT_ONCE_MAX}}, status=400)
    seated = []
    for _bot in range(count):
        try:
            seated.append(seat_bot(table, level, by_user=request.user).table_name)
        except (BotError, DoorError) as error:
            message = str(getattr(error, "message", None) or error.args[0])  # the words in the viewer's language
            if not seated:
                return JsonResponse({"error": message}, status=400)
            return JsonResponse({"seated": seated, "error": _("%(count)s seated; then: %(why)s") % {
                "count": len(seated), "why": message}})  # fmt: skip
    return JsonResponse({"seated": seated})


# --- Count the hand ---------------------------------------------------------------------------------------------


def count_hand(family: str, cards_text: str) -> dict:
    """{"family", "cards", "points", "name"} for a hand given as text ("Ah Kh 6c"); CardError with a clear message
    for anything that is not three distinct cards of the family's deck."""
    if family not in FAMILIES:
        raise CardError(f"no such family: {family!r} (one of {', '.join(FAMILIES)})")
    cards = parse_hand(cards_text or "")
    if len(cards) != 3:
        raise CardError(f"a hand is three cards, not {len(cards)}")
    points, name = hand_points(family, cards)
    return {"family": family, "cards": format_hand(cards).split(), "points": points, "name": words.hand_name(name)}


@require_GET
def count_page(request):
    """The page; with ?family=&cards= it also scores the hand server-side (works without JavaScript)."""
    family = request.GET.get("family", "classic")
    cards_text = request.GET.get("cards", "")
    result = error = None
    if "cards" in request.GET:
        try:
            result = count_hand(family, cards_text)
        except CardError as exc:
            error = card_refusal(str(exc))
    if family not in FAMILIES:
        family = "classic"
    context = {
        "family": family,
        "cards_text": cards_text,
        "result": result,
        "error": error,
        "decks": {f: {"cards": [str(c) for c in deck(f)], "wild": str(wild_card(f))} for f in FAMILIES},
    }
    return render(request, "tables/count.html", context, status=400 if error else 200)


@require_GET
def count_points(request):
    """JSON: GET ?family=classic&cards=Ah+Kh+6c → {"points", "name", "cards", "family"}, or 400 {"error"}."""
    try:
        return JsonResponse(count_hand(request.GET.get("family", ""), request.GET.get("cards", "")))
    except CardError as exc:
        return JsonResponse({"error": card_refusal(str(exc))}, status=400)
