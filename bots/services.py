"""Seating, playing and standing up the platform's bots, all through the tables' one door (`tables.services`).

Bots are `accounts.User(is_bot=True)` with a `BotPlayer` row saying their level. Their chips come from the bots'
pool in the ledger when they sit (the door calls `wallet.services.bot_buy_in`) and go back to it when they stand.
A bot never reads the table's state beyond its own seat's view (`TableState.view(seat)`); the decision is the pure
`tables.engine.strategy.decide`.
"""

from __future__ import annotations

import logging
import random
import secrets
import uuid
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tables import services as door
from tables.engine.play import TableState
from tables.engine.strategy import LEVELS, decide
from tables.models import Table, TableSeat, TableStatus
from wallet import services as wallet

from .models import BotPlayer, BotTable, BotTablePolicy

log = logging.getLogger(__name__)

BUY_IN_ANTES = 50  # a bot sits with 50 antes (the table buy-in is 20..100, RULES §10)
REBUY_BELOW_ANTES = 10  # between deals a bot this short stands up; the policy seats a fresh one
# Seconds a bot waits before acting, like a person thinking; scaled with the clocks (SVARA_CLOCK_SCALE).
PAUSE_SECONDS = (1.0, 4.0)
# A bot at a table no person has sat at for this long stands up (its chips go back to the pool).
ALONE_SECONDS = 120.0
# After how many open cards and moves in one go a bot task stops (it opens its three cards, then acts).
MAX_STEPS = 5

_rng = random.Random(secrets.randbits(64))


class BotError(ValueError):
    """A bot request refused with a clear reason; nothing changed."""


# --- chips -----------------------------------------------------------------------------------------------------


def fund_bots(amount: int, *, key: str | None = None, staff=None, reason: str = "bots' pool") -> int:
    """Treasury → the bots' pool (demo data and staff use it); returns the pool's balance after."""
    from wallet.accounts import bots_pool_account

    wallet.fund_bots(amount, key or f"fund_bots:{uuid.uuid4().hex}", staff=staff, reason=reason)
    return bots_pool_account().balance


# --- who the bots are ------------------------------------------------------------------------------------------


def _check_level(level: str) -> str:
    if level not in LEVELS:
        raise BotError(f"No such bot level: {level!r} (one of {', '.join(LEVELS)}).")
    return level


def free_bot(table: Table, level: str):
    """A bot of this level not seated at this table; a new one when every such bot already sits there."""
    _check_level(level)
    seated = TableSeat.objects.filter(table=table).values_list("user_id", flat=True)
    bot = (
        BotPlayer.objects.filter(level=level, user__is_bot=True)
        .exclude(user_id__in=seated)
        .select_related("user")
        .order_by("user_id")
        .first()
    )
    if bot is not None:
        return bot.user
    return _new_bot(level)


_BOT_NAMES = ("Ava", "Boris", "Dana", "Emil", "Fyodor", "Greta", "Hana", "Ivo", "Katya", "Lev", "Mira", "Nikola")


def _new_bot(level: str):
    number = BotPlayer.objects.count() + 1
    handle = f"bot-{number}-{uuid.uuid4().hex[:6]}"
    user = get_user_model().objects.create_user(
        username=handle,
        email=f"{handle}@bots.invalid",
        password=None,
        is_bot=True,
        display_name=f"{_BOT_NAMES[number % len(_BOT_NAMES)]} (bot)",
    )
    BotPlayer.objects.create(user=user, level=level)
    return user


def level_of(user) -> str:
    bot = BotPlayer.objects.filter(user=user).first()
    return bot.level if bot is not None else "strong"


# --- seating and standing --------------------------------------------------------------------------------------


def seat_bot(table: Table | int, level: str = "strong", by_user=None, *, policy: BotTablePolicy | None = None):
    """Seat one bot of `level` at the table, through the door; its stack comes from the bots' pool.

    `by_user`: the table's creator or staff (None: the platform itself, e.g. a bot table policy). The table must
    allow bots (`Table.bots_allowed`; once a bot sits the engine takes no rake, RULES §8). Returns the bot user;
    a refusal (no free seat, pool empty, bots not allowed, not your table) is a BotError or DoorError."""
    if not isinstance(table, Table):
        table = Table.objects.filter(pk=table).first()
        if table is None:
            raise BotError(_("There is no such table."))
    _check_level(level)
    if by_user is not None and not (by_user.is_staff or (table.created_by_id and table.created_by_id == by_user.pk)):
        raise BotError(_("Only the table's creator or staff may seat bots."))
    is_creator = by_user is not None and table.created_by_id is not None and table.created_by_id == by_user.pk
    if table.private and not is_creator:  # issue 14: bots sit at a private table only when its creator seats them
        raise BotError(_("Only the creator of a private table seats bots there."))
    if not table.bots_allowed:
        raise BotError(_("This table was created without bots."))
    if not table.is_open:
        raise BotError(_("This table is closed."))
    bot = free_bot(table, level)
    door.sit(table.pk, bot, BUY_IN_ANTES * table.ante)
    BotTable.objects.get_or_create(table=table, defaults={"policy": policy})
    return bot


