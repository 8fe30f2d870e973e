"""The one door: every change to a table passes through here.

Each change opens a transaction, locks the table's row first (then the wallet locks ledger rows by primary key),
loads the engine state, applies one engine action, writes the new state with its version and clock, and moves every
chip that moved in the engine through the wallet in the same transaction. Only after commit are the table's
group ("version N"), the lobby, the `table_changed` signal and the clock's Celery task told.
"""

import logging
from datetime import timedelta

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from wallet import services as wallet
from wallet.accounts import WalletError
from wallet.services import MAX_STACK_ANTES, MIN_BUY_IN_ANTES  # §10's bounds, one source for door and ledger

from .engine import play
from .engine.actions import MOVE_KINDS
from .engine.rules import MAX_ANTE
from .models import SEATS_BY_FAMILY, ClientMessage, Deal, Family, Presence, Table, TableSeat, TableStatus
from .signals import table_changed
from .state_io import between_deals, chips_of, free_seats, seat_of
from .state_memo import StateMemo

log = logging.getLogger(__name__)

CLIENT_ID_MAX = 64
CHAT_MAX = 200
LOBBY_GROUP = "lobby"
PRESENCE_HEARTBEAT_SECONDS = 30
PRESENCE_STALE_SECONDS = 90  # three missed heartbeats

# What a player may ask for; `timeout` is never a client's (the clock's alone).
SEAT_KINDS = {"sit", "stand", "add_chips"}
PLAY_KINDS = MOVE_KINDS | {"sit_out", "back", "new_deal"}
PLAYER_KINDS = SEAT_KINDS | PLAY_KINDS
AMOUNT_REQUIRED = {"sit", "add_chips", "bet", "raise"}
AMOUNT_ALLOWED = AMOUNT_REQUIRED | {"dark", "blind", "call"}


class DoorError(Exception):
    """A refused change: nothing changed. `code` is the protocol's error code (docs/protocol.md)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


# The decoded state of each table this process last wrote (state_memo.py): the next action here skips decoding.
_states = StateMemo(play.TableState.loads)


# --- creating and closing tables ---


def create_table(user, family, ante, seats, bots_allowed=False) -> Table:
    """A player (or staff) opens a table; bad input is a DoorError with a clear message."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise DoorError("login_required", "Log in to create a table.")
    if family not in Family.values:
        raise DoorError(
            "bad_field", f"The rule family must be one of {', '.join(Family.values)}, not {family!r}."
        )
    if isinstance(ante, bool) or not isinstance(ante, int) or not 1 <= ante <= MAX_ANTE:
        raise DoorError(
            "out_of_range", f"The ante must be a whole number of chips from 1 to {MAX_ANTE}, not {ante!r}."
        )
    low, high = SEATS_BY_FAMILY[family]
    if isinstance(seats, bool) or not isinstance(seats, int) or not low <= seats <= high:
        raise DoorError("out_of_range", f"A {family} table has {low} to {high} seats, not {seats!r}.")
    if not isinstance(bots_allowed, bool):
        raise DoorError("bad_field", "Whether bots may sit must be true or false.")
    # No bot sits yet: the engine learns of one when it sits (`_sit_action`), not from `bots_allowed`.
    state = play.TableState.new(family, ante, seats)
    with transaction.atomic():
        table = Table.objects.create(
            family=family,
            ante=ante,
            seats=seats,
            bots_allowed=bots_allowed,
            created_by=user,
            state=state.dumps(),
            version=state.version,
            empty_since=timezone.now(),
        )
        transaction.on_commit(_notify_lobby)
    return table


