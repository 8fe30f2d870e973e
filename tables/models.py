"""Tables, who sits where, the stored state of each table's play, hand histories, and client message ids.

The engine's `TableState` is the truth of a table's play; it is stored here as JSON with its version and its running
clock (kind and deadline), written only by `tables.services` under the table row's lock.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .engine import rules


class Family(models.TextChoices):
    CLASSIC = "classic", _("classic (36 cards, shakha 6♣)")
    BULGARIAN = "bulgarian", _("bulgarian (32 cards, wild 7♣)")


# RULES (the table at the top): 2–6 seats classic, 2–8 bulgarian; the numbers live in the engine's rules.
SEATS_BY_FAMILY = {Family(family): seats for family, seats in rules.SEATS_BY_FAMILY.items()}


class TableStatus(models.TextChoices):
    OPEN = "open", "open"
    CLOSED = "closed", "closed"


class Table(models.Model):
    family = models.CharField(max_length=16, choices=Family.choices, default=Family.CLASSIC)
    ante = models.PositiveIntegerField()
    seats = models.PositiveSmallIntegerField()
    bots_allowed = models.BooleanField(default=False)
    # A private table is seen and sat at only with its invite link (tables/access.py); the creator may revoke the
    # token, which ends the grant of everyone who has not sat down.
    private = models.BooleanField(default=False, help_text="Only people with the invite link see it or sit.")
    invite_token = models.CharField(max_length=64, blank=True, default="")
    # Staff set this table up (the demo's, a bot table policy's): it stays open when empty, so a newcomer always
    # finds a game. Players' tables close after SVARA_IDLE_TABLE_SECONDS empty.
    kept_open = models.BooleanField(
        "kept open", default=False, help_text="Set up by staff: never closes for being empty."
    )
    status = models.CharField(max_length=8, choices=TableStatus.choices, default=TableStatus.OPEN)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tables_created",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    # The staff member who closed the table (None: it closed by itself, idle); kept like a transfer's actor.
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="tables_closed"
    )

    # The engine's stored state, TableState.dumps() (JSON text, written and read as is around every action);
    # `version` mirrors state.version (+1 on every applied action).
    state = models.TextField(blank=True, default="")
    version = models.PositiveIntegerField(default=0)
    # The running clock (RULES §9): what it waits for and until when. Not indexed: the overdue-clock sweeper reads
    # the open tables (by status), and no column an action writes is, so the row's update is a heap-only one (HOT:
    # no index written) whenever its page has room (docs/benchmarks.md, session 16).
    clock_kind = models.CharField(max_length=16, blank=True, default="")
    clock_seats = models.JSONField(default=list, blank=True)
    clock_deadline = models.DateTimeField(null=True, blank=True)
    # Why the door stopped this table's clock (a refused timeout: a fault for staff to look into), if it did.
    fault = models.CharField(max_length=500, blank=True, default="")
    # Since when nobody sits here (None while somebody does): an empty table closes after a while.
    empty_since = models.DateTimeField(null=True, blank=True)
    # Fixed decks for the next deals: read and written only by the test settings' deck provider
    # (tables/services/test_decks.py), never by the door itself.
    test_decks = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["id"]
        # A plain index (db_index on a CharField adds a second one, for LIKE, which nothing here asks).
        indexes = [models.Index(fields=["status"], name="tables_table_status")]
        constraints = [
            models.CheckConstraint(condition=Q(ante__gt=0), name="tables_ante_positive"),
            models.CheckConstraint(condition=Q(seats__gte=2, seats__lte=8), name="tables_seats_2_to_8"),
        ]

    def __str__(self) -> str:
        return f"table {self.pk} ({self.family}, ante {self.ante}, {self.seats} seats)"

    @property
    def is_open(self) -> bool:
        return self.status == TableStatus.OPEN

    @property
    def group_name(self) -> str:
        return f"table-{self.pk}"


class TableSeat(models.Model):
    """Who holds which seat, mirrored from the engine state after every change (one seat per player per table)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="occupied_seats")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_seats")
    stack = models.PositiveIntegerField(default=0)
    seated_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table_id", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="tables_one_player_per_seat"),
            models.UniqueConstraint(fields=["table", "user"], name="tables_one_seat_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.user} at seat {self.seat} of table {self.table_id}"


class TableGuest(models.Model):
    """A player let in to a private table by its invite link: valid while `token` is the table's current one, so
    revoking (a new token) ends every grant at once without deleting rows."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="guests")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    token = models.CharField(max_length=64)
    granted_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "user"], name="tables_one_guest_row_per_user")]

    def __str__(self) -> str:
        return f"{self.user} invited to table {self.table_id}"


class Presence(models.Model):
    """Open WebSocket connections of one user to one table, counted in the database so any process may serve them."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="presences")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_presences"
    )
    connections = models.IntegerField(default=0)
    connected_at = models.DateTimeField(null=True, blank=True)
    # The last connect or disconnect: with no connection since this long ago, the player is offline (§9).
    changed_at = models.DateTimeField(db_index=True)
    # Touched every half minute by each open connection's consumer: if its process dies without a disconnect, the
    # count stays up but this goes stale, and the player counts as offline from then.
    seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "user"], name="tables_one_presence_per_user")]

    def __str__(self) -> str:
        return f"{self.user} at table {self.table_id}: {self.connections} connection(s)"


