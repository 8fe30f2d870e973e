"""A table's play (RULES.md §3–§10) as a pure state machine: `TableState.apply(Action)`.

The state changes in place and only through `apply`; an illegal action raises `IllegalAction` before anything
is touched (every handler validates first, then mutates). Every applied action bumps `version` and returns event
records. Betting lives in betting.py, the showdown, splits and svaras in showdown.py, what a seat sees in views.py.
"""

from __future__ import annotations

import orjson

from . import storage
from .actions import KINDS, STANDING_CHOICES, Action, Clock, IllegalAction, Legal
from .betting import BettingMixin
from .cards import ALL_CARDS, FAMILIES
from .dealing import deck_indexes
from .events import (
    Ante,
    Back,
    CardOpened,
    ChipsAdded,
    DealEnded,
    DealStarted,
    Declined,
    Event,
    Opened,
    Ready,
    SatOut,
    Seated,
    SeatVacated,
    SplitChosen,
    Stood,
    Timeout,
)
from .fair import FairDeck, FairRecord, FairShuffle, SeedError, check_player_seed, new_server_seed
from .rules import CLOCK_SECONDS, MAX_SEATS, MAX_STACK_ANTES, MIN_BUY_IN_ANTES, MIN_SEATS
from .seat import Seat
from .showdown import ShowdownMixin, result_of
from .views import view_of

__all__ = ["Action", "Clock", "IllegalAction", "Legal", "TableState", "MAX_SEATS"]

_DEAL_PHASES = frozenset(("betting", "blind_round", "dark_round", "showdown", "split_choice", "svara_buy_in"))
_dumps = orjson.dumps
_loads = orjson.loads