def close_table(table_id: int, staff=None, *, idle_before=None) -> Table:
    """Close a table: everybody is stood up and cashed out first, through the door, then nobody may act.

    With `idle_before`, close only a table nobody has sat at since then (checked under the lock)."""
    with transaction.atomic():
        table = _lock(table_id)
        if not table.is_open:
            return table
        if idle_before is not None and (table.empty_since is None or table.empty_since >= idle_before):
            raise DoorError("illegal_action", f"Table {table_id} is not idle.")
        state = _load(table)
        users = _users_of(state)
        for player, user in users.items():
            seat = seat_of(state, player)
            if seat is None:
                continue
            if state.seats[seat].leaving:
                continue
            _apply(table, state, play.Action("stand", seat=seat), user)
        # Seats of players folded mid-deal free when the deal ends: play the clocks out until it has.
        for _ in range(50):
            if not chips_of(state).stacks or state.clock is None:
                break
            _apply(table, state, play.Action("timeout"), None)
        left = chips_of(state)
        if left.stacks or left.pot:
            raise DoorError(
                "illegal_action", f"Table {table_id} still holds chips ({left}); it cannot close yet."
            )
        table.status = TableStatus.CLOSED
        table.closed_at = timezone.now()
        table.clock_kind, table.clock_seats, table.clock_deadline = "", [], None
        table.save(update_fields=["status", "closed_at", "clock_kind", "clock_seats", "clock_deadline"])
        version = table.version
        transaction.on_commit(lambda: _notify_table(table_id, version, []))
        transaction.on_commit(_notify_lobby)
        closed = table.pk
        transaction.on_commit(lambda: _states.forget(closed))  # after the keeps of the actions above
    return table


# --- the door ---


def act(table_id: int, user, action: dict, client_id=None) -> dict:
    """Apply one player's message to the table: returns the `ack`, or raises DoorError and changes nothing.

    `action` is `{"kind": ..., "amount"?, "card"?, "seat"?}`. A repeated `client_id` returns the stored answer."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise DoorError(
            "login_required", "Log in to take a seat and play; anonymous visitors may only watch."
        )
    kind, amount, card, wanted_seat = _check_action(action)
    client_id = _check_client_id(client_id)
    with transaction.atomic():
        table, stored = _enter(table_id, user, client_id)
        if stored is not None:
            return stored
        state = _load(table)
        seat = seat_of(state, user.pk)
        try:
            if kind == "sit":
                engine_action = _sit_action(table, state, user, seat, wanted_seat, amount)
            else:
                if seat is None:
                    raise DoorError("not_seated", "You do not sit at this table.")
                if kind == "add_chips":
                    _check_add_chips(table, state, seat, amount)
                engine_action = play.Action(kind, seat=seat, amount=amount, card=card)
                _check_turn(state, seat, kind)
        except DoorError:
            _give_back(table, state)
            raise
        _apply(table, state, engine_action, user)
        response = _answer(table, user, client_id)
        if kind == "sit":
            _touch_presence(table, user)
    return response


def sit(table_id: int, user, amount: int, seat: int | None = None, client_id=None) -> dict:
    """Take a seat with a table buy-in of 20–100 antes (a bot's comes from the bots' pool)."""
    action = {"kind": "sit", "amount": amount}
    if seat is not None:
        action["seat"] = seat
    return act(table_id, user, action, client_id)


def stand(table_id: int, user, client_id=None) -> dict:
    return act(table_id, user, {"kind": "stand"}, client_id)


def run_out_clock(table_id: int, version: int | None = None) -> bool:
    """The running clock's time is up: apply §9 through the door. A no-op (False) when the version moved on
    since the task was scheduled, when no clock runs, or when its deadline is still ahead."""
    with transaction.atomic():
        table = _lock(table_id)
        if not table.is_open or table.clock_deadline is None:
            return False
        if version is not None and table.version != version:
            return False
        if table.clock_deadline > timezone.now():
            return False
        state = _load(table)
        try:
            with transaction.atomic():  # a refusal undoes every row the action wrote before it (the ledger's too)
                _apply(table, state, play.Action("timeout"), None)
        except DoorError as error:
            log.warning("timeout refused at table %s v%s: %s", table_id, table.version, error.message)
            return False
    return True


def chat(table_id: int, user, text, client_id=None) -> dict:
    """A chat line, between deals only; sent to the table's group after commit as plain text."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise DoorError("login_required", "Log in to chat.")
    if not isinstance(text, str):
        raise DoorError("bad_field", "The chat text must be a string.")
    text = text.strip()
    if not text:
        raise DoorError("out_of_range", "An empty chat message says nothing.")
    if len(text) > CHAT_MAX:
        raise DoorError(
            "out_of_range", f"A chat message may be at most {CHAT_MAX} characters, not {len(text)}."
        )
    client_id = _check_client_id(client_id)
    with transaction.atomic():
        table, stored = _enter(table_id, user, client_id)
        if stored is not None:
            return stored
        state = _load(table)
        seat = seat_of(state, user.pk)
        in_deal = not between_deals(state)
        _give_back(table, state)
        if in_deal:
            raise DoorError("chat_closed", "Table chat is open between deals only.")
        line = {
            "type": "chat",
            "user": user.table_name,
            "seat": seat,
            "text": text,
            "at": timezone.now().isoformat(),
        }
        response = _answer(table, user, client_id)
        group = table.group_name
        transaction.on_commit(lambda: _group_send(group, {"type": "table.chat", "line": line}))
    return response


