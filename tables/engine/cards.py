"""Cards and decks of the two rule families (RULES.md, table at the top).

A card is written `A♥` (symbol form, what players see) or `Ah` (ascii form, what a keyboard types); a ten is
`10♥`, `10h` or `Th`. Every card also has a compact `index` (0..35, the same numbering for both families) and a
`bit` (1 << index), so that a hand of three cards is one small int: the key of the points table.
"""

from __future__ import annotations

import re

FAMILIES = ("classic", "bulgarian")

SUITS = "♠♥♦♣"
ASCII_SUITS = "shdc"
RANKS = tuple(range(6, 15))  # 6..10, J=11, Q=12, K=13, A=14
LOWEST_RANK = {"classic": 6, "bulgarian": 7}

_RANK_TEXT = {6: "6", 7: "7", 8: "8", 9: "9", 10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_ASCII = {**_RANK_TEXT, 10: "T"}
_RANK_FROM_TEXT = {
    **{text: rank for rank, text in _RANK_TEXT.items()},
    "T": 10,
}
_SUIT_FROM_TEXT = {
    **{symbol: symbol for symbol in SUITS},
    **dict(zip(ASCII_SUITS, SUITS, strict=True)),
    # The outline glyphs some keyboards and fonts give.
    "♤": "♠",
    "♡": "♥",
    "♢": "♦",
    "♧": "♣",
}
# A card: a rank then a suit; "\ufe0f" is the emoji variation selector some phones append to ♥ and ♦.
_CARD_RE = re.compile(r"^(10|[0-9]|[A-Za-z])(.)\ufe0f?$")


class CardError(ValueError):
    """Text that is not a card, or a card or family that does not exist."""


class Card:
    """One card: `rank` 6..14 (J=11, Q=12, K=13, A=14) and `suit` one of ♠♥♦♣. Frozen, hashable, ordered by rank
    then suit. `index` (0..35) and `bit` (1 << index) are derived; the hash is the index (cheap and stable)."""

    __slots__ = ("rank", "suit", "index", "bit", "value", "_first", "_second")

    rank: int
    suit: str
    index: int
    bit: int
    value: int  # what the card counts in a suit (RULES.md §1): its number, 10 for a picture, 11 for an ace

    def __init__(self, rank: int, suit: str) -> None:
        if not isinstance(rank, int) or isinstance(rank, bool) or rank not in _RANK_TEXT:
            raise CardError(f"no such rank: {rank!r} (6..14, where J=11, Q=12, K=13, A=14)")
        if not isinstance(suit, str) or len(suit) != 1 or suit not in SUITS:
            raise CardError(f"no such suit: {suit!r} (one of {' '.join(SUITS)})")
        index = SUITS.index(suit) * 9 + (rank - 6)
        for name, value in (
            ("rank", rank),
            ("suit", suit),
            ("index", index),
            ("bit", 1 << index),
            ("value", card_value(rank)),
            # Offsets of the card as first and second of a hand in points.py's 36x36x36 lookup cube.
            ("_first", index * 36 * 36),
            ("_second", index * 36),
        ):
            object.__setattr__(self, name, value)

    def __setattr__(self, name, value):
        raise AttributeError(f"a Card is frozen: cannot set {name}")

    def __delattr__(self, name):
        raise AttributeError(f"a Card is frozen: cannot delete {name}")

    def __reduce__(self):
        return (Card, (self.rank, self.suit))

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other) -> bool:
        if isinstance(other, Card):
            return self.index == other.index
        return NotImplemented

    def _key(self) -> tuple[int, int]:
        return (self.rank, SUITS.index(self.suit))

    def __lt__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self._key() < other._key()
        return NotImplemented

    def __le__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self._key() <= other._key()
        return NotImplemented

    def __gt__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self._key() > other._key()
        return NotImplemented

    def __ge__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self._key() >= other._key()
        return NotImplemented

    def __repr__(self) -> str:
        return f"Card({self.rank}, {self.suit!r})"

    def __str__(self) -> str:
        return _RANK_TEXT[self.rank] + self.suit

    @property
    def ascii(self) -> str:
        return _RANK_ASCII[self.rank] + ASCII_SUITS[SUITS.index(self.suit)]


def card_value(rank: int) -> int:
    if rank == 14:
        return 11
    return min(rank, 10)


# The one canonical object of each card, by index: parse_card and deck hand these out.
ALL_CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)
assert all(card.index == i for i, card in enumerate(ALL_CARDS))

_DECKS = {
    family: tuple(card for card in ALL_CARDS if card.rank >= LOWEST_RANK[family]) for family in FAMILIES
}
_WILD = {"classic": Card(6, "♣"), "bulgarian": Card(7, "♣")}


def _check_family(family: str) -> str:
    if family not in _DECKS:
        raise CardError(f"no such family: {family!r} (one of {', '.join(FAMILIES)})")
    return family


def deck(family: str) -> list[Card]:
    """The family's cards, a fresh list in a fixed order (suit by suit, low to high): shuffle it freely."""
    return list(_DECKS[_check_family(family)])


def wild_card(family: str) -> Card:
    """The wild card: the six of clubs (the shakha) in classic, the seven of clubs in bulgarian."""
    return _WILD[_check_family(family)]


def parse_card(text: str) -> Card:
    """`A♥`, `Ah`, `aH`, `10h`, `Th`, `10♥` → the card; anything else → CardError."""
    if not isinstance(text, str):
        raise CardError(f"not a card: {text!r}")
    match = _CARD_RE.match(text.strip())
    if match is None:
        raise CardError(f"not a card: {text!r} (write it like A♥, Ah, 10h or Th)")
    rank_text, suit_text = match.groups()
    rank = _RANK_FROM_TEXT.get(rank_text.upper())
    if rank is None:
        raise CardError(f"not a card: {text!r} (no rank {rank_text!r}; ranks are 6-10, J, Q, K, A)")
    suit = _SUIT_FROM_TEXT.get(suit_text.lower() if suit_text.isascii() else suit_text)
    if suit is None:
        raise CardError(f"not a card: {text!r} (no suit {suit_text!r}; suits are ♠♥♦♣ or s h d c)")
    return ALL_CARDS[SUITS.index(suit) * 9 + (rank - 6)]


def parse_hand(text: str) -> list[Card]:
    """Cards separated by spaces and/or commas, e.g. `A♥ K♥ 6♣` or `Ah,Kh,6c`. Does not check the count."""
    if not isinstance(text, str):
        raise CardError(f"not a hand: {text!r}")
    words = [word for word in re.split(r"[\s,]+", text) if word]
    if not words:
        raise CardError("no cards given")
    return [parse_card(word) for word in words]


def format_hand(cards, *, ascii: bool = False) -> str:
    """The cards in the order given, space separated, in symbol form (or ascii form)."""
    return " ".join(card.ascii if ascii else str(card) for card in cards)