class TableState(BettingMixin, ShowdownMixin):
    # Every stored field (storage.STATE_KEYS, "seats" and "result" among them), and what lives only during `apply`.
    __slots__ = tuple(key for key in storage.STATE_KEYS if key != "format") + ("_rng", "_events", "_legals")

    # ----------------------------------------------------------------- creation and storage
    @classmethod
    def new(cls, family: str, ante: int, seats: int) -> TableState:
        if family not in FAMILIES:
            raise ValueError(f"no such family: {family!r} (one of {', '.join(FAMILIES)})")
        if not isinstance(ante, int) or isinstance(ante, bool) or ante < 1:
            raise ValueError("the ante is a whole number of chips, at least 1")
        if not isinstance(seats, int) or not MIN_SEATS <= seats <= MAX_SEATS[family]:
            raise ValueError(f"a {family} table has {MIN_SEATS} to {MAX_SEATS[family]} seats")
        state = cls.__new__(cls)
        state.family = family
        state.ante = ante
        state.version = 0
        state.seats = [Seat() for _ in range(seats)]
        state.pot = 0
        state.rake_taken = 0
        state.button = -1  # the table's dealer button: the dealer of the last plain deal (D14)
        state.deal_no = 0
        state.result = None
        state.server_seed = new_server_seed()  # the first deal's, committed to in every view (docs/fair.md)
        state.fair = None
        state._legals = None
        state._reset_deal()
        state.phase = "waiting"
        return state

    def _reset_deal(self) -> None:
        self.dealer = -1  # the running deal's dealer (a svara's own dealer during a svara)
        self.phase = "waiting"
        self.turn = -1
        self.order = []  # seats in the deal, in the order of play: the one after the dealer first
        self.bet_level = 0  # the highest level
        self.cap = -1  # after an all-in: the level nobody may pass (D6), else -1
        self.blind_last = 0  # the last blind (classic) or dark (bulgarian) level in this deal, 0 if none
        self.must_open = False  # bulgarian: dark betting over, the next bet must be ≥ twice the last dark bet
        self.first_move = True  # nobody has moved yet: the blind round / dark bet can still start
        self.pending = 0  # bitmask of seats that still have to act in this betting round
        self.last_caller = -1
        self.last_checker = -1
        self.antes_only = True  # nothing but antes went into the pot (no rake, RULES §8)
        self.show_queue = []
        self.best = None
        self.tied = []
        self.svara_chain = 0
        self.price = 0
        self.svara_pot = 0
        self.svara_dealer = -1
        self.offers = []
        self.buyers = []

    def dumps(self) -> str:
        """The whole state as the server stores it, after every action: one JSON object of format 5 with named
        fields, written by orjson (storage.py, docs/engine.md "Storage"). `TableState.loads` reads it back."""
        return storage.dumps(self)

    @classmethod
    def loads(cls, text: str | bytes) -> TableState:
        """The state `dumps` wrote; built field by field without re-validating (it runs before every action).
        Anything else raises ValueError."""
        return storage.loads(cls, text)

    def to_json(self) -> dict:
        """The stored form as JSON values (a fresh copy: changing the state later does not change it)."""
        return _loads(self.dumps())

    @classmethod
    def from_json(cls, data: dict) -> TableState:
        """The state of `to_json`'s values (copied: the state shares no list with `data`)."""
        try:
            text = _dumps(data)
        except TypeError as error:
            raise ValueError(f"not a stored table state: {error}") from None
        return storage.build(cls, _loads(text))

    @property
    def has_bot(self) -> bool:
        """A bot holds a seat (RULES §8: no rake at a table with a bot). A bot that stands up mid-deal keeps his
        seat, and so counts, until the deal's end vacates it."""
        return any(s.bot for s in self.seats)

    @property
    def last_result(self) -> dict | None:
        """The last award, until the next deal starts (stored compactly in `result`, see showdown.py)."""
        return result_of(self) if self.result is not None else None

    def __eq__(self, other) -> bool:
        return isinstance(other, TableState) and self.to_json() == other.to_json()

    __hash__ = None

    # ----------------------------------------------------------------- what is waited for
    @property
    def clock(self) -> Clock | None:
        phase = self.phase
        if phase in ("betting", "blind_round", "dark_round"):
            return Clock("move", [self.turn], CLOCK_SECONDS["move"])
        if phase == "showdown":
            return Clock("show", [self.turn], CLOCK_SECONDS["show"])
        if phase == "split_choice":
            return Clock("split", [s for s in self.tied if self.seats[s].choice is None], CLOCK_SECONDS["split"])
        if phase == "svara_buy_in":
            return Clock("svara_buy_in", [self.turn], CLOCK_SECONDS["svara_buy_in"])
        # Between deals: the seats that have not pressed New deal, once a deal is possible.
        active = self._active_seats()
        unready = [i for i in active if not self.seats[i].ready]
        if (len(active) >= 2 and unready and (self.deal_no > 0 or len(unready) < len(active))
                and self._a_person_among(active)):
            return Clock("new_deal", unready, CLOCK_SECONDS["new_deal"])
        return None

    def _active_seats(self) -> list[int]:
        """Seats that would play a deal: seated, not sitting out, at least one ante (RULES §3)."""
        ante = self.ante
        return [i for i, s in enumerate(self.seats) if s.player is not None and not s.sitting_out and s.stack >= ante]

    def _a_person_among(self, seats: list[int]) -> bool:
        """The platform's bots never deal among themselves (docs/bots.md): a deal, and the New deal clock before
        it, needs a person who plays."""
        return any(not self.seats[i].bot for i in seats)

    @property
    def in_deal(self) -> bool:
        return self.phase in _DEAL_PHASES

    def view(self, seat: int | None = None) -> dict:
        return view_of(self, seat)

    # ----------------------------------------------------------------- applying an action
    def apply(self, action: Action, rng=None) -> list[Event]:
        if type(action) is not Action:
            if isinstance(action, dict):
                action = Action.from_dict(action)
            elif not isinstance(action, Action):
                raise IllegalAction("not an action")
        kind = action.kind
        handler = _HANDLERS.get(kind) if type(kind) is str else None
        if handler is None:
            raise IllegalAction(f"unknown action: {kind!r}")
        seat = action.seat
        if kind != "timeout":
            # type() rather than isinstance: True is an int subclass and no seat.
            if type(seat) is not int or not 0 <= seat < len(self.seats):
                raise IllegalAction(f"no such seat: {seat!r}")
            if kind != "sit" and self.seats[seat].player is None:
                raise IllegalAction("that seat is empty")
        elif seat is not None:
            raise IllegalAction("a timeout belongs to the table's clock, not to a seat")
        self._rng = rng
        self._events = events = []
        try:
            handler(self, action)  # validates everything first, then changes
        finally:
            self._rng = self._events = self._legals = None
        self.version += 1
        return events

    # ----------------------------------------------------------------- seats and chips (RULES §10)
    def _do_sit(self, action: Action) -> None:
        seat, player, amount = action.seat, action.player, action.amount
        if self.seats[seat].player is not None:
            raise IllegalAction("that seat is taken")
        if not isinstance(player, str) or not player:
            raise IllegalAction("a player id is needed to sit")
        if any(s.player == player for s in self.seats):
            raise IllegalAction("you already sit at this table")
        name = action.name if action.name is not None else player
        if type(action.bot) is not bool:
            raise IllegalAction("whether the player is a bot is true or false")
        if not isinstance(name, str) or not name.strip():
            raise IllegalAction("a name is needed to sit")
        low, high = MIN_BUY_IN_ANTES * self.ante, MAX_STACK_ANTES * self.ante
        if not _is_int(amount) or not low <= amount <= high:
            raise IllegalAction(
                f"sitting down costs {low} to {high} chips ({MIN_BUY_IN_ANTES} to {MAX_STACK_ANTES} antes)")
        s = self.seats[seat]
        s.player, s.name, s.stack, s.bot = player, name, amount, action.bot
        s.sitting_out = s.ready = s.leaving = s.deal_me_in = False
        s.if_losing = s.on_tie = None
        s.clear_deal()
        self._events.append(Seated(seat, player, name, amount))

    def _do_stand(self, action: Action) -> None:
        seat = action.seat
        s = self.seats[seat]
        if s.leaving:
            raise IllegalAction("you are already leaving: the seat frees when this deal is over")
        if self.in_deal and (s.in_deal or seat in self.buyers):
            # RULES §10: leaving mid-deal folds at once; the seat and chips wait for the deal's end.
            s.leaving = True
            self._events.append(Stood(seat, s.player, True))
            self._leave_deal(seat)
            return
        self._events.append(Stood(seat, s.player, False))
        was_offered = self.phase == "svara_buy_in" and self.turn == seat
        self._vacate(seat)
        if was_offered:
            self._next_offer()
        elif self.phase == "waiting":
            self._maybe_start()

    def _vacate(self, seat: int) -> None:
        s = self.seats[seat]
        self._events.append(SeatVacated(seat, s.player, s.stack))
        self.seats[seat] = Seat()

    def _do_add_chips(self, action: Action) -> None:
        seat, amount = action.seat, action.amount
        s = self.seats[seat]
        if self.in_deal and (s.in_deal or seat in self.tied):
            raise IllegalAction("chips can be added between deals only (D15)")
        if s.leaving:
            raise IllegalAction("you are leaving this table")
        room = MAX_STACK_ANTES * self.ante - s.stack
        if not _is_int(amount) or amount < 1:
            raise IllegalAction("add a whole number of chips, at least 1")
        if amount > room:
            raise IllegalAction(f"a stack may hold at most {MAX_STACK_ANTES} antes ({MAX_STACK_ANTES * self.ante}); "
                                f"you may add {max(room, 0)}")
        s.stack += amount
        self._events.append(ChipsAdded(seat, s.player, amount, s.stack))

    def _do_sit_out(self, action: Action) -> None:
        s = self.seats[action.seat]
        if s.sitting_out:
            raise IllegalAction("you are already sitting out")
        s.sitting_out = True  # mid-deal it takes effect from the next deal; the running deal goes on
        s.ready = False
        self._events.append(SatOut(action.seat))
        if self.phase == "waiting":
            self._maybe_start()

    def _do_back(self, action: Action) -> None:
        s = self.seats[action.seat]
        if not s.sitting_out:
            raise IllegalAction("you are not sitting out")
        if s.stack < self.ante:
            raise IllegalAction("you have less than one ante: add chips to come back (D16)")
        seed = _seed_of(action)
        s.sitting_out = False
        s.ready = True
        if seed is not None:
            s.seed = seed
        self._events.append(Back(action.seat))
        if self.phase == "waiting":
            self._maybe_start()

    def _do_new_deal(self, action: Action) -> None:
        if self.phase != "waiting":
            raise IllegalAction("a deal is being played")
        s = self.seats[action.seat]
        if s.ready and not s.sitting_out:
            raise IllegalAction("you are ready already")
        if s.stack < self.ante:
            raise IllegalAction("you have less than one ante: add chips first (D16)")
        seed = _seed_of(action)
        s.sitting_out = False  # pressing New deal is coming back too
        s.ready = True
        if seed is not None:
            s.seed = seed
        self._events.append(Ready(action.seat))
        self._maybe_start()

    # ----------------------------------------------------------------- standing choices
    def _do_standing(self, action: Action) -> None:
        """Set one of the seat's standing choices; it answers for him from the next prompt it fits (the door plays
        `standing_answer` after every action). Nobody else is told: a choice is his own business."""
        s = self.seats[action.seat]
        if s.leaving:
            raise IllegalAction("you are leaving this table")
        what = STANDING_CHOICES.get(action.choice) if type(action.choice) is str else None
        if what is None:
            raise IllegalAction(f"no such standing choice: {action.choice!r} (one of {', '.join(STANDING_CHOICES)})")
        if action.seed is not None and action.choice != "deal_me_in":
            raise IllegalAction("only deal_me_in carries a seed (the one New deal pressed for you will use)")
        seed = _seed_of(action)
        setattr(s, *what)
        if seed is not None:
            s.seed = seed

    def standing_answer(self) -> Action | None:
        """The action a standing choice gives now, inside the rules (RULES §6, §7, §10), or None: New deal for a
        seat with "deal me in" (not one sitting out: that was his own choice, or the clock's), Show or Fold for
        the seat asked at the showdown, Split or Play on for a tied seat yet to choose."""
        phase = self.phase
        seats = self.seats
        if phase == "waiting":
            ante = self.ante
            for i, s in enumerate(seats):
                if s.player is not None and s.deal_me_in and not s.ready and not s.sitting_out and not s.leaving \
                        and s.stack >= ante:
                    return Action("new_deal", seat=i)
        elif phase == "showdown":
            turn = self.turn
            if turn >= 0 and seats[turn].if_losing is not None:
                return Action("show" if seats[turn].if_losing == "show" else "fold_hand", seat=turn)
        elif phase == "split_choice":
            for i in self.tied:
                if seats[i].choice is None and seats[i].on_tie is not None:
                    return Action(seats[i].on_tie, seat=i)
        return None

    def _maybe_start(self) -> None:
        # One pass that stops at the first active seat not ready (most presses of New deal end there).
        ante = self.ante
        active = []
        for i, s in enumerate(self.seats):
            if s.player is not None and not s.sitting_out and s.stack >= ante:
                if not s.ready:
                    return
                active.append(i)
        if len(active) >= 2 and self._a_person_among(active):
            self._start_deal(active)

    # ----------------------------------------------------------------- a deal (RULES §3)
    def _start_deal(self, active: list[int]) -> None:
        n = len(self.seats)
        # The dealer moves one seat clockwise every deal (to the next seat that plays).
        dealer = next(i % n for i in range(self.button + 1, self.button + 1 + n) if i % n in active)
        self._reset_deal()
        self.button = self.dealer = dealer
        self.deal_no += 1
        self.result = None  # every seat's deal fields were cleared when it sat down or the last deal ended
        self.order = order = [i % n for i in range(dealer + 1, dealer + 1 + n) if i % n in active]
        ante = self.ante
        for i in order:
            s = self.seats[i]
            s.in_deal = True
            s.stack -= ante
            s.all_in = s.stack == 0
            self.pot += ante
        # The seeds of those dealt in, in seat order, are used up by this deal and its svaras (docs/fair.md).
        seeds = []
        for i in sorted(order):
            s = self.seats[i]
            if s.seed is not None:
                seeds.append((i, s.seed))
                s.seed = None
        self.fair = FairRecord(self.deal_no, self.server_seed, seeds, [])
        seats = tuple(order)
        names = tuple(self.seats[i].name for i in order)
        self._events += (DealStarted(self.deal_no, dealer, seats, names), Ante(seats, ante, self.pot))
        self._deal_cards()
        self._begin_betting()

    def _deal_cards(self) -> None:
        """Shuffle with the fair rng (docs/fair.md), or with a test's rng when one stacks this deck; the cards each
        seat got are kept in the deal's fairness record."""
        cards = deck_indexes(self.family)
        rng = self._rng
        record = self.fair
        stacked = rng is not None and getattr(rng, "stacks_next", True)
        if stacked:
            rng.shuffle(cards)
        else:
            FairShuffle(self.server_seed, self.family, self.deal_no, self.svara_chain, record.seeds).shuffle(cards)
        dealt = []
        for k, i in enumerate(self.order):
            self.seats[i].cards = hand = cards[3 * k: 3 * k + 3]
            dealt.append((i, list(hand)))
        record.decks.append(FairDeck(self.svara_chain, stacked, dealt))

    def _do_open(self, action: Action) -> None:
        seat, card = action.seat, action.card
        s = self.seats[seat]
        if not self.in_deal or not s.in_deal or s.cards is None:
            raise IllegalAction("you have no cards")
        if s.folded:
            raise IllegalAction("you have folded")
        if not _is_int(card) or not 0 <= card <= 2:
            raise IllegalAction("choose a card to open: 0, 1 or 2")
        if s.opened >> card & 1:
            raise IllegalAction("that card is open already")
        self._open(seat, card)

    def _open(self, seat: int, card: int) -> None:
        s = self.seats[seat]
        s.opened |= 1 << card
        self._events += (CardOpened(seat, card, str(ALL_CARDS[s.cards[card]])), Opened(seat, s.opened.bit_count()))

    def _end_deal(self) -> None:
        """The deal (with its svaras) is over: free the seats of those who left, sit out the short (D16). Its server
        seed may now be revealed (the record stays until the next deal); the next deal's is drawn."""
        self._events.append(DealEnded(self.deal_no))
        self.server_seed = new_server_seed()
        for i, s in enumerate(self.seats):
            if s.player is None:
                continue
            s.clear_deal()
            s.ready = False
            if s.leaving:
                self._vacate(i)
            elif s.stack < self.ante and not s.sitting_out:
                s.sitting_out = True
                self._events.append(SatOut(i, "less than one ante (D16)"))
        self._reset_deal()

    # ----------------------------------------------------------------- the clock ran out (RULES §9)
    def _do_timeout(self, action: Action) -> None:
        clock = self.clock
        if clock is None:
            raise IllegalAction("no clock is running")
        self._events.append(Timeout(clock.kind, tuple(clock.seats)))
        kind = clock.kind
        if kind == "move":
            seat = self.turn
            if self.phase == "betting" and not self.must_open and self._owes(seat) == 0:
                self._check(seat)
            else:
                self._fold(seat)
        elif kind == "show":
            self._fold_hand(self.turn)
        elif kind == "split":
            for i in clock.seats:
                self.seats[i].choice = "split"
                self._events.append(SplitChosen(i))
            self._resolve_split_choice()
        elif kind == "svara_buy_in":
            self._events.append(Declined(self.turn))
            self._next_offer()
        else:  # new_deal: those who did not press sit out
            for i in clock.seats:
                self.seats[i].sitting_out = True
                self._events.append(SatOut(i, "no New deal in time"))
            self._maybe_start()


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _seed_of(action: Action) -> str | None:
    if action.seed is None:
        return None
    try:
        return check_player_seed(action.seed)
    except SeedError as error:
        raise IllegalAction(str(error)) from None


# What `apply` calls for each kind of action: TableState._do_<kind>.
_HANDLERS = {kind: getattr(TableState, "_do_" + kind) for kind in KINDS}
