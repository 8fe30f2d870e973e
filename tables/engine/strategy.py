"""The bots' play: one decision from what one seat may see (docs/bots.md explains the reasoning).

`decide(view, legal, rng, level)` takes the engine's per-seat view (`state.view(seat)`) and that seat's legal
actions (`state.legal_actions(seat)`), never the state itself, so a bot cannot peek at a card it has not opened.
It returns an action dict `{"kind": ..., "amount": ..., "card": ...}`: the same shape a person's client sends.

The strength of a hand is its equity (tables.engine.equity): the share of the opponent hands still possible that it
beats (ties count half), turned into a chance to be best against n opponents as equity ** n. Bets are weighed
against the price: call when that chance beats price / (pot + price) plus a margin. Randomness (bluffs, slow play,
blind and dark play) comes only from the injected `rng`, so a seeded bench replays exactly and a bot cannot be read.

Pure Python: imports nothing beyond `tables.engine`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .cards import ALL_CARDS, Card, CardError, parse_card
from .equity import expected_equity, share_against_top, win_probability
from .points import hand_points

LEVELS = ("easy", "strong")


@dataclass(frozen=True)
class Profile:
    """How a level of bot plays. Chances are per decision, drawn from the injected rng."""

    name: str
    multiway: bool  # equity ** opponents (strong) or the bare equity (easy: overrates hands against many)
    reads_bets: bool  # a bet narrows the bettor's hands: discount the equity by the size of the bet faced
    call_margin: float  # equity needed beyond the pot odds to call
    value_bet: float  # chance-to-be-best above which it bets for value
    raise_at: float  # chance-to-be-best above which it raises a bet
    bluff: float  # chance to bet or raise with a weak hand
    slow_play: float  # chance to only check or call with a monster
    blind_start: float  # classic: chance to start the blind round
    blind_continue: float  # classic: chance to keep playing blind while it is cheap
    dark_start: float  # bulgarian: chance to bet in the dark first
    dark_continue: float  # bulgarian: chance to double in the dark while it is cheap
    mistake: float  # chance to play any legal action at random
    play_on: float  # chance to play on from a tie (before the stack check)


PROFILES = {
    "easy": Profile(
        name="easy",
        multiway=False,
        reads_bets=False,
        call_margin=-0.08,
        value_bet=0.75,
        raise_at=0.9,
        bluff=0.05,
        slow_play=0.0,
        blind_start=0.3,
        blind_continue=0.5,
        dark_start=0.3,
        dark_continue=0.5,
        mistake=0.08,
        play_on=0.5,
    ),
    "strong": Profile(
        name="strong",
        multiway=True,
        reads_bets=True,
        call_margin=0.04,
        value_bet=0.62,
        raise_at=0.8,
        bluff=0.04,
        slow_play=0.2,
        blind_start=0.2,
        blind_continue=0.35,
        dark_start=0.15,
        dark_continue=0.3,
        mistake=0.0,
        play_on=0.7,
    ),
}

MONSTER = 0.985  # equity from which a hand is never folded (the top few hands of the deck)
CHEAP_BLIND_ANTES = 4  # blind or dark play continues only while the price stays within this many antes


SEAT_KINDS = frozenset({"sit", "stand", "sit_out", "back", "add_chips"})


class StrategyError(ValueError):
    """A level that does not exist, or a view with nothing to decide."""


@dataclass
class Situation:
    """What the decision needs, read from the seat's view."""

    family: str
    ante: int
    pot: int
    stack: int
    level: int  # what this seat has put in this deal beyond the ante
    highest: int  # the highest level at the table
    opponents: int  # players still in the deal besides this seat
    hand: list[Card | None]  # this seat's cards: a Card when opened, None when not
    seen: list[Card] = field(default_factory=list)  # other cards visible to this seat (shown hands)
    best_shown: float | None = None  # the best points shown at this showdown
    bettor_looked: bool = True  # whether a player at the highest level has looked (a blind bet says nothing)
    is_dealer: bool = False
    svara_price: int | None = None
    svara_pot: int | None = None
    svara_tied: int = 2

    @property
    def opened(self) -> list[Card]:
        return [card for card in self.hand if card is not None]

    @property
    def looked(self) -> bool:
        return any(card is not None for card in self.hand)

    @property
    def to_call(self) -> int:
        return max(0, self.highest - self.level)


# --- reading the view -------------------------------------------------------------------------------------------


_CARD_BY_TEXT = {text: card for card in ALL_CARDS for text in (str(card), card.ascii)}


