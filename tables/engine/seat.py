"""One seat of a table: who sits there, his stack, and his part in the running deal."""

from __future__ import annotations

ALL_OPENED = 0b111  # `opened` is a bitmask of the three cards' indexes


class Seat:
    __slots__ = (
        "player", "name", "bot", "stack", "sitting_out", "ready", "leaving",
        # standing choices (docs/engine.md "Standing choices"): kept from deal to deal while the player sits
        "deal_me_in", "if_losing", "on_tie",
        # his seed for the next deal he is dealt in (docs/fair.md), given with New deal; used up by that deal
        "seed",
        # the running deal (or svara):
        "in_deal", "cards", "opened", "level", "folded", "all_in", "blind", "shown", "unseen", "choice",
    )

    def __init__(self) -> None:
        self.player: str | None = None
        self.name: str | None = None
        self.bot = False  # one of the platform's bots: no rake while he holds the seat (RULES §8)
        self.stack = 0
        self.sitting_out = False
        self.ready = False  # pressed "New deal" (or came back) since the last deal
        self.leaving = False  # stood up mid-deal: the seat frees when the deal is over (RULES §10)
        self.deal_me_in = False  # New deal is pressed for him after every deal
        self.if_losing: str | None = None  # "show" / "fold": his answer to Show or Fold, given ahead (RULES §6)
        self.on_tie: str | None = None  # "split" / "play_on": his answer to a tie on top, given ahead (RULES §7)
        self.seed: str | None = None  # 1-64 lowercase hex characters, or None: no contribution
        self.clear_deal()

    def clear_deal(self) -> None:
        self.in_deal = False
        self.cards: list[int] | None = None  # card indexes (cards.ALL_CARDS), dealt face down
        self.opened = 0
        self.level = 0  # chips put in beyond the ante in this deal (RULES §4)
        self.folded = False
        self.all_in = False
        self.blind = False  # bet blind (classic) or in the dark (bulgarian) in this deal: D5 opens for him
        self.shown = False
        self.unseen = False  # folded unseen at the showdown: never revealed
        self.choice: str | None = None  # "split" / "play_on"

    @property
    def seated(self) -> bool:
        return self.player is not None

    @property
    def has_looked(self) -> bool:
        return self.opened != 0
