"""What a player (or the clock) asks of a table, what he may ask, and what is waited for."""

from __future__ import annotations

from typing import NamedTuple

# What a seat plays in a deal (`legal_moves` offers only these); all but opening a card wait for the seat's turn.
MOVE_KINDS = frozenset(
    ("open", "check", "bet", "call", "raise", "fold", "blind", "dark", "show", "fold_hand", "split", "play_on",
     "buy_in", "decline")
)
# The table actions beside them: a seat's comings and goings between (or during) deals.
TABLE_KINDS = frozenset(("sit", "stand", "add_chips", "sit_out", "back", "new_deal", "standing"))
KINDS = MOVE_KINDS | TABLE_KINDS | {"timeout"}
# A `standing` action's choice: which of a seat's standing choices it sets, and to what (docs/engine.md).
STANDING_CHOICES = {
    "deal_me_in": ("deal_me_in", True), "deal_me_out": ("deal_me_in", False),
    "show_if_losing": ("if_losing", "show"), "fold_if_losing": ("if_losing", "fold"), "ask_if_losing": ("if_losing", None),
    "split_on_tie": ("on_tie", "split"), "play_on_on_tie": ("on_tie", "play_on"), "ask_on_tie": ("on_tie", None),
}


class IllegalAction(ValueError):
    """The action is not allowed now; the message is for the player. Nothing was changed."""


class Action(NamedTuple):
    kind: str
    seat: int | None = None
    amount: int | None = None  # sit: the stack; add_chips: chips added; bet/raise/dark: the new LEVEL
    card: int | None = None  # open: which card, 0..2
    player: str | None = None  # sit: the opaque player id
    name: str | None = None  # sit: the name shown at the table
    bot: bool = False  # sit: the player is one of the platform's bots (no rake at his table, RULES §8); the door's
    choice: str | None = None  # standing: one of STANDING_CHOICES
    seed: str | None = None  # new_deal, back, standing deal_me_in: the player's seed for his next deal (fair.py)

    @classmethod
    def from_dict(cls, data: dict) -> Action:
        """An action from a client message; unknown fields are refused, so nothing is silently ignored."""
        if not isinstance(data, dict):
            raise IllegalAction("an action is an object with a kind")
        unknown = set(data) - set(cls._fields)
        if unknown:
            raise IllegalAction(f"unknown field(s) in the action: {', '.join(sorted(unknown))}")
        if "kind" not in data:
            raise IllegalAction("an action needs a kind")
        return cls(**data)


class Legal(NamedTuple):
    kind: str
    min: int | None = None
    max: int | None = None


class Clock(NamedTuple):
    kind: str  # move, show, split, svara_buy_in, new_deal
    seats: list[int]
    seconds: int
