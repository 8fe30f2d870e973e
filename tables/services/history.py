"""Hand histories: a `Deal` row opens at `deal_started` and closes at `deal_ended`; every event in between is
appended as a `DealEvent` row (one insert per action, nothing rewritten)."""

from __future__ import annotations

from ..models import Deal, DealEvent, Table

AWARDS = ("pot_awarded", "split")  # the events that award a pot (a split awards it too, rake and all: §7, §8)


def record(table: Table, deal_before: int | None, version: int, events: list[dict], now) -> None:
    """Append one action's events to the deal they belong to. `deal_before` is the number of the deal running
    before the action (None between deals): events between deals (sitting down, pressing New deal) belong to
    no deal."""
    deal = deal_before
    rows = []
    for index, event in enumerate(events):
        kind = event["type"]
        if kind == "deal_started":
            deal = int(event["deal_no"])
            Deal.objects.create(table=table, number=deal, started_at=now)
        if deal is None:
            continue
        rows.append(DealEvent(table=table, deal_number=deal, version=version, index=index, event=event))
        if kind == "deal_ended":
            _close(table, deal, rows, now)
            deal = None
    if rows:
        DealEvent.objects.bulk_create(rows)


def _close(table: Table, number: int, rows: list[DealEvent], now) -> None:
    """The deal's pot, rake and winners, from its awards."""
    awards = [e for e in _deal_events(table, number, rows) if e["type"] in AWARDS]
    Deal.objects.filter(table=table, number=number).update(
        ended_at=now,
        pot=max((int(e.get("pot") or 0) for e in awards), default=0),
        rake=sum(int(e.get("rake") or 0) for e in awards),
        winners=[w for e in awards for w in (e.get("winners") or [])],
    )


def _deal_events(table: Table, number: int, rows: list[DealEvent]):
    """The deal's awards so far: those stored, then this action's (not yet inserted)."""
    yield from DealEvent.objects.filter(
        table=table, deal_number=number, event__type__in=AWARDS
    ).values_list("event", flat=True)
    for row in rows:
        if row.deal_number == number:
            yield row.event