class Deal(models.Model):
    """A hand history: when the deal ran, its pot, rake and winners; its events are `DealEvent` rows, its players
    `DealSeat` rows.

    A svara (RULES §7) is a deal of its own here: the engine plays it under the same deal number, and its row has
    `svara` = its place in the chain (1, 2, …) and `previous` = the deal it came out of. The deal before it ends
    at the `svara` event (its pot carries over, nobody won it); the svara's row opens there, its buy-ins first."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveIntegerField()  # the engine's deal_no at this table
    svara = models.PositiveSmallIntegerField(default=0)  # 0: the deal itself; k: the k-th svara of its chain
    previous = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="next_in_chain"
    )  # the deal of the chain before this svara (None for a deal that is no svara)
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    pot = models.PositiveIntegerField(default=0)
    rake = models.PositiveIntegerField(default=0)
    winners = models.JSONField(default=list, blank=True)
    # Provably fair deals (docs/fair.md): the commitment is written when the deal starts; the server seed, the
    # players' seeds in seat order ([seat, seed]) and every deck dealt ({"svara", "stacked", "dealt": [[seat,
    # card, card, card], ...]}) only when it is over, so no page reads them from this row while it runs.
    commitment = models.CharField(max_length=64, blank=True, default="",
                                  help_text="SHA-256 of the server seed, published before the deal")
    server_seed = models.CharField(max_length=64, blank=True, default="",
                                   help_text="Written when the deal is over, never before")
    seeds = models.JSONField(default=list, blank=True)
    decks = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["table_id", "number", "svara"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number", "svara"], name="tables_one_deal_number")
        ]

    def __str__(self) -> str:
        svara = f" (svara {self.svara})" if self.svara else ""
        return f"deal {self.number}{svara} at table {self.table_id}"

    @property
    def verifiable(self) -> bool:
        """Over, with a fairness record, and no deck of it stacked by a test."""
        return (self.ended_at is not None and bool(self.server_seed) and bool(self.decks)
                and not any(deck["stacked"] for deck in self.decks))

    @property
    def events(self) -> list[dict]:
        """The deal's engine events in the order they happened."""
        return list(
            DealEvent.objects.filter(table_id=self.table_id, deal_number=self.number, svara=self.svara)
            .order_by("version", "index")
            .values_list("event", flat=True)
        )


