"""Points and names of a three-card hand (RULES.md §2), for both families.

Every hand of both decks (7,140 classic, 4,960 bulgarian) is scored once at import into a table keyed by the
hand's bitmask (the OR of its cards' `bit`), so `hand_points` is one dict lookup: the simulator and the bots
score hands millions of times.

Points are ints except the classic 32.5 of a plain three of a kind, so JSON prints 32, not 32.0.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from types import MappingProxyType
from typing import NamedTuple

from .cards import FAMILIES, Card, CardError, deck, parse_card, parse_hand, wild_card

# The names of the named hands. Classic ones are fixed by RULES.md; the bulgarian ones are ours (docs/engine.md).
THREE_SHAKHAS = "three shakhas"
THREE_FOREHEADS = "three foreheads"
TOP_TRYNKI = "top trynki"
TWO_FOREHEADS = "two foreheads"
THREE_SEVENS = "three sevens"
THREE_ACES = "three aces"
TWO_SEVENS = "two sevens"
TWO_ACES = "two aces"

HAND_NAMES = {
    "classic": (THREE_SHAKHAS, THREE_FOREHEADS, TOP_TRYNKI, TWO_FOREHEADS),
    "bulgarian": (THREE_SEVENS, THREE_ACES, TWO_SEVENS, TWO_ACES),
}

ACE = 14
WILD_BONUS = 11  # what the wild card adds to the best suit of the other two cards


class HandError(CardError):
    """Not three distinct cards of the family's deck."""


class Points(NamedTuple):
    points: float  # an int except classic 32.5
    name: str | None


# The table build scores 12,100 hands at import, so the scorers below are written out by hand over plain tuples
# (rank, suit, value, is_wild) instead of Card attributes and helper calls: it keeps the import near 20 ms.


def _best_suit_of_two(x: tuple, y: tuple) -> int:
    return x[2] + y[2] if x[1] == y[1] else max(x[2], y[2])


def _score_classic(a: tuple, b: tuple, c: tuple) -> tuple[float, str | None]:
    ra, sa, va, wa = a
    rb, sb, vb, wb = b
    rc, sc, vc, wc = c
    if ra == rb == rc:
        if ra == 6:  # the shakha counts as a plain six here (rule 1)
            return (34, THREE_SHAKHAS)
        if ra == ACE:
            return (33, THREE_FOREHEADS)
        return (32.5, None)
    if wa or wb or wc:
        # The shakha sits out of the suits and adds 11 to the best suit of the other two (rule 5).
        points = WILD_BONUS + (
            _best_suit_of_two(b, c) if wa else _best_suit_of_two(a, c) if wb else _best_suit_of_two(a, b)
        )
    elif sa == sb:
        points = va + vb + vc if sb == sc else max(va + vb, vc)
    elif sa == sc:
        points = max(va + vc, vb)
    elif sb == sc:
        points = max(vb + vc, va)
    else:
        points = max(va, vb, vc)
    if (ra == ACE) + (rb == ACE) + (rc == ACE) == 2:
        # Two aces score 22 whatever else; with the shakha the suit rule gives 22 too (rule 7).
        return (max(points, 22), TWO_FOREHEADS)
    if points == 31 and not (wa or wb or wc):  # only A + two ten-valued cards of one suit make it (rule 8)
        return (31, TOP_TRYNKI)
    return (points, None)


def _score_bulgarian(a: tuple, b: tuple, c: tuple) -> tuple[float, str | None]:
    ra, sa, va, wa = a
    rb, sb, vb, wb = b
    rc, sc, vc, wc = c
    if ra == rb == rc:
        if ra == 7:
            return (34, THREE_SEVENS)
        if ra == ACE:
            return (33, THREE_ACES)
        return (3 * va, None)
    best: tuple[float, str | None]
    if wa or wb or wc:
        x, y = (b, c) if wa else (a, c) if wb else (a, b)
        if x[0] == y[0]:
            # Rule 2, the wild seven with a pair (a pair of sevens made a triple above); it beats the suit rule.
            # 7♣ A A = 33 is named like three aces, which it equals.
            best = (WILD_BONUS + 2 * x[2], THREE_ACES if x[0] == ACE else None)
        else:
            best = (WILD_BONUS + _best_suit_of_two(x, y), None)
    elif sa == sb:
        best = (va + vb + vc if sb == sc else max(va + vb, vc), None)
    elif sa == sc:
        best = (max(va + vc, vb), None)
    elif sb == sc:
        best = (max(vb + vc, va), None)
    else:
        best = (max(va, vb, vc), None)
    # Rule 3; the wild seven is a seven too. These never tie the suit rule, so the name is never in doubt.
    if (ra == 7) + (rb == 7) + (rc == 7) == 2 and best[0] < 23:
        best = (23, TWO_SEVENS)
    if (ra == ACE) + (rb == ACE) + (rc == ACE) == 2 and best[0] < 22:
        best = (22, TWO_ACES)
    return best


