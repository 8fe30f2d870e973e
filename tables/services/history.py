"""Hand histories: a `Deal` row opens at `deal_started` and closes at `deal_ended`; every event in between is
appended as a `DealEvent` row (one insert per action, nothing rewritten). The row opens with the deal's commitment
and closes with its fairness record (docs/fair.md): the server seed is revealed only then."""

from __future__ import annotations

from ..engine.events import DealEnded, DealStarted, Event, PotAwarded, Split
from ..engine.fair import FairRecord, commitment
from ..models import Deal, DealEvent, Table

AWARDS = (PotAwarded, Split)  # the events that award a pot (a split awards it too, rake and all: §7, §8)


def record(table: Table, deal_before: int | None, version: int, events: list[Event], now,
           fair: FairRecord | None = None) -> list[DealEvent]:
    """One action's events as the rows to append to the deal they belong to (the door writes them with the state:
    statements.write_action); a deal's row opens and closes here. `deal_before` is the number of the deal running
    before the action (None between deals): events between deals (sitting down, pressing New deal) belong to
    no deal. `fair` is the state's fairness record after the action (of the deal it started or ended)."""
    deal = deal_before
    rows = []
    for index, event in enumerate(events):
        if isinstance(event, DealStarted):
            deal = event.deal_no
            committed = commitment(fair.server_seed) if fair is not None and fair.deal_no == deal else ""
            Deal.objects.create(table=table, number=deal, started_at=now, commitment=committed)
        if deal is None:
            continue
        rows.append(DealEvent(table=table, deal_number=deal, version=version, index=index, event=event.to_json()))
        if isinstance(event, DealEnded):
            _close(table, deal, [row.event for row in rows if row.deal_number == deal], now,
                   fair if fair is not None and fair.deal_no == deal else None)
            deal = None
    return rows


def _close(table: Table, number: int, new: list[dict], now, fair: FairRecord | None) -> None:
    """The deal's pot, rake and winners, from its awards: those stored, and those of this action; its fairness
    record, the server seed revealed."""
    kinds = [kind.type for kind in AWARDS]
    stored = DealEvent.objects.filter(table=table, deal_number=number, event__type__in=kinds)
    awards = [*stored.values_list("event", flat=True), *(e for e in new if e["type"] in kinds)]
    Deal.objects.filter(table=table, number=number).update(
        ended_at=now,
        pot=max((e["pot"] for e in awards), default=0),
        rake=sum(e["rake"] for e in awards),
        winners=[w for e in awards for w in e["winners"]],
        **({} if fair is None else {"server_seed": fair.server_seed, "seeds": [list(p) for p in fair.seeds],
                                    "decks": [d.to_json() for d in fair.decks]}),
    )