class DealSeat(models.Model):
    """One player of one deal (a svara's too) and what it brought him: what statistics and the history list read.

    Written by the door with the deal: the row opens with the deal (seat, name, stack), its results are filled in
    when the deal ends (in the same transaction as the award). Chips are counted within this deal: a pot carried
    into a svara is `put_in` of the deal before it and `won` of the svara that awards it."""

    # No index of its own: the unique constraints below lead with it.
    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="players", db_index=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="deal_seats")
    # Copied from the deal and its table, for a user's deals newest first and per family/week statistics.
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    family = models.CharField(max_length=16, choices=Family.choices)
    started_at = models.DateTimeField()
    seat = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=150)  # the name shown at the table then
    bot = models.BooleanField(default=False)
    stack = models.PositiveIntegerField(default=0)  # his stack when the deal started (before the ante)
    ended = models.BooleanField(default=False)  # the results below are filled in
    put_in = models.PositiveIntegerField(default=0)  # ante, bets and buy-in, less the levels returned (D6)
    won = models.PositiveIntegerField(default=0)  # what the award gave him (after the rake)
    net = models.IntegerField(default=0)  # won - put_in
    won_pot = models.BooleanField(default=False)  # took the pot or a share of it
    played = models.BooleanField(default=False)  # put chips in beyond the ante (a svara's buy-in counts)
    tied = models.BooleanField(default=False)  # his hand tied and the deal went on to a svara
    svara_won = models.BooleanField(default=False)  # this deal is a svara and he took (a share of) its pot

    class Meta:
        ordering = ["deal_id", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["deal", "seat"], name="tables_one_player_per_deal_seat"),
            models.UniqueConstraint(fields=["deal", "user"], name="tables_one_deal_seat_per_player"),
        ]
        indexes = [
            models.Index(fields=["user", "-started_at", "-deal"], name="tables_dealseat_user_newest",
                         condition=Q(ended=True)),
            models.Index(fields=["user", "family", "-started_at", "-deal"], name="tables_dealseat_user_family",
                         condition=Q(ended=True)),
            models.Index(fields=["user", "table", "-started_at", "-deal"], name="tables_dealseat_user_table",
                         condition=Q(ended=True)),
            models.Index(fields=["family", "started_at"], name="tables_dealseat_family_week"),
        ]

    def __str__(self) -> str:
        return f"{self.name} at seat {self.seat} of deal {self.deal_id}"


class DealEvent(models.Model):
    """One engine event of a deal, appended as it happens and never rewritten (one insert per action)."""

    # No index of its own: the unique constraint's leads with the table.
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="deal_events", db_index=False)
    deal_number = models.PositiveIntegerField()
    svara = models.PositiveSmallIntegerField(default=0)  # the Deal row's `svara` it belongs to
    version = models.PositiveIntegerField()  # the table's version the event came with
    index = models.PositiveSmallIntegerField()  # its place among that version's events
    event = models.JSONField()

    class Meta:
        ordering = ["table_id", "deal_number", "version", "index"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "deal_number", "version", "index"], name="tables_one_deal_event_per_place"
            )
        ]

    def __str__(self) -> str:
        return f"{self.event.get('type')} in deal {self.deal_number} at table {self.table_id} (v{self.version})"


class ClientMessage(models.Model):
    """A client-chosen message id and the answer given to it: a repeated id gets the same answer, never a second run."""

    # No index of its own: the unique constraint's leads with the table.
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="client_messages", db_index=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    client_id = models.CharField(max_length=64)
    response = models.JSONField()
    # Replies are kept for SVARA_REPLY_SECONDS (a client resends after a reconnect), then pruned by beat.
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["table", "user", "client_id"], name="tables_one_answer_per_client_id"
            )
        ]

    def __str__(self) -> str:
        return f"message {self.client_id!r} of {self.user_id} at table {self.table_id}"


class ChatLine(models.Model):
    """A table chat line, kept so a page opened (or reloaded) later shows the last ones (docs/protocol.md)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat_lines")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    name = models.CharField(max_length=150)  # the name shown when it was said
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    text = models.CharField(max_length=200)
    said_at = models.DateTimeField()

    class Meta:
        ordering = ["table_id", "id"]
        indexes = [models.Index(fields=["table", "-id"], name="tables_chat_latest")]

    def __str__(self) -> str:
        return f"{self.name} at table {self.table_id}: {self.text[:40]}"

    def to_json(self) -> dict:
        """The `chat` message the socket sends (docs/protocol.md)."""
        return {"type": "chat", "user": self.name, "seat": self.seat, "text": self.text, "at": self.said_at.isoformat()}