def stand_bot(table_id: int, bot) -> bool:
    """Stand a bot up through the door (mid-deal it folds; the seat and chips free at the deal's end)."""
    try:
        door.stand(table_id, bot)
        return True
    except door.DoorError as error:
        log.info("bot %s could not stand at table %s: %s", bot.pk, table_id, error.message)
        return False


def bots_at(table_id: int) -> list:
    return [
        seat.user
        for seat in TableSeat.objects.filter(table_id=table_id, user__is_bot=True).select_related("user")
    ]


def humans_at(table_id: int) -> int:
    return TableSeat.objects.filter(table_id=table_id, user__is_bot=False).count()


# --- playing ---------------------------------------------------------------------------------------------------


def _bot_players(state, bot_seats=None) -> dict[int, int]:
    """seat → user id of the bots seated in this state (`bot_seats`, when the caller knows them, saves a query)."""
    if bot_seats is not None:
        return {seat: int(state.seats[seat].player) for seat in sorted(bot_seats)}
    players = {
        index: int(seat.player)
        for index, seat in enumerate(state.seats)
        if seat is not None and getattr(seat, "player", None) is not None
    }
    bots = set(get_user_model().objects.filter(pk__in=players.values(), is_bot=True).values_list("pk", flat=True))
    return {index: player for index, player in players.items() if player in bots}


def _person_playing(view: dict, bot_seats) -> bool:
    """Is a person seated and not sitting out? Bots never deal among themselves."""
    return any(
        seat is not None and seat["seat"] not in bot_seats and seat.get("status") != "sitting_out"
        for seat in view["seats"]
    )


def seats_to_act(state, bot_seats=None) -> list[int]:
    """The bot seats that have something to answer now: their move, Show/Fold, Split/Play on, a svara offer,
    New deal (only when a person plays too), or coming back from sitting out when a person is back."""
    bots = _bot_players(state, bot_seats)
    if not bots:
        return []
    clock = state.clock
    waiting = set(int(seat) for seat in clock.seats) if clock is not None else set()
    due = []
    for seat in bots:
        if seat in waiting:
            if clock.kind == "new_deal" and not _person_playing(state.view(seat), bots):
                continue
            due.append(seat)
        elif state.phase == "waiting":
            view = state.view(seat)
            kinds = {legal["kind"] for legal in view.get("legal", [])}
            if _person_playing(view, bots) and ("back" in kinds or "new_deal" in kinds):
                me = next(s for s in view["seats"] if s is not None and s["seat"] == seat)
                if me.get("status") == "sitting_out" or ("new_deal" in kinds and not me.get("ready")):
                    due.append(seat)
    return due


def pause_seconds(rng: random.Random | None = None) -> float:
    low, high = getattr(settings, "SVARA_BOT_PAUSE_SECONDS", PAUSE_SECONDS)
    scale = float(getattr(settings, "SVARA_CLOCK_SCALE", 1.0))
    return (rng or _rng).uniform(low, high) * scale


def bot_act(table_id: int, version: int, seat: int, rng: random.Random | None = None) -> list[dict]:
    """The bot at `seat` answers what the table waits for, if the table is still at `version`.

    Runs under the table's lock: loads the bot's own seat view, decides, and applies through the door; opening a
    card does not end the turn, so it goes on (opens its cards, then moves) up to MAX_STEPS. Returns the actions
    applied ([] when the version moved on or there was nothing to do)."""
    rng = rng or _rng
    done: list[dict] = []
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None or table.status != TableStatus.OPEN or table.version != version:
            return done
        for _step in range(MAX_STEPS):
            state = TableState.loads(table.state)
            bots = _bot_players(state)
            if seat not in bots or seat not in seats_to_act(state):
                break
            bot = get_user_model().objects.get(pk=bots[seat])
            view = state.view(seat)
            kinds = {legal["kind"] for legal in view.get("legal", [])}
            if "back" in kinds and view["phase"] == "waiting" and "new_deal" not in kinds:
                action = {"kind": "back"}
            else:
                action = decide(view, rng=rng, level=level_of(bot))
            action = {key: value for key, value in action.items() if value is not None}
            try:
                door.act(table_id, bot, action)
            except door.DoorError as error:
                log.warning("bot at table %s seat %s: %s refused: %s", table_id, seat, action, error.message)
                break
            done.append(action)
            table.refresh_from_db()
            if action["kind"] != "open":
                break
    return done