def queue_test_deck(table_id: int, hands: list[str]) -> None:
    """Tests only (settings.SVARA_TEST_DECKS): the next deal gives these hands (e.g. ["Ah Kh Qh", "6c 6h 6s"]),
    in the order of dealing: the player after the dealer first."""
    if not settings.SVARA_TEST_DECKS:
        raise DoorError("illegal_action", "Fixed decks are a test hook, off outside the test settings.")
    with transaction.atomic():
        table = _lock(table_id)
        table.test_decks = [*table.test_decks, list(hands)]
        table.save(update_fields=["test_decks"])


# --- presence ---


def connected(table_id: int, user) -> None:
    _presence_change(table_id, user, +1)


def disconnected(table_id: int, user) -> None:
    _presence_change(table_id, user, -1)


def still_here(table_id: int, user) -> None:
    """A consumer's heartbeat: its connection is alive (a dead process stops touching this)."""
    Presence.objects.filter(table_id=table_id, user=user).update(seen_at=timezone.now())


def _presence_change(table_id: int, user, step: int) -> None:
    from django.db.models import F

    now = timezone.now()
    with transaction.atomic():
        presence, _ = Presence.objects.get_or_create(
            table_id=table_id, user=user, defaults={"changed_at": now}
        )
        fields = {"connections": F("connections") + step, "changed_at": now, "seen_at": now}
        if step > 0:
            fields["connected_at"] = now
        Presence.objects.filter(pk=presence.pk).update(**fields)


def _touch_presence(table: Table, user) -> None:
    """Sitting counts as being here now: the offline clock starts from the moment of sitting."""
    now = timezone.now()
    presence, created = Presence.objects.get_or_create(table=table, user=user, defaults={"changed_at": now})
    if not created and presence.connections <= 0:
        Presence.objects.filter(pk=presence.pk).update(changed_at=now)