def _card(value) -> Card | None:
    if value is None or isinstance(value, Card):
        return value
    card = _CARD_BY_TEXT.get(value)
    if card is not None:
        return card
    try:
        return parse_card(value)
    except CardError:
        return None  # "??" or any placeholder of a hidden card


def read_view(view: dict) -> Situation:
    """The seat's view → Situation. Only what the view holds is read (its shape: docs/engine.md, "The view")."""
    me = view["you"]
    if me is None:
        raise StrategyError("a spectator's view: a bot decides for its own seat only")
    seats = [seat for seat in view["seats"] if seat is not None]
    mine = next((seat for seat in seats if seat["seat"] == me), None)
    if mine is None:
        raise StrategyError(f"seat {me} is empty in this view")
    still_in = [seat for seat in seats if seat.get("in_deal") and seat.get("status") in ("playing", "all_in")]
    seen: list[Card] = []
    best_shown = None
    for seat in seats:
        if seat["seat"] == me:
            continue
        cards = [_card(card) for card in seat.get("cards") or []]
        seen.extend(card for card in cards if card is not None)
        if seat.get("shown") and seat.get("points") is not None:
            best_shown = seat["points"] if best_shown is None else max(best_shown, seat["points"])
    svara = view.get("svara") or {}
    tied = svara.get("tied") or []
    highest = view.get("bet_level") or 0
    bettors = [seat for seat in still_in if seat["seat"] != me and (seat.get("level") or 0) >= highest > 0]
    return Situation(
        family=view["family"],
        ante=view["ante"],
        pot=view["pot"],
        stack=mine["stack"],
        level=mine.get("level") or 0,
        highest=highest,
        bettor_looked=any(seat.get("has_looked") for seat in bettors) if bettors else True,
        opponents=len([seat for seat in still_in if seat["seat"] != me]),
        hand=[_card(card) for card in (mine.get("cards") or [None, None, None])],
        seen=seen,
        best_shown=best_shown,
        is_dealer=view.get("dealer") == me,
        svara_price=svara.get("price"),
        svara_pot=view["pot"] if svara else None,
        svara_tied=len(tied) or 2,
    )


# --- deciding ---------------------------------------------------------------------------------------------------


def _legal_map(legal) -> dict:
    """kind → (min, max), from Legal tuples or dicts."""
    kinds = {}
    for item in legal:
        if isinstance(item, dict):
            kinds[item["kind"]] = (item.get("min"), item.get("max"))
        else:
            kinds[item.kind] = (item.min, item.max)
    return kinds


def _action(kind: str, amount: int | None = None, card: int | None = None) -> dict:
    return {"kind": kind, "amount": amount, "card": card}


def _clamp(amount: float, low, high) -> int:
    amount = int(round(amount))
    if low is not None:
        amount = max(amount, low)
    if high is not None:
        amount = min(amount, high)
    return amount


def equity_of(situation: Situation) -> float:
    """The hand's equity from the cards this seat has opened (averaged over the unopened ones)."""
    return expected_equity(situation.family, situation.opened, situation.seen)


def range_of_bet(situation: Situation) -> float:
    """What share of the hands a bet from a player who has looked is taken to come from (the top of the deck):
    a raise over this seat's own bet means more than a first bet, and a big bet more than a small one."""
    if situation.level > 0:
        return 0.25
    ratio = situation.to_call / max(1, situation.pot - situation.to_call)
    if ratio <= 0.5:
        return 0.55
    return 0.4 if ratio <= 1 else 0.3


def chance_to_win(situation: Situation, profile: Profile) -> float:
    """The chance to hold the best hand at the showdown: against a bettor who has looked, the equity against the
    top of the hands (`range_of_bet`); against each other opponent, the plain equity (equity ** n)."""
    equity = equity_of(situation)
    if equity >= MONSTER:
        return equity
    opponents = max(1, situation.opponents if profile.multiway else 1)
    if (
        profile.reads_bets
        and situation.to_call > 0
        and situation.bettor_looked
        and len(situation.opened) == 3
    ):
        hand = situation.opened[0].bit | situation.opened[1].bit | situation.opened[2].bit
        seen = 0
        for card in situation.seen:
            seen |= card.bit
        against_bettor = share_against_top(situation.family, hand, seen & ~hand, range_of_bet(situation))
        return against_bettor * win_probability(equity, opponents - 1)
    return win_probability(equity, opponents)


