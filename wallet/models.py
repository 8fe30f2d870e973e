"""The chip ledger: accounts that hold chips and the immutable transfers between them.

Double entry: every transfer takes chips from one account and gives them to another, so the balances of all
accounts always sum to zero. The treasury is where staff credits come from, so it alone runs negative; its
negation is the number of chips in circulation.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class AccountKind(models.TextChoices):
    BALANCE = "balance", _("player balance")
    STACK = "stack", _("stack at a table")
    POT = "pot", _("table pot")
    HOUSE = "house", _("house rake")
    TREASURY = "treasury", _("treasury")
    BOTS_POOL = "bots_pool", _("bots' pool")


# Accounts of which there is exactly one.
SINGLETON_KINDS = (AccountKind.TREASURY, AccountKind.BOTS_POOL)
# The house keeps its rake in one account a table, locked with the table's row as its pot is: so the deals ending at
# different tables never queue on one row (docs/benchmarks.md, session 16). The house's takings are their sum. One
# account without a table may remain from before (wallet migration 0005): it is never credited again.


class LedgerAccount(models.Model):
    kind = models.CharField(max_length=16, choices=AccountKind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="ledger_accounts",
    )
    # A plain integer, not a foreign key: the wallet must not depend on the tables app.
    table_id = models.BigIntegerField(null=True, blank=True)
    # Maintained in the same transaction as every transfer; audit_ledger re-derives it from the transfers.
    balance = models.BigIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind=AccountKind.TREASURY) | Q(balance__gte=0),
                name="wallet_account_balance_not_negative",
                violation_error_message="Only the treasury may hold a negative balance.",
            ),
            # Each kind has exactly the owner fields it needs.
            models.CheckConstraint(
                condition=(
                    Q(kind=AccountKind.BALANCE, user__isnull=False, table_id__isnull=True)
                    | Q(kind=AccountKind.STACK, user__isnull=False, table_id__isnull=False)
                    | Q(kind=AccountKind.POT, user__isnull=True, table_id__isnull=False)
                    | Q(kind=AccountKind.HOUSE, user__isnull=True)
                    | Q(kind__in=SINGLETON_KINDS, user__isnull=True, table_id__isnull=True)
                ),
                name="wallet_account_owner_matches_kind",
            ),
            models.UniqueConstraint(
                fields=["user"], condition=Q(kind=AccountKind.BALANCE), name="wallet_one_balance_per_user"
            ),
            models.UniqueConstraint(
                fields=["user", "table_id"],
                condition=Q(kind=AccountKind.STACK),
                name="wallet_one_stack_per_seat",
            ),
            models.UniqueConstraint(
                fields=["table_id"], condition=Q(kind=AccountKind.POT), name="wallet_one_pot_per_table"
            ),
            models.UniqueConstraint(
                fields=["table_id"], condition=Q(kind=AccountKind.HOUSE), name="wallet_one_house_per_table"
            ),
            models.UniqueConstraint(
                fields=["kind"],
                condition=Q(kind__in=SINGLETON_KINDS) | Q(kind=AccountKind.HOUSE, table_id__isnull=True),
                name="wallet_one_singleton_per_kind",
            ),
        ]

    def __str__(self) -> str:
        if self.kind == AccountKind.BALANCE:
            return gettext("balance of %(player)s") % {"player": self.user}
        if self.kind == AccountKind.STACK:
            return gettext("stack of %(player)s at table %(table)s") % {"player": self.user, "table": self.table_id}
        if self.kind == AccountKind.POT:
            return gettext("pot of table %(table)s") % {"table": self.table_id}
        if self.kind == AccountKind.HOUSE and self.table_id is not None:
            return gettext("house rake of table %(table)s") % {"table": self.table_id}
        return str(self.get_kind_display())


class TransferKind(models.TextChoices):
    CREDIT = "credit", _("staff credit")
    WELCOME = "welcome", _("welcome chips")
    DEBIT = "debit", _("staff debit")
    BUY_IN = "buy_in", _("table buy-in")
    ADD_CHIPS = "add_chips", _("chips added")
    CASH_OUT = "cash_out", _("cash-out")
    BET = "bet", _("paid into the pot")
    PAY_OUT = "pay_out", _("won from the pot")
    RAKE = "rake", _("rake")
    BOT_SEED = "bot_seed", _("bots' pool funded")
    BOT_BUY_IN = "bot_buy_in", _("bot buy-in")
    BOT_CASH_OUT = "bot_cash_out", _("bot cash-out")


class ImmutableTransferError(Exception):
    """A transfer was about to be changed or deleted; corrections are new transfers."""


class TransferQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise ImmutableTransferError("Transfers are immutable; record a correcting transfer instead.")

    def delete(self):
        raise ImmutableTransferError("Transfers are immutable; record a correcting transfer instead.")

    def bulk_update(self, objs, fields, batch_size=None):
        raise ImmutableTransferError("Transfers are immutable; record a correcting transfer instead.")


class Transfer(models.Model):
    # Chosen by the caller; the same key twice moves chips once (the unique constraint below: a field's own
    # `unique` would also build a LIKE index on PostgreSQL, which no query uses and every transfer writes).
    key = models.CharField(max_length=200)
    kind = models.CharField(max_length=16, choices=TransferKind.choices)
    source = models.ForeignKey(LedgerAccount, on_delete=models.PROTECT, related_name="outgoing")
    destination = models.ForeignKey(LedgerAccount, on_delete=models.PROTECT, related_name="incoming")
    amount = models.BigIntegerField()
    memo = models.CharField(max_length=255, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        db_index=False,  # indexed where set only (Meta): a staff member's few among the players' many
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The staff member who made a credit or debit.",
    )
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    # For finance reports (rake by table and by family) without a foreign key into the tables app.
    table_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    family = models.CharField(max_length=16, blank=True)

    objects = TransferQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        permissions = [("adjust_balance", "Can credit or debit a player's balance")]
        constraints = [
            # PostgreSQL's name for the field's old `unique` (wallet migration 0006 kept that constraint as it was).
            models.UniqueConstraint(fields=["key"], name="wallet_transfer_key_key"),
            models.CheckConstraint(condition=Q(amount__gt=0), name="wallet_transfer_amount_positive"),
            models.CheckConstraint(
                condition=~Q(source=models.F("destination")), name="wallet_transfer_between_two_accounts"
            ),
        ]
        indexes = [
            models.Index(fields=["kind", "created_at"], name="wallet_transfer_kind_time"),
            models.Index(fields=["actor"], name="wallet_transfer_actor", condition=Q(actor__isnull=False)),
        ]

    def __str__(self) -> str:
        return f"{self.amount} {self.get_kind_display()}: {self.source} → {self.destination}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ImmutableTransferError("Transfers are immutable; record a correcting transfer instead.")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ImmutableTransferError("Transfers are immutable; record a correcting transfer instead.")


class PlayerLimits(models.Model):
    """The limits a player sets for himself (wallet/limits.py has the rules of their timing and their checks).

    Each money or time limit is a value (None: no limit) and maybe a pending raise: a raise (or a removal) takes
    effect only at `*_pending_from`, 24 hours after it was asked; a lowering takes effect at once. The
    self-exclusion runs until `excluded_until` and is never shortened, by the player or by staff (the admin is
    read-only). The door locks this row (select_for_update) in the transaction of every buy-in it checks."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="limits")
    # Chips bought in (table buy-ins and chips added) per day (UTC).
    daily_buy_in_cap = models.PositiveIntegerField(null=True, blank=True)
    daily_buy_in_cap_pending = models.PositiveIntegerField(null=True, blank=True)
    daily_buy_in_cap_pending_from = models.DateTimeField(null=True, blank=True)
    # Net chips lost at tables per day (UTC): bought in minus cashed out.
    daily_loss_limit = models.PositiveIntegerField(null=True, blank=True)
    daily_loss_limit_pending = models.PositiveIntegerField(null=True, blank=True)
    daily_loss_limit_pending_from = models.DateTimeField(null=True, blank=True)
    # A reminder at the table after this many minutes seated.
    session_minutes = models.PositiveIntegerField(null=True, blank=True)
    session_minutes_pending = models.PositiveIntegerField(null=True, blank=True)
    session_minutes_pending_from = models.DateTimeField(null=True, blank=True)
    excluded_until = models.DateTimeField(null=True, blank=True)
    excluded_since = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "player's own limits"
        verbose_name_plural = "players' own limits"
        constraints = [
            models.CheckConstraint(condition=Q(daily_buy_in_cap__gt=0) | Q(daily_buy_in_cap__isnull=True),
                                   name="wallet_limits_cap_positive"),
            models.CheckConstraint(condition=Q(daily_loss_limit__gt=0) | Q(daily_loss_limit__isnull=True),
                                   name="wallet_limits_loss_positive"),
            models.CheckConstraint(condition=Q(session_minutes__gt=0) | Q(session_minutes__isnull=True),
                                   name="wallet_limits_session_positive"),
        ]  # fmt: skip

    def __str__(self) -> str:
        return f"limits of {self.user}"
