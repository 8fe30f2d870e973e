"""Shuffling and dealing. The engine only ever calls `rng.shuffle(list_of_card_indexes)`.

A deal is shuffled by the fair procedure (fair.py, docs/fair.md): the committed server seed drawn with `secrets`
(a clock-seeded shuffle gives away the deck: FIELD-NOTES, Planet Poker) and the players' seeds. Tests stack the
deck by passing a `StackedDeck` (or any rng) as the rng of the action that deals; it is an argument of `apply`,
never a field of an action, so no client message can stack a deck. The engine deals from such an rng unless its
`stacks_next` is false, and marks that deck as stacked: it proves nothing and is never shown as fair.
`default_rng` remains for the tools that want a plain CSPRNG shuffle (drills/shuffle.py).
"""

from __future__ import annotations

import secrets

from .cards import deck, parse_hand

_DECK_INDEXES = {family: tuple(card.index for card in deck(family)) for family in ("classic", "bulgarian")}


def deck_indexes(family: str) -> list[int]:
    return list(_DECK_INDEXES[family])


def default_rng():
    return secrets.SystemRandom()


class StackedDeck:
    """An rng for tests: each `shuffle` deals the next queued hands (in the order of dealing: the player after the
    dealer first, three cards each) and leaves the other cards after them. `StackedDeck("Ah Kh Qh", "6c 6h 6s")`
    queues one deal; give several lists to `StackedDeck.deals(...)` for a deal and its svaras."""

    def __init__(self, *hands: str) -> None:
        self.queue: list[list[int]] = []
        if hands:
            self.queue.append([card.index for hand in hands for card in parse_hand(hand)])

    @classmethod
    def deals(cls, *deals: list[str]) -> StackedDeck:
        stacked = cls()
        for hands in deals:
            stacked.queue.append([card.index for hand in hands for card in parse_hand(hand)])
        return stacked

    def shuffle(self, cards: list[int]) -> None:
        if not self.queue:
            raise AssertionError("StackedDeck: no more stacked deals queued")
        top = self.queue.pop(0)
        rest = [card for card in cards if card not in top]
        if len(rest) + len(top) != len(cards):
            raise AssertionError("StackedDeck: a stacked card is not in this deck")
        cards[:] = top + rest
