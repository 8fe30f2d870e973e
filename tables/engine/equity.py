"""How strong a hand is: the share of the opponents' possible hands it beats (RULES.md §2 points).

The bots decide from this number. A hand's *share* is counted over every three-card hand an opponent could hold,
drawn from the cards that remain once the bot's own cards and any cards shown are taken out of the deck
(at most C(33, 3) = 5,456 hands): beaten hands count 1, tied hands count 1/2.

Speed matters (the bench plays hundreds of thousands of deals), so nothing is enumerated per question:
- every family's hands are scored once (from `points_table`) into sorted score arrays: all hands, the hands
  holding a given card, the hands holding a given pair of cards;
- "hands avoiding the cards S with fewer points than x" is then an inclusion-exclusion over the subsets of S of
  size ≤ 3 (hands hold three cards, so larger subsets contribute nothing), each term one `bisect`;
- for a large S (many cards shown) a direct filter over the family's hands is cheaper;
- answers are cached by (family, hand, excluded cards).

Pure Python: imports nothing beyond `tables.engine`.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from functools import cache, lru_cache
from itertools import combinations
from typing import NamedTuple

from .cards import FAMILIES, Card, CardError
from .points import hand_mask, points_table

# Above this many excluded cards the inclusion-exclusion has more terms than a direct filter is worth.
_INCLUSION_EXCLUSION_MAX = 6


class Share(NamedTuple):
    """Of `total` possible opponent hands, how many this hand beats and how many it ties."""

    beats: int
    ties: int
    total: int

    @property
    def equity(self) -> float:
        """Beaten hands plus half the tied ones, as a share of all: 0.0 (beats nothing) .. 1.0 (beats all)."""
        if self.total == 0:
            return 1.0
        return (self.beats + self.ties / 2) / self.total


class _FamilyScores:
    """The family's hands as (points, mask), and sorted score arrays by the cards they hold."""

    def __init__(self, family: str) -> None:
        table = points_table(family)
        self.hands: list[tuple[float, int]] = sorted((p.points, mask) for mask, p in table.items())
        self.all_scores: list[float] = [points for points, _ in self.hands]
        self.by_card: dict[int, list[float]] = {}
        self.by_pair: dict[int, list[float]] = {}
        for points, mask in self.hands:  # already sorted by points, so every array stays sorted
            bits = _bits_of(mask)
            for bit in bits:
                self.by_card.setdefault(bit, []).append(points)
            for a, b in combinations(bits, 2):
                self.by_pair.setdefault(a | b, []).append(points)
        self.points_of = {mask: points for points, mask in self.hands}

    def scores_holding(self, mask: int) -> list[float]:
        """Sorted scores of the hands holding every card of `mask` (1, 2 or 3 cards)."""
        count = mask.bit_count()
        if count == 0:
            return self.all_scores
        if count == 1:
            return self.by_card.get(mask, [])
        if count == 2:
            return self.by_pair.get(mask, [])
        if count == 3:
            points = self.points_of.get(mask)
            return [] if points is None else [points]
        return []


def _bits_of(mask: int) -> list[int]:
    bits = []
    while mask:
        low = mask & -mask
        bits.append(low)
        mask ^= low
    return bits


@cache
def _scores(family: str) -> _FamilyScores:
    if family not in FAMILIES:
        raise CardError(f"no such family: {family!r} (one of {', '.join(FAMILIES)})")
    return _FamilyScores(family)


