"""Players' statistics, tallied from the hand histories (tables.DealSeat) after the fact, never by the door.

A beat task (stats/tally.py) adds each ended deal's players, exactly once, to one row per player and family for
the day, the week and all time; the profile and the leaderboard read those rows, never every deal he played.
"""

from django.conf import settings
from django.db import models

from tables.models import Deal, Family


class Tally(models.Model):
    """What one player's deals of one family brought him over a span (a day, a week, all time)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    family = models.CharField(max_length=16, choices=Family.choices)
    bot = models.BooleanField(default=False)  # the leaderboard is for people only
    deals = models.PositiveIntegerField(default=0)  # deals dealt to him, a svara not counted again
    deals_won = models.PositiveIntegerField(default=0)  # deals (or their svara) whose pot he took or shared
    played = models.PositiveIntegerField(default=0)  # deals he put chips in beyond the ante
    svaras = models.PositiveIntegerField(default=0)  # svaras he took part in (RULES §7)
    svaras_won = models.PositiveIntegerField(default=0)
    biggest_pot = models.PositiveIntegerField(default=0)  # the most one deal gave him, after the rake
    net = models.BigIntegerField(default=0)  # chips won less chips put in

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return f"{self.user_id} {self.family}: {self.net:+} over {self.deals} deals"


class PlayerDay(Tally):
    """A day (UTC): the profile's chart of net chips over time."""

    day = models.DateField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "family", "day"], name="stats_one_row_per_player_family_day")
        ]


class PlayerWeek(Tally):
    """A week from Monday (UTC): this week's leaderboard, read in its order with no sum."""

    week = models.DateField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "family", "week"], name="stats_one_row_per_player_family_week")
        ]
        indexes = [models.Index(fields=["family", "week", "-net"], name="stats_week_ranking")]


class PlayerTotal(Tally):
    """All time: the profile's figures and the all-time leaderboard."""

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "family"], name="stats_one_row_per_player_family")]
        indexes = [models.Index(fields=["family", "-net"], name="stats_total_ranking")]


class TalliedDeal(models.Model):
    """A deal already added to the tallies (kept for a while after it ended, so no deal is added twice)."""

    deal = models.OneToOneField(Deal, primary_key=True, on_delete=models.CASCADE, related_name="+")
    ended_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"deal {self.deal_id} tallied"


class TallyMark(models.Model):
    """The one row beat's tally locks: every deal that ended before `through` less the slack is tallied."""

    through = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"tallied through {self.through}"
