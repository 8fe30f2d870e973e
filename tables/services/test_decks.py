"""Fixed decks for tests: the test settings install `QueuedDecks` as the door's deck provider
(SVARA_DECK_PROVIDER); with no provider (everywhere else) the engine deals the fair deck (docs/fair.md), and the
door never reads or writes a queued deck. A client message can never reach this."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction

from ..engine.dealing import StackedDeck
from ..errors import DoorError
from ..models import Table


def queue_test_deck(table_id: int, hands: list[str]) -> None:
    """The next deal gives these hands (e.g. ["Ah Kh Qh", "6c 6h 6s"]), in the order of dealing: the player after
    the dealer first. Refused unless the test settings installed this provider."""
    if settings.SVARA_DECK_PROVIDER != f"{__name__}.QueuedDecks":
        raise DoorError("illegal_action", "Fixed decks are a test hook, off outside the test settings.")
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        table.test_decks = [*table.test_decks, list(hands)]
        table.save(update_fields=["test_decks"])


class QueuedDecks:
    """The table's queued decks first (each a list of hands in the order of dealing), then the fair shuffle: the
    engine deals from this rng only while `stacks_next` (and marks that deck as proving nothing, docs/fair.md)."""

    @classmethod
    def for_table(cls, table: Table) -> QueuedDecks | None:
        return cls(table) if table.test_decks else None

    def __init__(self, table: Table):
        self.table = table
        self.stacked = StackedDeck.deals(*table.test_decks)
        self.used = 0

    @property
    def stacks_next(self) -> bool:
        return bool(self.stacked.queue)

    def shuffle(self, cards) -> None:
        self.used += 1
        self.stacked.shuffle(cards)

    def done(self) -> None:
        """After the action: the decks dealt are used up."""
        if self.used:
            self.table.test_decks = self.table.test_decks[self.used :]
            Table.objects.filter(pk=self.table.pk).update(test_decks=self.table.test_decks)