def _mask_of(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        if not isinstance(card, Card):
            raise CardError(f"not a card: {card!r}")
        mask |= card.bit
    return mask


@lru_cache(maxsize=200_000)
def share_of_mask(family: str, hand: int, excluded: int = 0) -> Share:
    """`hand_share` on bitmasks (the cached core). `excluded` may or may not include the hand's own cards."""
    scores = _scores(family)
    mine = scores.points_of.get(hand)
    if mine is None:
        raise CardError(f"not a hand of the {family} deck: mask {hand:#x}")
    gone = excluded | hand
    if gone.bit_count() <= _INCLUSION_EXCLUSION_MAX:
        below = equal_or_below = total = 0
        for size in range(0, min(3, gone.bit_count()) + 1):
            sign = -1 if size % 2 else 1
            for subset in combinations(_bits_of(gone), size):
                held = scores.scores_holding(sum(subset))
                below += sign * bisect_left(held, mine)
                equal_or_below += sign * bisect_right(held, mine)
                total += sign * len(held)
        return Share(below, equal_or_below - below, total)
    beats = ties = total = 0
    for points, mask in scores.hands:
        if mask & gone:
            continue
        total += 1
        if points < mine:
            beats += 1
        elif points == mine:
            ties += 1
    return Share(beats, ties, total)


def hand_share(family: str, hand: Iterable[Card], excluded: Iterable[Card] = ()) -> Share:
    """How many of the opponent hands that remain possible this hand beats and ties.

    `hand`: the three cards; `excluded`: cards known not to be in any opponent's hand (shown, folded face up).
    """
    mask = hand_mask(family, list(hand))
    return share_of_mask(family, mask, _mask_of(excluded))


@lru_cache(maxsize=50_000)
def _partial_equity(family: str, known: int, excluded: int) -> float:
    """Average equity over every way the unopened cards can complete the opened ones."""
    scores = _scores(family)
    deck_mask = 0
    for _, mask in scores.hands:
        deck_mask |= mask
    free = _bits_of(deck_mask & ~known & ~excluded)
    missing = 3 - known.bit_count()
    if missing == 3:
        # Nothing seen: a random hand against a random hand is an even game by symmetry.
        return 0.5
    total = 0.0
    count = 0
    for completion in combinations(free, missing):
        total += share_of_mask(family, known | sum(completion), excluded).equity
        count += 1
    return total / count if count else 0.5


def expected_equity(family: str, opened: Iterable[Card], excluded: Iterable[Card] = ()) -> float:
    """The equity of a hand of which only `opened` (0..3 cards) is known, averaged over its unseen cards."""
    known = _mask_of(opened)
    if known.bit_count() > 3:
        raise CardError("a hand is three cards")
    gone = _mask_of(excluded) & ~known
    if known.bit_count() == 3:
        return share_of_mask(family, known, gone).equity
    return _partial_equity(family, known, gone)


def win_probability(equity: float, opponents: int) -> float:
    """Chance to hold the best hand against `opponents` random hands: equity ** n (a first approximation
    that ignores the few cards the opponents' hands share)."""
    if opponents <= 0:
        return 1.0
    return equity**opponents


@lru_cache(maxsize=20_000)
def _counts_below(family: str, gone: int) -> tuple[tuple[float, ...], tuple[int, ...], int]:
    """For the hands avoiding `gone`: the distinct scores (ascending), how many hands score below each, total."""
    scores = _scores(family)
    distinct = tuple(sorted(set(scores.all_scores)))
    below = []
    total = 0
    for score in distinct:
        count = 0
        total = 0
        for size in range(0, min(3, gone.bit_count()) + 1):
            sign = -1 if size % 2 else 1
            for subset in combinations(_bits_of(gone), size):
                held = scores.scores_holding(sum(subset))
                count += sign * bisect_left(held, score)
                total += sign * len(held)
        below.append(count)
    return distinct, tuple(below), total


@lru_cache(maxsize=200_000)
def share_against_top(family: str, hand: int, excluded: int, top: float) -> float:
    """Equity of the hand (ties half) against an opponent holding one of the best `top` share of the hands that
    remain possible (0 < top ≤ 1): what a bet from a player who has looked is taken to mean."""
    if top >= 1.0:
        return share_of_mask(family, hand, excluded).equity
    gone = excluded | hand
    if gone.bit_count() > _INCLUSION_EXCLUSION_MAX:
        return share_of_mask(family, hand, excluded).equity  # rare (many cards shown): the plain equity
    distinct, below, total = _counts_below(family, gone)
    # The weakest score still inside the range: the highest one with at least top·total hands at or above it.
    floor_index = 0
    for index in range(len(distinct) - 1, -1, -1):
        if total - below[index] >= top * total:
            floor_index = index
            break
    in_range = total - below[floor_index]
    mine = _scores(family).points_of[hand]
    share = share_of_mask(family, hand, excluded)
    if mine < distinct[floor_index]:
        return 0.0
    beaten = share.beats - below[floor_index]
    return (beaten + share.ties / 2) / in_range if in_range else 1.0
