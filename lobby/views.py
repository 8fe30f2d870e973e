"""The lobby (open tables, create a table, quick seat) and "Count the hand".

Views stay thin: tables are created and found through `tables.services` and `tables.selectors` (the table
server's door); points come from the engine's `hand_points`.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tables import selectors, services
from tables.engine.cards import FAMILIES, CardError, deck, format_hand, parse_hand, wild_card
from tables.engine.points import hand_points

from .forms import CreateTableForm, QuickSeatForm

# --- the lobby --------------------------------------------------------------------------------------------------


def _lobby(request, form=None, status=200):
    context = {
        "tables": selectors.open_tables(),
        "form": form or CreateTableForm(),
        "quick_form": QuickSeatForm(request.GET or None),
    }
    return render(request, "lobby/lobby.html", context, status=status)


@require_GET
def lobby(request):
    return _lobby(request)


@login_required
@require_http_methods(["GET", "POST"])
def create_table(request):
    """Create a table and go to it; a refused form shows its errors and creates nothing."""
    if request.method == "GET":
        return redirect("lobby:lobby")
    form = CreateTableForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            table = services.create_table(
                request.user, data["family"], data["ante"], data["seats"], bots_allowed=data["bots_allowed"]
            )
        except services.DoorError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect(reverse("tables:table", kwargs={"table_id": table.pk}) + "#sit")
    return _lobby(request, form=form, status=400)


@require_POST
def quick_seat(request):
    """The fullest fitting open table with a free seat (a game starts sooner there); the table page then offers
    the buy-in for a free seat. None fits: back to the lobby with a message."""
    form = QuickSeatForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Quick seat: " + " ".join(e for errs in form.errors.values() for e in errs))
        return redirect("lobby:lobby")
    fitting = [t for t in selectors.open_tables() if form.fits(t)]
    if not fitting:
        messages.warning(request, "No open table fits with a free seat: create one below.")
        return redirect("lobby:lobby")
    best = max(fitting, key=lambda t: (t["seats_taken"], -t["id"]))
    return redirect(f"{best['url']}#sit")


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
    return render(request, "count/count.html", context, status=400 if error else 200)


@require_GET
def count_points(request):
    """JSON: GET ?family=classic&cards=Ah+Kh+6c → {"points", "name", "cards", "family"}, or 400 {"error"}."""
    try:
        return JsonResponse(count_hand(request.GET.get("family", ""), request.GET.get("cards", "")))
    except CardError as exc:
        return JsonResponse({"error": str(exc)}, status=400)
