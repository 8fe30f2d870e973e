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

    # Stored compactly (the server loads and stores the state around every action): four ints per seat in the
    # table's packed ints (stack, level, flags, cards) and the player and name beside them. Flags: the nine yes/no
    # fields, the opened cards << 9 and the choice << 12; cards: the three card indexes 6 bits each, -1 when none.
    def stored(self) -> tuple:
        if self.player is None:
            return _EMPTY
        cards = self.cards
        # Bit k is _FLAG_NAMES[k], spelt out: shifting the bools is cheaper than a table lookup here.
        return (
            self.stack, self.level,
            self.sitting_out | self.ready << 1 | self.leaving << 2 | self.in_deal << 3 | self.folded << 4
            | self.all_in << 5 | self.blind << 6 | self.shown << 7 | self.unseen << 8 | self.opened << 9
            | (0 if self.choice is None else _CHOICE_CODE[self.choice] << 12),
            -1 if cards is None else cards[0] | cards[1] << 6 | cards[2] << 12,
        )


def seat_from_stored(player, name, stack, level, flags, packed) -> Seat:
    """The Seat of `Seat.stored()`'s six values, built without re-validating (it is on every load)."""
    seat = _new(Seat)
    if player is None:
        seat.player = seat.name = None
        seat.stack = 0
        seat.sitting_out = seat.ready = seat.leaving = False
        seat.clear_deal()
        return seat
    seat.player = player
    seat.name = name
    seat.stack = stack
    seat.level = level
    (
        seat.sitting_out, seat.ready, seat.leaving, seat.in_deal, seat.folded, seat.all_in, seat.blind,
        seat.shown, seat.unseen,
    ) = _FLAGS[flags & 511]
    seat.opened = flags >> 9 & 7
    seat.choice = _CHOICES[flags >> 12 & 3] if flags >> 12 else None
    seat.cards = None if packed < 0 else [packed & 63, packed >> 6 & 63, packed >> 12 & 63]
    return seat


_EMPTY = (0, 0, 0, -1)
_new = object.__new__
_FLAG_NAMES = ("sitting_out", "ready", "leaving", "in_deal", "folded", "all_in", "blind", "shown", "unseen")
# The nine yes/no fields back from one int (bit k = _FLAG_NAMES[k]) by table lookup: seats are loaded around
# every action, so this is hot.
_FLAGS = [tuple(bool(code >> k & 1) for k in range(len(_FLAG_NAMES))) for code in range(1 << len(_FLAG_NAMES))]
_CHOICES = (None, "split", "play_on")
_CHOICE_CODE = {None: 0, "split": 1, "play_on": 2}
