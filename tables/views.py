"""The table page (everything live on it comes over the WebSocket, docs/protocol.md)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from tables.models import Table


@require_GET
def table_page(request, table_id: int):
    table = get_object_or_404(Table, pk=table_id)
    return render(request, "tables/table.html", {"table": table}, status=200 if table.is_open else 410)
