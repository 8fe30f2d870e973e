"""The showdown (RULES §6), ties, splits and svaras (§7), the rake (§8), and leaving mid-deal (§10)."""

from __future__ import annotations

from .actions import IllegalAction
from .cards import ALL_CARDS
from .events import (
    BuyIn,
    Declined,
    Fold,
    FoldedUnseen,
    PlayOnChosen,
    PotAwarded,
    ShowdownShown,
    Split,
    SplitChosen,
    Svara,
    SvaraDealt,
    Winner,
)
from .points import Points, points_table
from .rules import MAX_SVARAS, RAKE_MAX_ANTES, RAKE_PERCENT, SVARA_BUY_IN_POTS_LEFT
from .seat import ALL_OPENED

_POINTS = {family: dict(points_table(family)) for family in ("classic", "bulgarian")}
_UNSHOWN = Points(None, None)  # a winner whose hand was not shown: no points, no name


# The last result is kept flat (it rides along every stored state between deals): deal_no, kind code, rake, pot,
# reason code, the number of winners, then seat and amount for each, the number of shown hands, then seat and the
# three card indexes packed 6 bits each for each, and last the winners' players (the only strings).
_KINDS = ("win", "split")
_REASONS = ("all others folded", "best hand", "split", "all checked (D17)")


def result_of(state) -> dict:
    """The readable form of the stored last result: winners with their points when shown, and the shown hands."""
    result = state.result
    deal_no, kind, rake, pot, reason, n = result[:6]
    k = 6 + 2 * n
    paid = result[6:k]
    shown = result[k + 1: k + 1 + 2 * result[k]]
    players = result[-n:]
    table = _POINTS[state.family]
    hands = {}
    for seat, packed in zip(shown[0::2], shown[1::2], strict=True):
        a, b, c = packed & 63, packed >> 6 & 63, packed >> 12 & 63
        points = table[(1 << a) | (1 << b) | (1 << c)]
        hands[seat] = {"seat": seat, "cards": [str(ALL_CARDS[a]), str(ALL_CARDS[b]), str(ALL_CARDS[c])],
                       "points": points.points, "hand_name": points.name}
    winners = [
        {"seat": seat, "player": player, "amount": amount,
         "points": hands[seat]["points"] if seat in hands else None,
         "hand_name": hands[seat]["hand_name"] if seat in hands else None}
        for seat, amount, player in zip(paid[0::2], paid[1::2], players, strict=True)
    ]
    return {"deal_no": deal_no, "kind": _KINDS[kind], "winners": winners, "rake": rake, "pot": pot,
            "reason": _REASONS[reason], "shown": list(hands.values())}


