"""Betting (RULES §4 classic, §5 bulgarian): what the player to act may do, and doing it.

Amounts are levels: what a seat has put in this deal beyond the ante. `bet_level` is the highest level,
`pending` a bitmask of the seats that still have to act in this round, `cap` the all-in level nobody may pass (D6).
"""

from __future__ import annotations

from .actions import IllegalAction, Legal
from .events import AllIn, Bet, Blind, Call, Check, Dark, Fold, LevelsReturned, Raise
from .rules import MAX_STACK_ANTES
from .seat import ALL_OPENED

_MOVE_PHASES = frozenset(("betting", "blind_round", "dark_round"))
_FOLD = Legal("fold")
_CHECK = Legal("check")
_SHOW_OR_FOLD = (Legal("show"), Legal("fold_hand"))
_SPLIT_OR_PLAY_ON = (Legal("split"), Legal("play_on"))
_NEW_DEAL = Legal("new_deal")
_BACK = Legal("back")
_SIT_OUT = Legal("sit_out")
_STAND = Legal("stand")
# For each `opened` bitmask, the Legal "open" between the first and the last closed card (None: all open).
_OPEN = tuple(
    Legal("open", closed[0], closed[-1]) if closed else None
    for closed in ([k for k in range(3) if not opened >> k & 1] for opened in range(8))
)


