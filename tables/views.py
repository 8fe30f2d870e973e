"""The table page (everything live on it comes over the WebSocket, docs/protocol.md) and the balance figure."""

from __future__ import annotations

from django.http import JsonResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from tables.engine import rules
from tables.models import Table


@require_GET
def table_page(request, table_id: int):
    table = get_object_or_404(Table, pk=table_id)
    return render(request, "tables/table.html", {"table": table, "rules": rules}, status=200 if table.is_open else 410)


@require_GET
def balance(request):
    """The signed-in player's chip balance, for the top bar after a buy-in or a cash-out."""
    if not request.user.is_authenticated:
        return JsonResponse({"error": "Log in to see your balance."}, status=401)
    from wallet.selectors import balance_of

    return JsonResponse({"balance": balance_of(request.user)})
