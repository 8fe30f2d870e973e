"""What the bots keep running (policies, edited by staff) and who the bots are."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from tables.engine.rules import SEATS_BY_FAMILY  # RULES.md, the table at the top
from tables.engine.strategy import LEVELS

LEVEL_CHOICES = [(level, level) for level in LEVELS]
FAMILY_CHOICES = [("classic", "classic"), ("bulgarian", "bulgarian")]


class BotTablePolicy(models.Model):
    """Keep `tables` open tables of this kind, each with `bots_per_table` bots of `level` waiting for people."""

    family = models.CharField(max_length=16, choices=FAMILY_CHOICES, default="classic")
    ante = models.PositiveIntegerField(default=10)
    seats = models.PositiveSmallIntegerField(default=6)
    tables = models.PositiveSmallIntegerField(default=1, help_text="How many such bot tables to keep open.")
    level = models.CharField(max_length=8, choices=LEVEL_CHOICES, default="strong")
    bots_per_table = models.PositiveSmallIntegerField(default=1)
    active = models.BooleanField(default=True)

    class Meta:
        verbose_name_plural = "bot table policies"
        constraints = [
            models.CheckConstraint(condition=Q(ante__gt=0), name="bots_policy_ante_positive"),
            models.CheckConstraint(condition=Q(bots_per_table__gte=1), name="bots_policy_at_least_one_bot"),
        ]

    def __str__(self) -> str:
        return f"{self.tables} × {self.family} ante {self.ante}, {self.bots_per_table} {self.level} bot(s)"

    def clean(self) -> None:
        low, high = SEATS_BY_FAMILY.get(self.family, (2, 8))
        if not low <= self.seats <= high:
            raise ValidationError({"seats": f"a {self.family} table has {low} to {high} seats"})
        if self.bots_per_table >= self.seats:
            raise ValidationError({"bots_per_table": "leave at least one seat for a person"})


class BotPlayer(models.Model):
    """A bot user (accounts.User with is_bot) and how it plays."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bot_player")
    level = models.CharField(max_length=8, choices=LEVEL_CHOICES, default="strong")

    def __str__(self) -> str:
        return f"{self.user} ({self.level} bot)"


class BotTable(models.Model):
    """A table bots have sat at: opened by a policy (which counts its open tables), or seated by its creator or
    staff (no policy: the bots stand up once no person has sat there for a while)."""

    policy = models.ForeignKey(
        BotTablePolicy, null=True, blank=True, on_delete=models.SET_NULL, related_name="bot_tables"
    )
    table = models.OneToOneField("tables.Table", on_delete=models.CASCADE, related_name="bot_table")
    created_at = models.DateTimeField(auto_now_add=True)
    # Since when no person sits at this table (None while one does).
    alone_since = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"table {self.table_id} kept by policy {self.policy_id}"
