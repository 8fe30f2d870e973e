"""The lobby: open tables, create a table, quick seat.

Views stay thin: tables are created and found through `tables.services` and `tables.selectors` (the table
server's door).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from bots.play_now import play_against_bots
from bots.services import BotError
from tables import selectors, services

from .forms import CreateTableForm, QuickSeatForm

# --- the lobby --------------------------------------------------------------------------------------------------


def _lobby(request, form=None, status=200):
    context = {
        "tables": selectors.open_tables(request.user),
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
                request.user, data["family"], data["ante"], data["seats"], bots_allowed=data["bots_allowed"],
                private=data["private"],
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
        messages.error(request, _("Quick seat: %(why)s") % {"why": " ".join(e for errs in form.errors.values() for e in errs)})
        return redirect("lobby:lobby")
    # Quick seat finds public tables only: a private one is for the people its creator invites.
    fitting = [t for t in selectors.open_tables() if form.fits(t)]
    if not fitting:
        messages.warning(request, _("No open table fits with a free seat: create one below."))
        return redirect("lobby:lobby")
    best = max(fitting, key=lambda t: (t["seats_taken"], -t["id"]))
    return redirect(f"{best['url']}#sit")


@login_required
@require_http_methods(["GET", "POST"])
def play_bots(request):
    """"Play against bots now": seated with bots at once, at their table or a new one; refused (no chips): back to
    the lobby, told why and how to get chips."""
    if request.method == "GET":  # e.g. back from the login page: the button is in the lobby
        return redirect("lobby:lobby")
    try:
        seated = play_against_bots(request.user)
    except BotError as error:
        messages.error(request, str(error))
        return redirect("lobby:lobby")
    return redirect("tables:table", table_id=seated.table.pk)
