"""Adding ended deals to the players' day rows, exactly once, off the door's path (beat runs `tally_deals`).

Exactly once: a run holds the one `TallyMark` row's lock, takes ended deals not yet in `TalliedDeal`, adds their
players to the span rows (`PlayerDay`, `PlayerWeek`, `PlayerTotal`) and records them in `TalliedDeal`, all in one transaction. Only deals that ended after the
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


# A batch's players are added to each span's rows in one statement, summed in the database (PostgreSQL and SQLite
# both know INSERT … ON CONFLICT DO UPDATE). `{span}` is the span's key (a day, a week's Monday, none for all time).
ADD_PLAYERS = """
INSERT INTO {table} (user_id, family, {span_column} bot, deals, deals_won, played, svaras, svaras_won, biggest_pot,
                     net)
SELECT s.user_id, s.family, {span} MAX(CASE WHEN s.bot THEN 1 ELSE 0 END) = 1,
       SUM(CASE WHEN d.svara = 0 THEN 1 ELSE 0 END),
       SUM(CASE WHEN s.won_pot THEN 1 ELSE 0 END),
       SUM(CASE WHEN d.svara = 0 AND s.played THEN 1 ELSE 0 END),
       SUM(CASE WHEN d.svara > 0 THEN 1 ELSE 0 END),
       SUM(CASE WHEN s.svara_won THEN 1 ELSE 0 END),
       MAX(s.won), SUM(s.net)
FROM tables_dealseat s JOIN tables_deal d ON d.id = s.deal_id
WHERE s.ended AND s.deal_id IN ({deals})
GROUP BY s.user_id, s.family {group_span}
ON CONFLICT (user_id, family {span_key}) DO UPDATE SET
  bot = EXCLUDED.bot,
  {sums},
  biggest_pot = {greatest}({table}.biggest_pot, EXCLUDED.biggest_pot)
"""
SUMMED = ("deals", "deals_won", "played", "svaras", "svaras_won", "net")
SPANS = {  # table: (its key column, the key in each dialect)
    "stats_playerday": ("day", {"postgresql": "(d.ended_at AT TIME ZONE 'UTC')::date",
                                "sqlite": "date(d.ended_at)"}),  # SQLite keeps UTC
    "stats_playerweek": ("week", {"postgresql": "date_trunc('week', d.ended_at AT TIME ZONE 'UTC')::date",
                                  "sqlite": "date(d.ended_at, 'weekday 0', '-6 days')"}),  # Monday
    "stats_playertotal": (None, None),
}
GREATEST = {"postgresql": "GREATEST", "sqlite": "MAX"}


def tally_deals() -> int:
    """Add every ended, untallied deal to the day, week and all-time rows; returns how many deals were added."""
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
    """Their players added to every span's rows (no other run writes them meanwhile: the mark's lock is held)."""
    vendor = connection.vendor
    sums = ",\n  ".join(f"{f} = {{table}}.{f} + EXCLUDED.{f}" for f in SUMMED)
    with connection.cursor() as cursor:
        for table, (column, key) in SPANS.items():
            span = key[vendor] if key else ""
            sql = ADD_PLAYERS.format(
                table=table, deals=", ".join(["%s"] * len(deal_ids)), sums=sums.format(table=table),
                span_column=f"{column}," if column else "", span=f"{span}," if span else "",
                group_span=f", {span}" if span else "", span_key=f", {column}" if column else "",
                greatest=GREATEST[vendor],
            )
            cursor.execute(sql, deal_ids)