# --- keeping bot tables ----------------------------------------------------------------------------------------


def _house_bot():
    """The user bot tables are created by (a bot: it never sits)."""
    User = get_user_model()
    user = User.objects.filter(username="bot-house").first()
    if user is None:
        user = User.objects.create_user(
            username="bot-house", email="bot-house@bots.invalid", password=None, is_bot=True, display_name="House"
        )
    return user


def keep_bot_tables(now=None) -> dict:
    """One pass: every active policy has its number of open bot tables, each with its bots; surplus tables
    nobody plays at close; bots at other tables stand up once no person has sat there for ALONE_SECONDS;
    short-stacked bots stand up between deals (the pool takes their chips; a fresh bot sits)."""
    now = now or timezone.now()
    report = {"opened": 0, "seated": 0, "stood": 0, "closed": 0}
    for policy in BotTablePolicy.objects.all():
        kept = [
            bot_table
            for bot_table in policy.bot_tables.select_related("table").order_by("table_id")
            if bot_table.table.is_open
        ]
        wanted = policy.tables if policy.active else 0
        for bot_table in kept[wanted:]:
            if humans_at(bot_table.table_id) == 0:
                for bot in bots_at(bot_table.table_id):
                    report["stood"] += stand_bot(bot_table.table_id, bot)
                try:
                    door.close_table(bot_table.table_id)
                    report["closed"] += 1
                except door.DoorError as error:
                    log.info("policy %s: table %s stays open: %s", policy.pk, bot_table.table_id, error.message)
        kept = kept[:wanted]
        while len(kept) < wanted:
            table = door.create_table(
                _house_bot(), policy.family, policy.ante, policy.seats, bots_allowed=True, kept_open=True
            )
            kept.append(BotTable.objects.create(policy=policy, table=table))
            report["opened"] += 1
        # A policy's tables are staff's: they never close for being empty (a table opened before the mark gets it).
        Table.objects.filter(pk__in=[b.table_id for b in kept], kept_open=False).update(kept_open=True)
        for bot_table in kept:
            report["stood"] += _stand_short_bots(bot_table.table)
            missing = policy.bots_per_table - len(bots_at(bot_table.table_id))
            for _missing in range(max(0, missing)):
                try:
                    seat_bot(bot_table.table, policy.level, policy=policy)
                    report["seated"] += 1
                except (BotError, door.DoorError) as error:
                    log.warning("policy %s: no bot seated at table %s: %s", policy.pk, bot_table.table_id, error)
                    break
    report["stood"] += _stand_lonely_bots(now)
    return report


def _stand_short_bots(table: Table) -> int:
    table.refresh_from_db()
    state = TableState.loads(table.state)
    if state.phase != "waiting":
        return 0
    stood = 0
    for seat, user_id in _bot_players(state).items():
        if state.seats[seat].stack < REBUY_BELOW_ANTES * table.ante:
            stood += stand_bot(table.pk, get_user_model().objects.get(pk=user_id))
    return stood


def _stand_lonely_bots(now) -> int:
    """Bots at tables no policy keeps stand up when no person has sat there for a while."""
    alone_for = float(getattr(settings, "SVARA_BOTS_ALONE_SECONDS", ALONE_SECONDS))
    stood = 0
    for bot_table in BotTable.objects.filter(policy__isnull=True, table__status=TableStatus.OPEN):
        table_id = bot_table.table_id
        if humans_at(table_id):
            if bot_table.alone_since is not None:
                BotTable.objects.filter(pk=bot_table.pk).update(alone_since=None)
            continue
        if bot_table.alone_since is None:
            BotTable.objects.filter(pk=bot_table.pk).update(alone_since=now)
            continue
        if now - bot_table.alone_since >= timedelta(seconds=alone_for):
            for bot in bots_at(table_id):
                stood += stand_bot(table_id, bot)
    return stood
