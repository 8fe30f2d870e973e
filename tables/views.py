"""The table page (everything live on it comes over the WebSocket, docs/protocol.md) and "Count the hand", the
rules' points of any three cards (the engine's `hand_points`, RULES §2), as a page and as JSON."""

from __future__ import annotations

from django.http import JsonResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from tables.engine import rules
from tables.engine.cards import FAMILIES, CardError, deck, format_hand, parse_hand, wild_card
from tables.engine.points import hand_points
from tables.models import Table


@require_GET
def table_page(request, table_id: int):
    table = get_object_or_404(Table, pk=table_id)
    return render(request, "tables/table.html", {"table": table, "rules": rules}, status=200 if table.is_open else 410)


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
    return {"family": family, "cards": format_hand(cards).split(), "points": points, "name": name}


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
            error = str(exc)
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
        return JsonResponse({"error": str(exc)}, status=400)