class ShowdownMixin:
    __slots__ = ()

    def _points(self, seat: int):
        a, b, c = self.seats[seat].cards
        return _POINTS[self.family][(1 << a) | (1 << b) | (1 << c)]

    # ----------------------------------------------------------------- the showdown (§6)
    def _begin_showdown(self) -> None:
        seats = self.seats
        alive = [i for i in self.order if not seats[i].folded]
        # The last caller shows first; when everyone checked, the first player after the dealer (D8).
        first = self.last_caller if self.last_caller in alive else alive[0]
        k = alive.index(first)
        self.show_queue = alive[k:] + alive[:k]
        self.best = None
        self.phase = "showdown"
        self.pending = 0
        self._continue_showdown()

    def _continue_showdown(self) -> None:
        queue = self.show_queue
        while queue:
            seat = queue[0]
            points = self._points(seat).points
            if self.best is None or points >= self.best:
                # D9: a hand that beats or equals the best shown so far opens by itself.
                queue.pop(0)
                self._show(seat)
            else:
                self.turn = seat  # a weaker hand: Show or Fold, 3 seconds
                return
        self.turn = -1
        self._resolve_showdown()

    def _show(self, seat: int) -> None:
        s = self.seats[seat]
        s.shown = True
        s.opened = ALL_OPENED
        points = self._points(seat)
        if self.best is None or points.points > self.best:
            self.best = points.points
        a, b, c = s.cards
        self._events.append(ShowdownShown(seat, (str(ALL_CARDS[a]), str(ALL_CARDS[b]), str(ALL_CARDS[c])),
                                          points.points, points.name))

    def _showdown_turn(self, seat: int) -> None:
        if self.phase != "showdown" or seat != self.turn:
            raise IllegalAction("there is nothing for you to show now")

    def _do_show(self, action) -> None:
        self._showdown_turn(action.seat)
        self.show_queue.pop(0)
        self._show(action.seat)
        self._continue_showdown()

    def _do_fold_hand(self, action) -> None:
        self._showdown_turn(action.seat)
        self._fold_hand(action.seat)

    def _fold_hand(self, seat: int) -> None:
        self.show_queue.remove(seat)
        s = self.seats[seat]
        s.folded = True
        s.unseen = True  # folded unseen: nobody else ever learns these cards
        self._events.append(FoldedUnseen(seat))
        self._continue_showdown()

    def _resolve_showdown(self) -> None:
        seats = self.seats
        shown = [i for i in self.order if seats[i].shown and not seats[i].folded]
        best = max(self._points(i).points for i in shown)
        tied = [i for i in shown if self._points(i).points == best]  # clockwise from the dealer
        if len(tied) == 1:
            self._award(tied[0])
        elif self.svara_chain:
            # D13: a tie in a svara is another svara at once; after 10 in a row, the pot is split.
            if self.svara_chain >= MAX_SVARAS:
                self._split(tied)
            else:
                self._svara(tied)
        elif len(tied) == 2:
            if any(seats[i].leaving for i in tied):
                self._split(tied)
            else:
                self.phase = "split_choice"
                self.tied = tied
                self.turn = -1
        else:
            self._svara(tied)

    # ----------------------------------------------------------------- split or play on (§7)
    def _choice_turn(self, seat: int) -> None:
        if self.phase != "split_choice" or seat not in self.tied:
            raise IllegalAction("there is no split to choose now")
        if self.seats[seat].choice is not None:
            raise IllegalAction("you have chosen already")

    def _do_split(self, action) -> None:
        self._choice_turn(action.seat)
        self.seats[action.seat].choice = "split"
        self._events.append(SplitChosen(action.seat))
        if all(self.seats[i].choice == "split" for i in self.tied):
            self._resolve_split_choice()

    def _do_play_on(self, action) -> None:
        self._choice_turn(action.seat)
        self.seats[action.seat].choice = "play_on"
        self._events.append(PlayOnChosen(action.seat))
        self._resolve_split_choice()  # one who wants to play on is enough

    def _resolve_split_choice(self) -> None:
        tied = list(self.tied)
        if any(self.seats[i].choice == "play_on" for i in tied):
            self._svara(tied)
        else:
            self._split(tied)

    # ----------------------------------------------------------------- the pot goes out (§6, §7, §8)
    def _rake(self) -> int:
        # No rake at a bot's table, nor when the pot holds only antes (everyone checked, RULES §8).
        if self.has_bot or self.antes_only:
            return 0
        return min(self.pot * RAKE_PERCENT // 100, RAKE_MAX_ANTES * self.ante)

    def _award_alone(self, seat: int, reason: str = "all others folded") -> None:
        self._pay_out([seat], "win", reason)

    def _award(self, seat: int) -> None:
        self._pay_out([seat], "win", "best hand")

    def _split(self, tied: list[int]) -> None:
        self._pay_out(tied, "split", "split")

    def _pay_out(self, winners: list[int], kind: str, reason: str) -> None:
        seats = self.seats
        pot = self.pot
        rake = self._rake()
        self.rake_taken += rake
        amount = pot - rake
        n = len(self.seats)
        dealer = self.dealer
        # D10: the odd chip goes to the first tied player clockwise from the dealer.
        winners = sorted(winners, key=lambda i: (i - dealer - 1) % n)
        share, odd = divmod(amount, len(winners))
        paid = []  # seat, amount for each winner
        shares = []
        for k, i in enumerate(winners):
            got = share + (1 if k < odd else 0)
            s = seats[i]
            s.stack += got
            paid += (i, got)
            points = self._points(i) if s.shown else _UNSHOWN
            shares.append(Winner(i, s.player, got, points.points, points.name))
        self.pot = 0
        shown = []  # seat, packed card indexes for each shown hand, in the order they were shown (§6, D8)
        order = self.order
        first = self.last_caller
        if first in order and seats[first].shown:  # the last caller showed first; else the order of play did
            k = order.index(first)
            order = order[k:] + order[:k]
        for i in order:
            s = seats[i]
            if s.shown:
                a, b, c = s.cards
                shown += (i, a | b << 6 | c << 12)
        self.result = [self.deal_no, _KINDS.index(kind), rake, pot, _REASONS.index(reason), len(winners), *paid,
                       len(shown) // 2, *shown, *(seats[i].player for i in winners)]
        self._events.append((PotAwarded if kind == "win" else Split)(tuple(shares), rake, pot, reason))
        self._end_deal()

    # ----------------------------------------------------------------- svara (§7)
    def _svara(self, tied: list[int]) -> None:
        n = len(self.seats)
        dealer = self.dealer
        self.svara_chain += 1
        tied = sorted(tied, key=lambda i: (i - dealer - 1) % n)
        # The svara's dealer is the last of the tied players clockwise from the deal's dealer.
        self.svara_dealer = tied[-1]
        self.tied = tied
        self.svara_pot = self.pot
        self.price = -(-self.pot // len(tied))  # D11: rounded up
        self.buyers = []
        self.offers = [(self.svara_dealer + k) % n for k in range(1, n)]
        self.offers = [i for i in self.offers if i not in tied]
        self._events.append(Svara(tuple(tied), self.pot, self.svara_chain, self.price, self.svara_dealer))
        self.phase = "svara_buy_in"
        self._next_offer()

    def _may_buy_in(self, seat: int) -> bool:
        s = self.seats[seat]
        if s.player is None or s.sitting_out or s.leaving or seat in self.tied or seat in self.buyers:
            return False
        if self.family == "classic":
            # D11: more than two such pots must remain in his stack after paying.
            return s.stack - self.price > SVARA_BUY_IN_POTS_LEFT * self.svara_pot
        return s.stack >= self.price

    def _next_offer(self) -> None:
        while self.offers:
            seat = self.offers.pop(0)
            if self._may_buy_in(seat):
                self.turn = seat  # offered clockwise from the svara's dealer, 10 seconds each
                return
        self.turn = -1
        self._deal_svara()

    def _offer_turn(self, seat: int) -> None:
        if self.phase != "svara_buy_in" or seat != self.turn:
            raise IllegalAction("no svara buy-in is offered to you now")

    def _do_buy_in(self, action) -> None:
        seat = action.seat
        self._offer_turn(seat)
        if not self._may_buy_in(seat):
            raise IllegalAction(f"you cannot buy in: the price is {self.price}")
        s = self.seats[seat]
        s.stack -= self.price
        self.pot += self.price
        self.antes_only = False
        self.buyers.append(seat)
        self._events.append(BuyIn(seat, self.price, s.stack, self.pot))
        self._next_offer()

    def _do_decline(self, action) -> None:
        self._offer_turn(action.seat)
        self._events.append(Declined(action.seat))
        self._next_offer()

    def _deal_svara(self) -> None:
        seats = self.seats
        n = len(seats)
        tied = self.tied
        joined = set(i for i in tied if not seats[i].folded) | set(self.buyers)
        if not joined:
            self._split(tied)  # everyone in it left: the pot is split as for two tied with one gone (§7)
            return
        dealer = self.svara_dealer
        self.dealer = dealer
        self.order = order = [(dealer + k) % n for k in range(1, n + 1) if (dealer + k) % n in joined]
        for i, s in enumerate(seats):
            if s.player is not None:
                s.clear_deal()
                if i in joined:
                    s.in_deal = True
                    s.all_in = s.stack == 0
        self.tied = []
        self.buyers = []
        self.offers = []
        self.show_queue = []
        self.best = None
        self.pending = 0
        self.last_caller = self.last_checker = -1
        self._events.append(SvaraDealt(tuple(order), dealer, self.pot, self.svara_chain))
        if len(order) == 1:
            self._award_alone(order[0])
            return
        self._deal_cards()
        if any(seats[i].all_in for i in order):
            # Someone has no chips left: dealt without betting, showdown at once (RULES §7).
            self.bet_level = 0
            self.cap = 0
            self.blind_last = 0
            self._begin_showdown()
            return
        self._begin_betting()

    # ----------------------------------------------------------------- leaving mid-deal (§10)
    def _leave_deal(self, seat: int) -> None:
        seats = self.seats
        s = seats[seat]
        phase = self.phase
        if phase == "split_choice" and seat in self.tied:
            self._split(list(self.tied))  # one of the two tied has left: the pot is split (§7)
            return
        if phase == "svara_buy_in":
            if seat in self.buyers:
                self.buyers.remove(seat)  # his price stays in the pot
            s.folded = True
            self._events.append(Fold(seat, True))
            if seat == self.turn:
                self._next_offer()  # leaving declines the offer
            return
        if s.folded:
            return
        s.folded = True
        self._events.append(Fold(seat, True))
        if phase == "showdown":
            if seat in self.show_queue:
                self.show_queue.remove(seat)
            alive = [i for i in self.order if not seats[i].folded]
            if len(alive) == 1:
                self._award_alone(alive[0])
                return
            shown = [self._points(i).points for i in alive if seats[i].shown]
            self.best = max(shown) if shown else None
            self._continue_showdown()
            return
        self.pending &= ~(1 << seat)
        if seat == self.turn:
            if phase == "dark_round":
                self.phase = "betting"
                self.must_open = True
            self._after_move(seat)
            return
        alive = [i for i in self.order if not seats[i].folded]
        if len(alive) == 1:
            self._award_alone(alive[0])
        elif self.pending == 0:
            self._end_betting()
