"""Adding ended deals to the players' day rows, exactly once, off the door's path (beat runs `tally_deals`).

Exactly once: a run holds the one `TallyMark` row's lock, takes ended deals not yet in `TalliedDeal`, adds their
players to `PlayerDay` and records them in `TalliedDeal`, all in one transaction. Only deals that ended after the
mark less `SLACK` are looked at: a deal is written (ended_at included) inside one short door transaction, so one
that ended before that was visible to an earlier run. Tallied deals older than that are forgotten again.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import connection, transaction

from tables.models import Deal

from .models import TalliedDeal, TallyMark

SLACK = timedelta(hours=1)
BATCH = 2000  # deals a transaction adds


SUMMED = ("deals", "deals_won", "played", "svaras", "svaras_won", "net")

# The day rows get a batch's players added in one statement, summed in the database (PostgreSQL and SQLite both
# know INSERT … ON CONFLICT DO UPDATE); `{day}` and `{greatest}` are the dialect's.
ADD_PLAYERS = """
INSERT INTO stats_playerday (user_id, family, day, bot, deals, deals_won, played, svaras, svaras_won, biggest_pot, net)
SELECT s.user_id, s.family, {day}, MAX(CASE WHEN s.bot THEN 1 ELSE 0 END) = 1,
       SUM(CASE WHEN d.svara = 0 THEN 1 ELSE 0 END),
       SUM(CASE WHEN s.won_pot THEN 1 ELSE 0 END),
       SUM(CASE WHEN d.svara = 0 AND s.played THEN 1 ELSE 0 END),
       SUM(CASE WHEN d.svara > 0 THEN 1 ELSE 0 END),
       SUM(CASE WHEN s.svara_won THEN 1 ELSE 0 END),
       MAX(s.won), SUM(s.net)
FROM tables_dealseat s JOIN tables_deal d ON d.id = s.deal_id
WHERE s.ended AND s.deal_id IN ({deals})
GROUP BY s.user_id, s.family, {day}
ON CONFLICT (user_id, family, day) DO UPDATE SET
  bot = EXCLUDED.bot,
  {sums},
  biggest_pot = {greatest}(stats_playerday.biggest_pot, EXCLUDED.biggest_pot)
"""
DIALECT = {
    "postgresql": {"day": "(d.ended_at AT TIME ZONE 'UTC')::date", "greatest": "GREATEST"},
    "sqlite": {"day": "date(d.ended_at)", "greatest": "MAX"},  # stored in UTC
}


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
        .values_list("pk", "ended_at")[:BATCH]
    )
    if not pending:
        return 0
    _add([pk for pk, _ in pending])
    TalliedDeal.objects.bulk_create([TalliedDeal(deal_id=pk, ended_at=ended_at) for pk, ended_at in pending])
    newest = max(ended_at for _, ended_at in pending)
    if mark.through is None or newest > mark.through:
        mark.through = newest
        mark.save(update_fields=["through"])
    TalliedDeal.objects.filter(ended_at__lt=mark.through - 2 * SLACK).delete()
    return len(pending)


def _add(deal_ids: list[int]) -> None:
    """Their players added to the day rows (no other run writes them meanwhile: the mark's lock is held)."""
    dialect = DIALECT[connection.vendor]
    sql = ADD_PLAYERS.format(
        deals=", ".join(["%s"] * len(deal_ids)),
        sums=",\n  ".join(f"{f} = stats_playerday.{f} + EXCLUDED.{f}" for f in SUMMED),
        **dialect,
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, deal_ids)
