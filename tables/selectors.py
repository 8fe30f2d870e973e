"""Reads for pages, the lobby and consumers; nothing here writes."""

from django.utils import timezone

from .models import Table, TableSeat, TableStatus
from .state_io import seat_of


def open_tables() -> list[dict]:
    """The lobby's list: every open table with its family, ante, seats taken, who sits, and whether bots may sit."""
    tables = list(Table.objects.filter(status=TableStatus.OPEN).order_by("id"))
    seats = TableSeat.objects.filter(table__in=tables).select_related("user").order_by("table_id", "seat")
    players: dict[int, list[dict]] = {t.pk: [] for t in tables}
    for row in seats:
        players[row.table_id].append(
            {"seat": row.seat, "name": row.user.table_name, "is_bot": row.user.is_bot}
        )
    return [
        {
            "id": t.pk,
            "family": t.family,
            "ante": t.ante,
            "seats": t.seats,
            "seats_taken": len(players[t.pk]),
            "bots_allowed": t.bots_allowed,
            "players": players[t.pk],
            "url": f"/tables/{t.pk}/",
        }
        for t in tables
    ]


def get_table(table_id) -> Table | None:
    try:
        return Table.objects.get(pk=table_id)
    except (Table.DoesNotExist, ValueError, TypeError):
        return None


def load_state(table: Table):
    from tables.engine.play import TableState

    return TableState.loads(table.state)


def seat_of_user(table: Table, user) -> int | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    row = TableSeat.objects.filter(table=table, user=user).values_list("seat", flat=True).first()
    return row


def snapshot_for(table: Table, user) -> dict:
    """The `snapshot` message for one viewer: `state.view(seat)` of the committed state, never another's cards."""
    state = load_state(table)
    user_id = user.pk if user is not None and getattr(user, "is_authenticated", False) else None
    seat = seat_of(state, user_id)
    view = state.view(seat)
    clock = None
    if table.clock_deadline is not None:
        left = (table.clock_deadline - timezone.now()).total_seconds()
        clock = {
            "kind": table.clock_kind,
            "seats": list(table.clock_seats),
            "deadline": table.clock_deadline.isoformat(),
            "seconds_left": round(max(left, 0.0), 1),
        }
    legal = view.get("legal") if isinstance(view, dict) and "legal" in view else _legal(state, seat)
    return {
        "type": "snapshot",
        "version": table.version,
        "seat": seat,
        "table": {
            "id": table.pk,
            "family": table.family,
            "ante": table.ante,
            "seats": table.seats,
            "bots_allowed": table.bots_allowed,
            "status": table.status,
        },
        "clock": clock,
        "legal": legal,
        "state": view,
    }


def _legal(state, seat) -> list[dict]:
    if seat is None:
        return []
    return [{"kind": legal.kind, "min": legal.min, "max": legal.max} for legal in state.legal_actions(seat)]
