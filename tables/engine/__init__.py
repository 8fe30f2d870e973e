"""The game itself, pure Python (imports nothing from Django or the rest of the project)."""

from .cards import FAMILIES, Card, CardError, deck, parse_card, parse_hand, wild_card
from .points import HandError, Points, hand_points

__all__ = [
    "FAMILIES",
    "Card",
    "CardError",
    "HandError",
    "Points",
    "deck",
    "hand_points",
    "parse_card",
    "parse_hand",
    "wild_card",
]