def offline_players(now=None) -> list[tuple[int, int]]:
    """(table id, user id) of human players seated at open tables with no connection for SVARA_OFFLINE_SECONDS."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.SVARA_OFFLINE_SECONDS)
    seated = TableSeat.objects.filter(table__status=TableStatus.OPEN, user__is_bot=False).values_list(
        "table_id", "user_id", "seated_at"
    )
    presences = {
        (p.table_id, p.user_id): p
        for p in Presence.objects.filter(table__status=TableStatus.OPEN, user__is_bot=False)
    }
    offline = []
    for table_id, user_id, seated_at in seated:
        presence = presences.get((table_id, user_id))
        if presence is None:
            if seated_at < cutoff:
                offline.append((table_id, user_id))
        else:
            # With connections open, the last sign of life is the newest heartbeat; a count left up by a dead
            # process stops being refreshed (PRESENCE_STALE_SECONDS) and then counts as gone since then.
            alive = presence.seen_at or presence.changed_at
            if presence.connections > 0 and alive >= now - timedelta(seconds=PRESENCE_STALE_SECONDS):
                continue
            last = presence.changed_at if presence.connections <= 0 else alive
            if last < cutoff:
                offline.append((table_id, user_id))
    return offline


# --- inside the door ---


def _enter(table_id: int, user, client_id) -> tuple[Table, dict | None]:
    """Inside the caller's transaction: lock the table; a repeated client id gets its stored answer back (never
    applied twice); a closed table refuses."""
    table = _lock(table_id)
    if client_id is not None:
        stored = ClientMessage.objects.filter(table=table, user=user, client_id=client_id).first()
        if stored is not None:
            return table, stored.response
    if not table.is_open:
        raise DoorError("table_closed", f"Table {table_id} is closed.")
    return table, None


def _answer(table: Table, user, client_id) -> dict:
    """The ack of an applied message, stored under its client id in the same transaction."""
    response = {"type": "ack", "id": client_id, "version": table.version}
    if client_id is not None:
        ClientMessage.objects.create(table=table, user=user, client_id=client_id, response=response)
    return response


def _lock(table_id) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except (Table.DoesNotExist, ValueError, TypeError):
        raise DoorError("no_such_table", f"There is no table {table_id!r}.") from None


def _load(table: Table):
    """The table's state, owned by this door call (see `_states`); `table` was read under its row lock."""
    return _states.take(table.pk, table.state)


def _give_back(table: Table, state) -> None:
    """The door read the state and the engine never ran on it: it is still exactly the stored text, kept for the
    next action (whatever this transaction does, it does not write the state)."""
    _states.keep(table.pk, table.state, state)


def _check_client_id(client_id):
    if client_id is None:
        return None
    if not isinstance(client_id, str) or not 1 <= len(client_id) <= CLIENT_ID_MAX:
        raise DoorError("bad_field", f"A message id must be a string of 1 to {CLIENT_ID_MAX} characters.")
    return client_id


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_action(action) -> tuple[str, int | None, int | None, int | None]:
    if not isinstance(action, dict):
        raise DoorError("bad_field", "An action must be a JSON object.")
    kind = action.get("kind")
    if kind not in PLAYER_KINDS:
        raise DoorError("unknown_type", f"Unknown action {kind!r}.")
    amount = action.get("amount")
    if amount is not None:
        if kind not in AMOUNT_ALLOWED:
            raise DoorError("bad_field", f"'{kind}' takes no amount.")
        if not _is_int(amount):
            raise DoorError("bad_field", f"The amount must be a whole number of chips, not {amount!r}.")
        if amount <= 0:
            raise DoorError("out_of_range", f"The amount must be positive, not {amount}.")
    elif kind in AMOUNT_REQUIRED:
        raise DoorError("bad_field", f"'{kind}' needs an amount.")
    card = action.get("card")
    if kind == "open":
        if not _is_int(card):
            raise DoorError("bad_field", f"Say which card to open: 0, 1 or 2, not {card!r}.")
        if not 0 <= card <= 2:
            raise DoorError("out_of_range", f"A hand has cards 0, 1 and 2, not {card}.")
    elif card is not None:
        raise DoorError("bad_field", f"'{kind}' takes no card.")
    seat = action.get("seat")
    if seat is not None:
        if kind != "sit":
            raise DoorError("bad_field", "Only 'sit' names a seat; you always act for your own seat.")
        if not _is_int(seat):
            raise DoorError("bad_field", f"A seat is a number, not {seat!r}.")
    return kind, amount, card, seat


