"""One seat of a table: who sits there, his stack, and his part in the running deal."""

from __future__ import annotations

ALL_OPENED = 0b111  # `opened` is a bitmask of the three cards' indexes


class Seat:
    __slots__ = (
        "player", "name", "stack", "sitting_out", "ready", "leaving",
        # the running deal (or svara):
        "in_deal", "cards", "opened", "level", "folded", "all_in", "blind", "shown", "unseen", "choice",
    )

    def __init__(self) -> None:
        self.player: str | None = None
        self.name: str | None = None
        self.stack = 0
        self.sitting_out = False
        self.ready = False  # pressed "New deal" (or came back) since the last deal
        self.leaving = False  # stood up mid-deal: the seat frees when the deal is over (RULES §10)
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

    # Stored compactly (the server loads and stores the state around every action): one int of flags and one int
    # of cards (6 bits each) instead of sixteen JSON values.
    def to_json(self) -> list | None:
        if self.player is None:
            return None
        flags = (
            self.sitting_out | self.ready << 1 | self.leaving << 2 | self.in_deal << 3 | self.folded << 4
            | self.all_in << 5 | self.blind << 6 | self.shown << 7 | self.unseen << 8 | self.opened << 9
            | _CHOICE_CODE[self.choice] << 12
        )
        cards = self.cards
        packed = -1 if cards is None else cards[0] | cards[1] << 6 | cards[2] << 12
        return [self.player, self.name, self.stack, self.level, flags, packed]

    @classmethod
    def from_json(cls, data: list | None) -> Seat:
        if data is None:
            return cls()
        seat = _new(cls)
        seat.player, seat.name, seat.stack, seat.level, flags, packed = data
        seat.sitting_out = bool(flags & 1)
        seat.ready = bool(flags & 2)
        seat.leaving = bool(flags & 4)
        seat.in_deal = bool(flags & 8)
        seat.folded = bool(flags & 16)
        seat.all_in = bool(flags & 32)
        seat.blind = bool(flags & 64)
        seat.shown = bool(flags & 128)
        seat.unseen = bool(flags & 256)
        seat.opened = flags >> 9 & 7
        seat.choice = _CHOICES[flags >> 12 & 3]
        seat.cards = None if packed < 0 else [packed & 63, packed >> 6 & 63, packed >> 12 & 63]
        return seat


_new = object.__new__
_CHOICES = (None, "split", "play_on")
_CHOICE_CODE = {None: 0, "split": 1, "play_on": 2}