_SCORERS = {"classic": _score_classic, "bulgarian": _score_bulgarian}


# Two lookups from the same scoring. `_TABLES[family]`: hand bitmask -> Points, the public table. `_CUBES[family]`:
# 36x36x36 bytes, one per ordered triple of card indexes, holding the number of the hand's Points in `_POINTS`
# (0: not a hand of that deck). hand_points reads the cube: 47 kB a family stays in the CPU cache, where the dict
# and its int keys (several hundred kB) do not, and no key object is made or compared.
_POINTS: list[Points | None] = [None]


def _build_table(family: str) -> tuple[dict[int, Points], bytes]:
    score = _SCORERS[family]
    wild = wild_card(family)
    # Per card: its bit, its three offsets in the cube (as first, second, third card) and what the scorer reads.
    facts = [
        (
            card.bit,
            card.index * 1296,
            card.index * 36,
            card.index,
            (card.rank, card.suit, card.value, card == wild),
        )
        for card in deck(family)
    ]
    numbers: dict[tuple, int] = {}
    table = {}
    cube = bytearray(36 * 36 * 36)
    for (bit_a, a1, a2, a3, a), (bit_b, b1, b2, b3, b), (bit_c, c1, c2, c3, c) in combinations(facts, 3):
        points = score(a, b, c)
        number = numbers.get(points)
        if number is None:
            number = numbers[points] = len(_POINTS)
            _POINTS.append(Points(*points))
        table[bit_a | bit_b | bit_c] = _POINTS[number]
        cube[a1 + b2 + c3] = cube[a1 + c2 + b3] = cube[b1 + a2 + c3] = number
        cube[b1 + c2 + a3] = cube[c1 + a2 + b3] = cube[c1 + b2 + a3] = number
    return table, bytes(cube)


_TABLES: dict[str, dict[int, Points]] = {}
_CUBES: dict[str, bytes] = {}
for _family in FAMILIES:
    _TABLES[_family], _CUBES[_family] = _build_table(_family)
del _family
assert len(_POINTS) < 256, "a Points number must fit in a byte of the cube"


def hand_points(family: str, cards) -> Points:
    """The points and name of a hand: three distinct Cards of the family's deck (or their text, e.g. "Ah Kh 6c")."""
    try:
        a, b, c = cards
        number = _CUBES[family][a._first + b._second + c.index]
        if number:
            return _POINTS[number]
    except (KeyError, AttributeError, TypeError, ValueError):
        pass
    # The slow path: text to parse, or a hand to refuse with a clear reason.
    mask = hand_mask(family, cards)
    return _TABLES[family][mask]


def hand_mask(family: str, cards) -> int:
    """The hand's key in the points table: checks it is three distinct cards of the family's deck."""
    if family not in _TABLES:
        raise CardError(f"no such family: {family!r} (one of {', '.join(FAMILIES)})")
    try:
        if isinstance(cards, str):
            cards = parse_hand(cards)
        cards = [card if isinstance(card, Card) else parse_card(card) for card in cards]
    except TypeError:
        raise HandError(f"not a hand: {cards!r}") from None
    except CardError as error:
        raise HandError(str(error)) from None
    if len(cards) != 3:
        raise HandError(f"a hand is three cards, not {len(cards)}")
    seen = set()
    for card in cards:
        if card in seen:
            raise HandError(f"{card} is in the hand twice")
        seen.add(card)
    mask = 0
    for card in cards:
        if card.bit not in _DECK_BITS[family]:
            raise HandError(f"{card} is not in the {family} deck")
        mask |= card.bit
    return mask


_DECK_BITS = {family: frozenset(card.bit for card in deck(family)) for family in FAMILIES}


def points_table(family: str) -> Mapping[int, Points]:
    """Read-only view of the family's table: hand bitmask → Points, for code that keeps hands as masks."""
    if family not in _TABLES:
        raise CardError(f"no such family: {family!r} (one of {', '.join(FAMILIES)})")
    return MappingProxyType(_TABLES[family])