def _sit_action(table, state, user, seat, wanted_seat, amount):
    if seat is not None:
        raise DoorError(
            "already_seated", f"You already sit at seat {seat} of this table (one seat per player)."
        )
    if user.is_bot and not table.bots_allowed:
        raise DoorError("illegal_action", "Bots may not sit at this table.")
    low, high = MIN_BUY_IN_ANTES * table.ante, MAX_STACK_ANTES * table.ante
    if not low <= amount <= high:
        raise DoorError(
            "out_of_range",
            f"The table buy-in is {low} to {high} chips (20 to 100 antes of {table.ante}), not {amount}.",
        )
    free = free_seats(state)
    if wanted_seat is None:
        if not free:
            raise DoorError("seat_taken", "Every seat at this table is taken.")
        wanted_seat = free[0]
    elif not 0 <= wanted_seat < table.seats:
        raise DoorError("out_of_range", f"This table has seats 0 to {table.seats - 1}, not {wanted_seat}.")
    elif wanted_seat not in free:
        raise DoorError("seat_taken", f"Seat {wanted_seat} is taken.")
    # RULES §8: no rake at a table where a bot sits (the engine's seat remembers it), not merely where one may sit.
    return play.Action("sit", seat=wanted_seat, player=str(user.pk), name=user.table_name, amount=amount, bot=user.is_bot)


def _check_add_chips(table, state, seat, amount):
    stack = state.seats[seat].stack
    high = MAX_STACK_ANTES * table.ante
    if stack + amount > high:
        raise DoorError(
            "out_of_range",
            f"A stack may hold at most {high} chips (100 antes); with {stack} you may add up to {max(high - stack, 0)}.",
        )


def _check_turn(state, seat, kind):
    """'Not your turn' is clearer than the engine's general refusal when another seat's clock runs."""
    if kind in MOVE_KINDS and kind != "open":  # a card may be opened at any moment of the deal
        clock = state.clock
        if clock is None or seat not in list(clock.seats):
            legal = {legal.kind for legal in state.legal_moves(seat)}
            if kind not in legal:
                waiting = (
                    f"seat {', '.join(map(str, clock.seats))} is to act" if clock else "nobody is to act"
                )
                raise DoorError("not_your_turn", f"It is not your turn: {waiting}.")


def _rng_for(table: Table):
    """A stacked deck for the next deals when a test queued one (test settings only); else the engine's own."""
    if not settings.SVARA_TEST_DECKS or not table.test_decks:
        return None
    from tables.engine.dealing import StackedDeck

    return _QueuedDecks(StackedDeck.deals(*table.test_decks))


class _QueuedDecks:
    """The queued test decks first (each a list of hands in the order of dealing), then a real shuffle."""

    def __init__(self, stacked):
        self.stacked = stacked
        self.used = 0

    def shuffle(self, cards) -> None:
        if self.stacked.queue:
            self.used += 1
            self.stacked.shuffle(cards)
        else:
            from tables.engine.dealing import default_rng

            default_rng().shuffle(cards)


def _apply(table: Table, state, engine_action, actor) -> list[dict]:
    """Apply one engine action under the table's lock and write everything it moved."""
    before = chips_of(state)
    old_seats = set(before.seats.items())
    # Everybody whose chips this action may move: the seated, and whoever sits down now (one query).
    users = _users_by_id({*before.stacks, *([str(engine_action.player)] if engine_action.player else [])})
    rng = _rng_for(table)
    try:
        events = state.apply(engine_action, rng=rng) if rng is not None else state.apply(engine_action)
    except play.IllegalAction as error:
        raise DoorError("illegal_action", str(error)) from None
    events = [event.to_json() for event in events]  # the door works on the events' JSON (docs/engine.md)
    if rng is not None and rng.used:
        table.test_decks = table.test_decks[rng.used :]
    after = chips_of(state)
    try:
        _move_chips(table, state, engine_action, users, before, after, events)
    except WalletError as error:
        raise DoorError("wallet", str(error)) from None
    _record_deals(table, state, events)
    now = timezone.now()
    _store(table, state, now, engine_action.kind)
    seats_changed = set(after.seats.items()) != old_seats
    if seats_changed:
        _mirror_seats(table, after)
    table_id, version, stored = table.pk, table.version, table.state
    deadline = table.clock_deadline
    # Who of those seated now is a bot: the listeners need it, and the users are loaded already.
    bot_seats = frozenset(seat for player, seat in after.seats.items() if users[player].is_bot)
    transaction.on_commit(
        lambda: _after_commit(table_id, version, stored, events, state, deadline, seats_changed, bot_seats)
    )
    return events