class BettingMixin:
    __slots__ = ()

    # ----------------------------------------------------------------- starting a round
    def _begin_betting(self) -> None:
        self.phase = "betting"
        self.bet_level = 0
        self.cap = -1
        self.blind_last = 0
        self.must_open = False
        self.first_move = True
        self.last_caller = self.last_checker = -1
        seats = self.seats
        pending = 0
        for i in self.order:
            if seats[i].all_in:
                # A player with no chips after the ante is all-in at level 0: nobody may bet (D6).
                self.cap = 0
            elif not seats[i].folded:
                pending |= 1 << i
        self.pending = pending
        if pending == 0:
            self._end_betting()
            return
        self.turn = self._next_pending(self.order[-1])

    def _next_pending(self, after: int) -> int:
        order = self.order
        k = order.index(after)
        n = len(order)
        pending = self.pending
        for step in range(1, n + 1):
            i = order[(k + step) % n]
            if pending >> i & 1:
                return i
        raise AssertionError("no seat to act")

    # ----------------------------------------------------------------- what may be done
    def legal_moves(self, seat: int) -> list[Legal]:
        """What the seat may play in the running deal now: open a card, the betting moves, Show/Fold, Split/Play
        on, buy in or decline a svara. `legal_actions` adds the table actions (New deal, sit out, stand...)."""
        if type(seat) is not int or not 0 <= seat < len(self.seats):
            return []
        s = self.seats[seat]
        if s.player is None:
            return []
        phase = self.phase
        if phase == "waiting":
            return []
        legal: list[Legal] = []
        if seat == self.turn:
            if phase in _MOVE_PHASES:
                legal = list(self._move_legals(seat))  # a copy: the remembered list is appended to below
            elif phase == "showdown":
                legal += _SHOW_OR_FOLD
            elif phase == "svara_buy_in" and self._may_buy_in(seat):
                legal += [Legal("buy_in", self.price, self.price), Legal("decline")]
        if phase == "split_choice" and seat in self.tied and s.choice is None:
            legal += _SPLIT_OR_PLAY_ON
        if s.in_deal and not s.folded and s.cards is not None and s.opened != ALL_OPENED:
            legal.append(_OPEN[s.opened])
        return legal

    def legal_actions(self, seat: int) -> list[Legal]:
        """Everything the seat may do now: its `legal_moves` and the table actions."""
        legal = self.legal_moves(seat)
        if type(seat) is not int or not 0 <= seat < len(self.seats):
            return legal
        s = self.seats[seat]
        if s.player is None:
            return legal
        phase = self.phase
        playing = phase != "waiting"
        ante = self.ante
        if phase == "waiting" and (not s.ready or s.sitting_out) and s.stack >= ante:
            legal.append(_NEW_DEAL)
        if s.sitting_out:
            if s.stack >= ante:
                legal.append(_BACK)
        else:
            legal.append(_SIT_OUT)
        if not s.leaving:
            legal.append(_STAND)
            room = MAX_STACK_ANTES * ante - s.stack
            if room > 0 and not (playing and (s.in_deal or seat in self.tied)):
                legal.append(Legal("add_chips", 1, room))
        return legal

    def _owes(self, seat: int) -> int:
        return self.bet_level - self.seats[seat].level

    def _move_legals(self, seat: int) -> list[Legal]:
        # Remembered for the version and seat they were computed at: a caller asks what is legal, then applies one
        # of them, and `_legal_move` checks it against the same list. The state changes only through `apply`,
        # which forgets the list and bumps the version.
        remembered = self._legals
        if remembered is not None and remembered[0] == self.version and remembered[1] == seat:
            return remembered[2]
        legal = self._compute_move_legals(seat)
        self._legals = (self.version, seat, legal)
        return legal

    def _compute_move_legals(self, seat: int) -> list[Legal]:
        s = self.seats[seat]
        top = s.level + s.stack  # the highest level this seat can reach
        level = self.bet_level
        phase = self.phase
        if phase == "blind_round":
            # Exactly twice the last blind-round bet, blind or after looking, or fold; no pot limit (RULES §4).
            target = min(2 * self.blind_last, top)
            return [Legal("blind", target, target), _FOLD]
        if phase == "dark_round":
            target = min(2 * self.blind_last, top)
            legal = [Legal("dark", target, target)] if not s.opened else []
            # Not doubling in the dark ends dark betting; the open bet is at least twice the last dark bet (§5).
            legal += [Legal("bet", target, top), _FOLD]
            return legal
        if self.must_open:
            # Bulgarian, after dark betting: nothing to check or call yet (RULES §5).
            return [Legal("bet", min(2 * self.blind_last, top), top), _FOLD]
        legal = []
        if level == s.level:
            legal.append(_CHECK)
            if level == 0 and self.cap < 0 and top > 0:
                if self.first_move and not s.opened:
                    one = min(self.ante, top)
                    if self.family == "classic":
                        legal.append(Legal("blind", one, one))
                    else:
                        # D7: one ante up to the pot in the dark; in a svara the dark bet is one ante (D12).
                        high = one if self.svara_chain else min(self.pot, top)
                        legal.append(Legal("dark", one, high))
                # D2: a bet is at least one ante and at most the pot at that moment.
                legal.append(Legal("bet", min(self.ante, top), min(self.pot, top)))
            elif level > 0 and self.cap < 0 and top > level:
                legal.append(Legal("raise", min(2 * level, top), top))
        else:
            call = min(level, top)
            legal.append(Legal("call", call, call))
            if self.cap < 0 and top > level:
                # D3: the new level is at least twice the current one; D4: no upper limit but the stack.
                legal.append(Legal("raise", min(2 * level, top), top))
        legal.append(_FOLD)
        return legal

    def _legal_move(self, seat: int, kind: str, amount) -> int | None:
        """The Legal for this move, or IllegalAction with a reason; returns the level to reach (if any)."""
        if seat != self.turn or self.phase not in _MOVE_PHASES:
            if self.phase in _MOVE_PHASES and self.seats[seat].in_deal and not self.seats[seat].folded:
                raise IllegalAction("it is not your turn")
            raise IllegalAction("there is no move for you to make now")
        legals = self._move_legals(seat)
        self._legals = None  # the state is about to change
        for legal in legals:
            if legal.kind == kind:
                break
        else:
            raise IllegalAction(self._why_not(seat, kind, legals))
        if legal.min is None:
            return None
        if amount is None and legal.min == legal.max:
            return legal.min
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise IllegalAction(f"say how much: your level after the {kind}, {legal.min} to {legal.max}")
        if kind in ("call", "blind") or (kind == "dark" and legal.min == legal.max):
            if amount != legal.min:
                raise IllegalAction(f"this {kind} brings your level to exactly {legal.min}")
            return amount
        if amount < legal.min:
            what = {"raise": "a raise must bring your level to", "bet": "a bet is", "dark": "a dark bet is"}[kind]
            raise IllegalAction(f"{what} at least {legal.min}")
        if amount > legal.max:
            s = self.seats[seat]
            if legal.max == s.level + s.stack:
                raise IllegalAction(f"you have {s.stack} chips: your level can reach {legal.max} at most")
            raise IllegalAction(f"a {kind} is at most the pot: {legal.max}")
        return amount

    def _why_not(self, seat: int, kind: str, legals: list[Legal]) -> str:
        may = ", ".join(legal.kind for legal in legals)
        if self.phase == "blind_round":
            return f"in the blind round you double the last blind bet or fold (you may: {may})"
        if self.phase == "dark_round" or self.must_open:
            return f"after a dark bet you bet at least twice it or fold (you may: {may})"
        if kind == "check":
            return f"you cannot check: {self._owes(seat)} to call"
        if kind == "raise" and self.cap >= 0:
            return "nobody raises after an all-in (D6): call or fold"
        if kind in ("blind", "dark"):
            return "only the first player, before looking, can bet blind"
        return f"you cannot {kind} now (you may: {may})"

    # ----------------------------------------------------------------- the moves
    def _do_check(self, action) -> None:
        self._legal_move(action.seat, "check", None)
        self._check(action.seat)

    def _do_fold(self, action) -> None:
        self._legal_move(action.seat, "fold", None)
        self._fold(action.seat)

    def _do_call(self, action) -> None:
        level = self._legal_move(action.seat, "call", action.amount)
        self.last_caller = action.seat
        self._put(action.seat, level, Call)
        self._after_move(action.seat)

    def _do_bet(self, action) -> None:
        level = self._legal_move(action.seat, "bet", action.amount)
        if self.phase == "dark_round" or self.must_open:
            self.phase = "betting"  # the first open bet after dark betting (RULES §5)
            self.must_open = False
        self._put(action.seat, level, Bet)
        self._after_move(action.seat)

    def _do_raise(self, action) -> None:
        level = self._legal_move(action.seat, "raise", action.amount)
        self._put(action.seat, level, Raise)
        self._after_move(action.seat)

    def _do_blind(self, action) -> None:
        seat = action.seat
        level = self._legal_move(seat, "blind", action.amount)
        s = self.seats[seat]
        if self.phase == "blind_round" and s.opened:
            # He looked and bets the double: the blind round is over, normal betting follows (RULES §4).
            self.phase = "betting"
            self.blind_last = level
            self._put(seat, level, Blind, True)
        else:
            self.phase = "blind_round"
            self.blind_last = level
            s.blind = True
            self._put(seat, level, Blind)
        self._after_move(seat)

    def _do_dark(self, action) -> None:
        seat = action.seat
        level = self._legal_move(seat, "dark", action.amount)
        self.phase = "dark_round"
        self.blind_last = level
        self.seats[seat].blind = True
        self._put(seat, level, Dark)
        self._after_move(seat)

    def _check(self, seat: int) -> None:
        self.pending &= ~(1 << seat)
        self.last_checker = seat
        self.first_move = False
        self._events.append(Check(seat))
        self._after_move(seat)

    def _fold(self, seat: int) -> None:
        self.seats[seat].folded = True
        self.pending &= ~(1 << seat)
        self.first_move = False
        if self.phase == "dark_round":
            # He did not double in the dark: dark betting is over for everyone (RULES §5).
            self.phase = "betting"
            self.must_open = True
        self._events.append(Fold(seat))
        self._after_move(seat)

    def _put(self, seat: int, level: int, event, *extra) -> None:
        """Bring the seat's level to `level` (chips from stack to pot) and settle what that means for the round."""
        seats = self.seats
        s = seats[seat]
        added = level - s.level
        s.stack -= added
        self.pot += added
        s.level = level
        if added:
            self.antes_only = False
        self.first_move = False
        bit = 1 << seat
        self.pending &= ~bit
        self._events.append(event(seat, level, added, s.stack, self.pot, *extra))
        if s.stack == 0:
            s.all_in = True
            self._events.append(AllIn(seat, level))
        if level > self.bet_level:
            self.bet_level = level
            pending = 0
            for i in self.order:
                o = seats[i]
                if i != seat and not o.folded and not o.all_in:
                    pending |= 1 << i
            self.pending = pending
            if s.all_in:
                self.cap = level  # nobody raises after an all-in (D6)
        elif level < self.bet_level:
            # A short all-in: every level above it goes back to its owner at once, and it becomes the top (D6).
            returned = {}
            for i in self.order:
                o = seats[i]
                if o.level > level:
                    back = o.level - level
                    o.level = level
                    o.stack += back
                    self.pot -= back
                    o.all_in = False
                    returned[i] = back
            self.bet_level = level
            self.cap = level
            self._events.append(LevelsReturned(level, returned, self.pot))
        elif s.all_in and self.cap < 0:
            self.cap = level
        if self.cap >= 0 and self.phase != "betting":
            self.phase = "betting"  # an all-in ends the blind / dark round: the others call it or fold
        if self.cap >= 0:
            self.must_open = False

    def _after_move(self, seat: int) -> None:
        seats = self.seats
        alive = [i for i in self.order if not seats[i].folded]
        if len(alive) == 1:
            self._award_alone(alive[0])
            return
        if self.pending == 0:
            self._end_betting()
            return
        nxt = self._next_pending(seat)
        self.turn = nxt
        s = seats[nxt]
        if self.phase == "betting" and s.blind and s.opened != ALL_OPENED:
            # D5: in normal betting a blind (dark) player's cards are opened for him when his turn comes.
            for k in range(3):
                if not s.opened >> k & 1:
                    self._open(nxt, k)

    def _end_betting(self) -> None:
        if self.family == "bulgarian" and self.bet_level == 0 and self.blind_last == 0:
            # D17: no dark bet and everyone checked: the dealer takes the pot, no showdown; if he folded, the
            # last player to check does.
            seats = self.seats
            if not seats[self.dealer].folded:
                winner = self.dealer
            elif self.last_checker >= 0 and not seats[self.last_checker].folded:
                winner = self.last_checker
            else:
                winner = [i for i in self.order if not seats[i].folded][-1]
            self._award_alone(winner, reason="all checked (D17)")
            return
        self._begin_showdown()