def _random_legal(kinds: dict, rng: random.Random, situation: Situation) -> dict:
    """A mistake: any legal action, amounts kept to about the pot (even a careless player rarely shoves)."""
    choices = sorted(kinds)
    monster = len(situation.opened) == 3 and equity_of(situation) >= MONSTER
    if "fold" in choices and len(choices) > 1 and ("check" in kinds or monster):
        choices.remove("fold")  # nobody folds what costs nothing, or the top hands, not even by mistake
    kind = rng.choice(choices)
    if kind == "open":
        return _open_next(situation)
    return _with_amount(kind, kinds, rng.randint(0, max(0, situation.pot)) + (kinds[kind][0] or 0))


def _with_amount(kind: str, kinds: dict, level: float) -> dict:
    """The action at the level wanted, within the legal bounds; kinds that take no amount get none."""
    if kind not in _TAKES_AMOUNT:
        return _action(kind)
    low, high = kinds[kind]
    return _action(kind, amount=_clamp(level, low, high))


_TAKES_AMOUNT = frozenset({"bet", "raise", "dark"})


def _open_next(situation: Situation) -> dict:
    index = next(i for i, card in enumerate(situation.hand) if card is None)
    return _action("open", card=index)


def decide(view: dict, legal=None, rng: random.Random | None = None, level: str = "strong") -> dict:
    """One action for the seat whose view this is.

    `legal`: that seat's legal actions (`Legal` tuples or the view's dicts); by default the view's own `legal`.
    `rng`: where every random choice comes from (inject a seeded one to replay).
    """
    if level not in PROFILES:
        raise StrategyError(f"no such bot level: {level!r} (one of {', '.join(LEVELS)})")
    profile = PROFILES[level]
    kinds = _legal_map(view.get("legal", []) if legal is None else legal)
    for kind in SEAT_KINDS:  # sitting, standing, chips: the bot's keeper decides those, not its play
        kinds.pop(kind, None)
    if not kinds:
        raise StrategyError("nothing to decide: no legal action for this seat")
    rng = rng if rng is not None else random.Random()
    situation = read_view(view)
    if profile.mistake and rng.random() < profile.mistake:
        return _random_legal(kinds, rng, situation)
    return _decide(situation, kinds, rng, profile)


def _decide(s: Situation, kinds: dict, rng: random.Random, profile: Profile) -> dict:
    if "new_deal" in kinds:
        return _action("new_deal")
    if "show" in kinds or "fold_hand" in kinds:
        return _show_or_fold(s, kinds)
    if "split" in kinds or "play_on" in kinds:
        return _split_or_play_on(s, kinds, rng, profile)
    if "buy_in" in kinds or "decline" in kinds:
        return _svara_buy_in(s, kinds, rng, profile)
    if not s.looked and ("blind" in kinds or "dark" in kinds):
        choice = _blind_or_dark(s, kinds, rng, profile)
        if choice is not None:
            return choice
    if "open" in kinds and len(s.opened) < 3:
        return _open_next(s)
    return _bet(s, kinds, rng, profile)


def _show_or_fold(s: Situation, kinds: dict) -> dict:
    """Show when the hand can win or tie; otherwise fold unseen, so nobody learns how this bot plays."""
    if "fold_hand" not in kinds:
        return _action("show")
    if "show" not in kinds:
        return _action("fold_hand")
    if len(s.opened) < 3 or s.best_shown is None:
        return _action("show")
    mine = hand_points(s.family, s.opened).points
    return _action("show" if mine >= s.best_shown else "fold_hand")


def _split_or_play_on(s: Situation, kinds: dict, rng: random.Random, profile: Profile) -> dict:
    """The svara re-deal is a coin flip for the same pot: even in chips. What differs is the betting in it,
    which favours the better player with chips to bet; so play on only with a deep stack, otherwise split."""
    if "play_on" not in kinds:
        return _action("split")
    if "split" not in kinds:
        return _action("play_on")
    if profile.name == "easy":
        return _action("play_on" if rng.random() < profile.play_on else "split")
    deep = s.stack >= 2 * max(s.pot, s.ante)
    return _action("play_on" if deep and rng.random() < profile.play_on else "split")