def _store(table: Table, state, now, kind: str) -> None:
    clock = state.clock
    if clock is None:
        table.clock_kind, table.clock_seats, table.clock_deadline = "", [], None
    else:
        seats = sorted(int(s) for s in clock.seats)
        # The same clock still waiting on (some of) the same seats keeps its deadline: opening a card, somebody
        # sitting down, or one of two tied players answering must not restart anybody's time. A timeout always does.
        same = (
            table.clock_deadline is not None
            and table.clock_kind == clock.kind
            and set(seats) <= set(table.clock_seats)
            and kind != "timeout"
        )
        if not same:
            scale = float(getattr(settings, "SVARA_CLOCK_SCALE", 1.0))
            table.clock_deadline = now + timedelta(seconds=clock.seconds * scale)
        table.clock_kind, table.clock_seats = clock.kind, seats
    table.state = state.dumps()
    table.version = state.version
    occupied = bool(chips_of(state).stacks)
    if occupied:
        table.empty_since = None
    elif table.empty_since is None:
        table.empty_since = now
    table.save(
        update_fields=[
            "state",
            "version",
            "clock_kind",
            "clock_seats",
            "clock_deadline",
            "empty_since",
            "test_decks",
        ]
    )


def _deal_no(state):
    return getattr(state, "deal_no", None)


def _move_chips(table: Table, state, engine_action, users, before, after, events) -> None:
    """Follow in the ledger every chip the engine moved: buy-in, add chips, pay in, pay out, rake, cash out."""
    key = f"t{table.pk}:v{state.version}"
    kind = engine_action.kind
    if kind == "sit":
        player = str(engine_action.player)
        user = users[player]
        amount = after.stacks[player]
        if user.is_bot:
            wallet.bot_buy_in(user, table.pk, amount, f"{key}:buy_in:{player}")
        else:
            wallet.buy_in(user, table.pk, amount, ante=table.ante, key=f"{key}:buy_in:{player}")
        return
    if kind == "add_chips":
        player = str(engine_action.player or "") or _player_at(before, engine_action.seat)
        added = after.stacks[player] - before.stacks[player]
        wallet.add_chips(
            users[player],
            table.pk,
            added,
            ante=table.ante,
            stack=before.stacks[player],
            key=f"{key}:add:{player}",
        )
        return

    vacated_stacks = {
        str(event["player"]): int(event.get("stack", 0))
        for event in events
        if event.get("type") == "seat_vacated"
    }
    final = dict(after.stacks)
    for player in before.stacks:
        if player not in after.stacks:
            final[player] = vacated_stacks.get(player, before.stacks[player])
    if sum(final.values()) + after.pot + after.rake_taken != before.total:
        raise RuntimeError(f"table {table.pk}: chips not conserved by {kind} ({before} -> {after}, {events})")

    ins = {p: before.stacks[p] - final[p] for p in before.stacks if final[p] < before.stacks[p]}
    outs = {p: final[p] - before.stacks[p] for p in before.stacks if final[p] > before.stacks[p]}
    for player, amount in sorted(ins.items()):
        wallet.pay_in(users[player], table.pk, amount, key=f"{key}:in:{player}")
    rake = after.rake_taken - before.rake_taken
    if rake:
        wallet.take_rake(table.pk, rake, family=table.family, key=f"{key}:rake")
    for player, amount in sorted(outs.items()):
        wallet.pay_out(users[player], table.pk, amount, key=f"{key}:out:{player}")
    for player in sorted(set(before.stacks) - set(after.stacks)):
        user = users[player]
        if user.is_bot:
            wallet.bot_cash_out(user, table.pk, final[player], f"{key}:cash_out:{player}")
        else:
            wallet.cash_out(user, table.pk, final[player], key=f"{key}:cash_out:{player}")


