"""Adding ended deals to the players' day rows, exactly once, off the door's path (beat runs `tally_deals`).

Exactly once: a run holds the one `TallyMark` row's lock, takes ended deals not yet in `TalliedDeal`, adds their
players to `PlayerDay` and records them in `TalliedDeal`, all in one transaction. Only deals that ended after the
mark less `SLACK` are looked at: a deal is written (ended_at included) inside one short door transaction, so one
that ended before that was visible to an earlier run. Tallied deals older than that are forgotten again.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, timedelta

from django.db import transaction

from tables.models import Deal, DealSeat

from .models import PlayerDay, TalliedDeal, TallyMark

SLACK = timedelta(hours=1)
BATCH = 2000  # deals a transaction adds


@dataclass
class DayTotals:
    bot: bool = False
    deals: int = 0
    deals_won: int = 0
    played: int = 0
    svaras: int = 0
    svaras_won: int = 0
    biggest_pot: int = 0
    net: int = 0

    def add(self, seat: DealSeat, svara: int) -> None:
        self.bot = seat.bot
        if svara:
            self.svaras += 1
            self.svaras_won += seat.svara_won
        else:
            self.deals += 1
            self.played += seat.played
        self.deals_won += seat.won_pot
        self.biggest_pot = max(self.biggest_pot, seat.won)
        self.net += seat.net


SUMMED = ("deals", "deals_won", "played", "svaras", "svaras_won", "net")


def tally_deals() -> int:
    """Add every ended, untallied deal to the day rows; returns how many deals were added."""
    added = 0
    while True:
        batch = _tally_batch()
        added += batch
        if batch < BATCH:
            return added


@transaction.atomic
def _tally_batch() -> int:
    mark, _ = TallyMark.objects.select_for_update().get_or_create(pk=1)
    deals = Deal.objects.filter(ended_at__isnull=False)
    if mark.through is not None:
        deals = deals.filter(ended_at__gte=mark.through - SLACK)
    pending = list(
        deals.exclude(pk__in=TalliedDeal.objects.values("deal_id"))
        .order_by("ended_at", "pk")
        .values_list("pk", "svara", "ended_at", "table__family")[:BATCH]
    )
    if not pending:
        return 0
    about = {pk: (svara, ended_at.date(), family) for pk, svara, ended_at, family in pending}
    totals: dict[tuple[int, str, date], DayTotals] = defaultdict(DayTotals)
    for seat in DealSeat.objects.filter(deal_id__in=about, ended=True).only(
        "deal_id", "user_id", "bot", "won", "net", "won_pot", "played", "svara_won"
    ):
        svara, day, family = about[seat.deal_id]
        totals[seat.user_id, family, day].add(seat, svara)
    _add(totals)
    TalliedDeal.objects.bulk_create([TalliedDeal(deal_id=pk, ended_at=ended_at) for pk, _, ended_at, _ in pending])
    newest = max(ended_at for _, _, ended_at, _ in pending)
    if mark.through is None or newest > mark.through:
        mark.through = newest
        mark.save(update_fields=["through"])
    TalliedDeal.objects.filter(ended_at__lt=mark.through - 2 * SLACK).delete()
    return len(pending)


def _add(totals: dict[tuple[int, str, date], DayTotals]) -> None:
    """Existing rows get the totals added (no other run writes them: the mark's lock is held), new ones are made."""
    if not totals:
        return
    users = {user for user, _, _ in totals}
    existing = {
        (row.user_id, row.family, row.day): row
        for row in PlayerDay.objects.filter(user_id__in=users, day__in={day for _, _, day in totals})
    }
    new, changed = [], []
    for key, total in totals.items():
        row = existing.get(key)
        if row is None:
            user, family, day = key
            new.append(PlayerDay(user_id=user, family=family, day=day, bot=total.bot,
                                 biggest_pot=total.biggest_pot, **{f: getattr(total, f) for f in SUMMED}))
            continue
        for field in SUMMED:
            setattr(row, field, getattr(row, field) + getattr(total, field))
        row.biggest_pot = max(row.biggest_pot, total.biggest_pot)
        changed.append(row)
    PlayerDay.objects.bulk_create(new)
    PlayerDay.objects.bulk_update(changed, [*SUMMED, "biggest_pot"])