def _svara_buy_in(s: Situation, kinds: dict, rng: random.Random, profile: Profile) -> dict:
    """Buying in for p into a pot P that k tied players share: EV = (P + p) / (k + 1) - p. With the rules' price
    p = ceil(P / k) that is about zero, so a strong bot buys in when the rounding costs little and its stack is
    deep (its edge is in the svara's betting), an easy bot on a whim."""
    if "buy_in" not in kinds:
        return _action("decline")
    if "decline" not in kinds:
        return _action("buy_in")
    if profile.name == "easy":
        return _action("buy_in" if rng.random() < 0.4 else "decline")
    ev = svara_buy_in_ev(s)
    fair = ev >= -max(1, s.ante) / 2
    price = s.svara_price or 0
    deep = s.stack - price >= 4 * max(price, s.ante)
    return _action("buy_in" if fair and deep and rng.random() < 0.6 else "decline")


def svara_buy_in_ev(s: Situation) -> float:
    """Chips expected back from a svara buy-in, less its price: (P + p) / (k + 1) - p."""
    pot = s.svara_pot if s.svara_pot is not None else s.pot
    price = s.svara_price or 0
    return (pot + price) / (max(1, s.svara_tied) + 1) - price


def _blind_or_dark(s: Situation, kinds: dict, rng: random.Random, profile: Profile) -> dict | None:
    """Play blind (classic) or in the dark (bulgarian) while it is cheap: it gives up information and buys
    pressure (whoever looks must pay the same double). None: look at the cards instead."""
    kind = "blind" if "blind" in kinds else "dark"
    low, _ = kinds[kind]
    level = low if low is not None else s.highest * 2
    cost = level - s.level
    cheap = cost <= CHEAP_BLIND_ANTES * s.ante and cost * 10 <= s.stack
    if s.highest == 0:
        chance = profile.blind_start if kind == "blind" else profile.dark_start
    else:
        chance = profile.blind_continue if kind == "blind" else profile.dark_continue
    if cheap and rng.random() < chance:
        return _with_amount(kind, kinds, level)
    if "open" in kinds:
        return None
    if "fold" in kinds and not cheap:
        return _action("fold")
    return _with_amount(kind, kinds, level)


def _bet(s: Situation, kinds: dict, rng: random.Random, profile: Profile) -> dict:
    """Betting with the hand known (a player still blind uses its expected strength)."""
    p = chance_to_win(s, profile)
    monster = equity_of(s) >= MONSTER
    pot = max(s.pot, 1)

    def to_level(kind: str, share_of_pot: float) -> dict:
        # Amounts are levels: a bet of x% of the pot on top of what is owed.
        return _with_amount(kind, kinds, s.highest + share_of_pot * pot)

    if "check" in kinds or (s.to_call == 0 and "bet" in kinds):
        # Nobody has bet: bet for value, bluff now and then, otherwise check (never fold for free).
        value_at = profile.value_bet
        if s.family == "bulgarian" and "check" in kinds and profile.name == "strong":
            # Bulgarian: if everyone checks the dealer takes the pot (§5), so the dealer checks and the others
            # must bet to contest it at all.
            value_at = 1.1 if s.is_dealer else value_at - 0.12
        if (p >= value_at or monster) and "bet" in kinds:
            if monster and "check" in kinds and rng.random() < profile.slow_play:
                return _action("check")
            return to_level("bet", 0.5 + 0.5 * p)
        if "bet" in kinds and not s.is_dealer and rng.random() < profile.bluff * (1.5 if s.opponents == 1 else 0.5):
            return to_level("bet", 0.5)
        if "check" in kinds:
            return _action("check")

    # Something to pay: a bet to call, a double owed, or (bulgarian after a dark bet) a bet of at least twice it.
    pay_kind = next((kind for kind in ("call", "blind", "dark", "bet") if kind in kinds), None)
    cost = 0
    if pay_kind is not None:
        low, _ = kinds[pay_kind]
        cost = (low if low is not None else s.highest) - s.level
        if pay_kind == "call":
            cost = s.to_call
    cost = min(max(cost, 0), s.stack)
    need = cost / (pot + cost) if cost else 0.0
    if "raise" in kinds and (monster or p >= profile.raise_at):
        if not (monster and rng.random() < profile.slow_play):
            return to_level("raise", 0.5 + 0.5 * p)
    if "raise" in kinds and p >= need and rng.random() < profile.bluff * 0.5:
        return to_level("raise", 0.5)
    if pay_kind is not None and (monster or p >= need + profile.call_margin or "fold" not in kinds):
        if pay_kind == "call":
            return _action("call")
        return _with_amount(pay_kind, kinds, kinds[pay_kind][0] or s.highest)
    if "fold" in kinds:
        return _action("fold")
    # Only an unusual choice is left (a raise alone): take the smallest of it.
    kind = sorted(kinds)[0]
    return _with_amount(kind, kinds, kinds[kind][0] or 0)