def _player_at(chips, seat):
    for player, index in chips.seats.items():
        if index == seat:
            return player
    raise DoorError("not_seated", f"Nobody sits at seat {seat}.")


def _users_by_id(players) -> dict:
    ids = [int(p) for p in players]
    return {str(u.pk): u for u in get_user_model().objects.filter(pk__in=ids)}


def _users_of(state) -> dict:
    return _users_by_id(chips_of(state).stacks)


def _mirror_seats(table: Table, after) -> None:
    TableSeat.objects.filter(table=table).exclude(user_id__in=[int(p) for p in after.seats]).delete()
    existing = {str(s.user_id): s for s in TableSeat.objects.filter(table=table)}
    for player, seat in after.seats.items():
        row = existing.get(player)
        if row is None:
            TableSeat.objects.create(table=table, seat=seat, user_id=int(player), stack=after.stacks[player])
        elif row.seat != seat:
            TableSeat.objects.filter(pk=row.pk).update(seat=seat)


def _record_deals(table: Table, state, events) -> None:
    """Hand histories: a Deal opens at `deal_started`, gathers the events, and closes at `deal_ended`."""
    if not events:
        return
    now = timezone.now()
    deal = Deal.objects.filter(table=table, ended_at__isnull=True).order_by("-number").first()
    for event in events:
        kind = event.get("type")
        if kind == "deal_started":
            number = int(
                event.get("deal_no") or _deal_no(state) or (Deal.objects.filter(table=table).count() + 1)
            )
            if Deal.objects.filter(table=table, number=number).exists():
                number = (Deal.objects.filter(table=table).order_by("-number").first().number or 0) + 1
            deal = Deal(table=table, number=number, started_at=now, events=[])  # inserted by its first save
        if deal is None:
            continue
        deal.events.append(event)
        if kind in ("pot_awarded", "split"):  # a split awards the pot too, rake and all (§7, §8)
            deal.pot = max(deal.pot, int(event.get("pot") or 0))
            deal.rake += int(event.get("rake") or 0)
            deal.winners.extend(event.get("winners") or [])
        if kind == "deal_ended":
            deal.ended_at = now
            deal.save()
            deal = None
    if deal is not None:
        deal.save()


# --- after commit ---


def _after_commit(table_id, version, stored, events, state, deadline, seats_changed, bot_seats) -> None:
    _notify_table(table_id, version, events)
    if seats_changed:
        _notify_lobby()
    try:
        table_changed.send(sender=None, table_id=table_id, version=version, state=state, bot_seats=bot_seats)
    except Exception:  # a listener's failure must not undo or block the committed change
        log.exception("a table_changed listener failed for table %s v%s", table_id, version)
    if state.version == version:  # a later action in the same transaction changed it: its own callback keeps it
        _states.keep(table_id, stored, state)
    if deadline is not None:
        from .tasks import schedule_clock

        schedule_clock(table_id, version, deadline)


def _group_send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # at-most-once delivery anyway: clients ask for a snapshot on a version gap
        log.exception("group_send to %s failed", group)


def _notify_table(table_id: int, version: int, events: list[dict]) -> None:
    _group_send(f"table-{table_id}", {"type": "table.changed", "version": version, "events": events})


def _notify_lobby() -> None:
    _group_send(LOBBY_GROUP, {"type": "lobby.changed"})
