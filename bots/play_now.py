"""“Play against bots now” (the lobby's button): the player sits with bots at once.

At a table where bots already sit and a seat is free (the bot table policies keep such tables open), else at a new
table of his own with bots seated. Everything goes through the door (`tables.services`); the buy-in is the player's,
within the rules' bounds (RULES §10: 20 to 100 antes). A player who cannot pay the smallest buy-in is told how to
get chips, and nothing changes.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Count, Q
from django.utils.translation import gettext_lazy as _

from config.said import grouped, said
from tables import services as door
from tables.engine.rules import MAX_STACK_ANTES, MIN_BUY_IN_ANTES
from tables.models import Table, TableSeat, TableStatus
from wallet.selectors import balance_of

from .services import BotError, seat_bot

# The table opened when no bot table has a free seat: family, ante, seats, and how many bots sit there.
NEW_TABLE_FAMILY = "classic"
NEW_TABLE_ANTE = 10
NEW_TABLE_SEATS = 4
NEW_TABLE_BOTS = 2
BUY_IN_ANTES = 50  # what the player sits down with when his balance allows (else all of it, down to 20 antes)


@dataclass(frozen=True, slots=True)
class Seated:
    table: Table
    buy_in: int  # 0 when he already sat there
    new_table: bool


def buy_in_for(balance: int, ante: int) -> int | None:
    """The player's buy-in at a table of this ante: 50 antes, or all he has down to 20 antes (RULES §10); None
    when his balance is short of 20 antes."""
    low, high = MIN_BUY_IN_ANTES * ante, MAX_STACK_ANTES * ante
    if balance < low:
        return None
    return max(low, min(BUY_IN_ANTES * ante, balance, high))


def no_chips_message(balance: int):
    return said(
        _("You have %(balance)s chips, and the smallest table buy-in is %(low)s chips (%(low)s antes of 1). Chips "
          "come from the club's staff: ask them to credit your balance (your chip history is on your profile page)."),
        balance=grouped(balance), low=MIN_BUY_IN_ANTES,
    )  # fmt: skip


def play_against_bots(user) -> Seated:
    """Seat `user` with bots at once; a BotError (nothing changed) says why not."""
    if user is None or not user.is_authenticated:
        raise BotError(_("Log in to play against bots."))
    if user.is_bot:
        raise BotError(_("A bot does not play against bots from the lobby."))
    already = (  # his own seat, at a private table too: he sits there, so it exists for him
        TableSeat.objects.filter(user=user, table__status=TableStatus.OPEN, table__occupied_seats__user__is_bot=True)
        .select_related("table")
        .order_by("-seated_at")
        .first()
    )
    if already is not None:
        return Seated(already.table, 0, False)
    balance = balance_of(user)
    for table in _bot_tables_with_a_free_seat(balance):
        amount = buy_in_for(balance, table.ante)
        try:
            door.sit(table.pk, user, amount)
        except door.DoorError as error:
            if error.code in ("seat_taken", "table_closed", "no_such_table"):
                continue  # taken or closed meanwhile: the next one
            raise BotError(error.said) from error
        return Seated(table, amount, False)
    return _new_table_with_bots(user, balance)


def _bot_tables_with_a_free_seat(balance: int) -> list[Table]:
    """Open tables with a bot seated, a free seat, and an ante the player can buy in at; tables no person plays
    at first (no deal running there to wait for), then the deepest bot company."""
    tables = (
        Table.objects.filter(
            status=TableStatus.OPEN, bots_allowed=True, private=False, ante__lte=balance // MIN_BUY_IN_ANTES
        )
        .annotate(
            taken=Count("occupied_seats"),
            bots=Count("occupied_seats", filter=Q(occupied_seats__user__is_bot=True)),
            people=Count("occupied_seats", filter=Q(occupied_seats__user__is_bot=False)),
        )
        .filter(bots__gte=1)
        .order_by("people", "-bots", "-kept_open", "id")
    )
    return [table for table in tables if table.taken < table.seats]


def _new_table_with_bots(user, balance: int) -> Seated:
    ante = min(NEW_TABLE_ANTE, balance // MIN_BUY_IN_ANTES)
    if ante < 1:
        raise BotError(no_chips_message(balance))
    amount = buy_in_for(balance, ante)
    try:
        # The table, its bots and the player's seat together, or nothing (e.g. the bots' pool is empty).
        with transaction.atomic():
            table = door.create_table(user, NEW_TABLE_FAMILY, ante, NEW_TABLE_SEATS, bots_allowed=True)
            for _bot in range(NEW_TABLE_BOTS):
                seat_bot(table, "strong", by_user=user)
            door.sit(table.pk, user, amount)
    except (door.DoorError, BotError) as error:
        reason = error.said if isinstance(error, door.DoorError) else (error.args[0] if error.args else str(error))
        raise BotError(said(_("No table with bots could be opened just now: %(reason)s"), reason=reason)) from error
    return Seated(table, amount, True)
