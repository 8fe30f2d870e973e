"""What `TableState.apply` returns: one frozen record for each thing that happened, in the order it happened.

Each event class has a class-level `type` (its name on the wire) and typed fields; `to_json()` gives the dict the
WebSocket protocol sends and hand histories store (docs/engine.md "Events"), and `event_from_json(dict)` rebuilds
the event from it. An event holding hidden information has `private_to` (the only seat it may be sent to); for
every other event `private_to` is None.

    >>> from tables.engine.events import Bet, event_from_json
    >>> Bet(seat=1, level=20, added=20, stack=470, pot=50).to_json()
    {'seat': 1, 'level': 20, 'added': 20, 'stack': 470, 'pot': 50, 'type': 'bet'}
    >>> event_from_json({"type": "fold", "seat": 2})
    Fold(seat=2, leaving=False)

A field with a default (`Fold.leaving`, `Blind.unblind`, `SatOut.reason`) is written only when it differs from
it, as the dicts before these classes had it; "type" comes last in the dict, as it did then, so the JSON text is
the same byte for byte.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import ClassVar

__all__ = [
    "EVENT_TYPES", "AllIn", "Ante", "Back", "Bet", "Blind", "BuyIn", "Call", "CardOpened", "ChipsAdded", "Check",
    "Dark", "DealEnded", "DealStarted", "Declined", "Event", "Fold", "FoldedUnseen", "LevelsReturned", "Opened",
    "PlayOnChosen", "PotAwarded", "Raise", "Ready", "SatOut", "SeatVacated", "Seated", "ShowdownShown", "Split",
    "SplitChosen", "Stood", "Svara", "SvaraDealt", "Timeout", "Winner", "event_from_json",
]


def _fast_init(cls):
    """Replace the frozen dataclass's `__init__` (one `object.__setattr__` a field) by one that stores each field
    through its slot directly: about half the cost, and the engine makes two or three events an action. Everything
    else (frozen assignment, eq, repr, match) stays the dataclass's own."""
    names = [f.name for f in fields(cls)]
    namespace = {f"_set_{name}": getattr(cls, name).__set__ for name in names}
    source = f"def __init__(self, {', '.join(names)}):\n" + "".join(f"    _set_{n}(self, {n})\n" for n in names)
    if not names:
        source = "def __init__(self):\n    pass\n"
    exec(source, namespace)  # noqa: S102 - the source is built from the class's own field names
    init = namespace["__init__"]
    defaults = [f.default for f in fields(cls) if f.default is not MISSING]
    init.__defaults__ = tuple(defaults) or None
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init
    # What to_json and event_from_json need, worked out once: each field, its default (if any), and how it is
    # written (a tuple of seats as a list, winners as dicts).
    cls._json_fields = tuple(
        (f.name, f.default, f.type in ("tuple[int, ...]", "tuple[str, ...]")) for f in fields(cls)
    )
    return cls


@dataclass(frozen=True, slots=True)
class Event:
    """The base of every event; never emitted itself."""

    type: ClassVar[str] = ""
    private_to: ClassVar[int | None] = None  # the one seat this event may be sent to, None: everybody
    _json_fields: ClassVar[tuple] = ()

    def to_json(self) -> dict:
        """The event as the WebSocket protocol and the hand histories have it (docs/engine.md "Events")."""
        data = {}
        for name, default, as_list in self._json_fields:
            value = getattr(self, name)
            if default is not MISSING and value == default:
                continue
            data[name] = list(value) if as_list else value
        data["type"] = self.type
        return data

    @classmethod
    def _from_json(cls, data: dict) -> Event:
        values = {}
        for name, default, as_list in cls._json_fields:
            if name in data:
                value = data[name]
                values[name] = tuple(value) if as_list and isinstance(value, list) else value
            elif default is MISSING:
                raise ValueError(f"a {cls.type} event needs {name!r}")
        unknown = set(data) - set(values) - {"type", "private_to"}
        if unknown:
            raise ValueError(f"unknown field(s) in a {cls.type} event: {', '.join(sorted(unknown))}")
        return cls(**values)


# --- seats and chips (RULES §10) ------------------------------------------------------------------------------
@_fast_init
@dataclass(frozen=True, slots=True)
class Seated(Event):
    type: ClassVar[str] = "seated"
    seat: int
    player: str
    name: str
    stack: int


@_fast_init
@dataclass(frozen=True, slots=True)
class Stood(Event):
    type: ClassVar[str] = "stood"
    seat: int
    player: str
    leaving: bool  # mid-deal: he folds now, the seat frees at the deal's end


@_fast_init
@dataclass(frozen=True, slots=True)
class SeatVacated(Event):
    """The seat is free: its stack goes back to the player's balance (cash out)."""

    type: ClassVar[str] = "seat_vacated"
    seat: int
    player: str
    stack: int


@_fast_init
@dataclass(frozen=True, slots=True)
class ChipsAdded(Event):
    type: ClassVar[str] = "chips_added"
    seat: int
    player: str
    amount: int
    stack: int


@_fast_init
@dataclass(frozen=True, slots=True)
class SatOut(Event):
    type: ClassVar[str] = "sat_out"
    seat: int
    reason: str | None = None  # None: he asked to; else why the table sat him out (D16, §9)


@_fast_init
@dataclass(frozen=True, slots=True)
class Back(Event):
    type: ClassVar[str] = "back"
    seat: int


@_fast_init
@dataclass(frozen=True, slots=True)
class Ready(Event):
    type: ClassVar[str] = "ready"
    seat: int


# --- a deal (RULES §3) --------------------------------------------------------------------------------------------
@_fast_init
@dataclass(frozen=True, slots=True)
class DealStarted(Event):
    type: ClassVar[str] = "deal_started"
    deal_no: int
    dealer: int
    seats: tuple[int, ...]  # in the order of play
    names: tuple[str, ...] = ()  # the players' names, seat by seat as in `seats`: the log names one who has left


@_fast_init
@dataclass(frozen=True, slots=True)
class Ante(Event):
    type: ClassVar[str] = "ante"
    seats: tuple[int, ...]
    ante: int
    pot: int


@_fast_init
@dataclass(frozen=True, slots=True)
class CardOpened(Event):
    """The card a player opened: for his eyes only (D1)."""

    type: ClassVar[str] = "card_opened"
    seat: int
    index: int  # 0..2
    card: str  # "A♥"

    @property
    def private_to(self) -> int:
        return self.seat

    def to_json(self) -> dict:
        return {"seat": self.seat, "index": self.index, "card": self.card, "private_to": self.seat,
                "type": "card_opened"}


@_fast_init
@dataclass(frozen=True, slots=True)
class Opened(Event):
    """What everybody learns when a player opens a card: how many he has open."""

    type: ClassVar[str] = "opened"
    seat: int
    count: int


@_fast_init
@dataclass(frozen=True, slots=True)
class DealEnded(Event):
    type: ClassVar[str] = "deal_ended"
    deal_no: int


@_fast_init
@dataclass(frozen=True, slots=True)
class Timeout(Event):
    """A clock ran out (RULES §9); what it brings follows as its own events."""

    type: ClassVar[str] = "timeout"
    clock: str
    seats: tuple[int, ...]


# --- betting (RULES §4, §5): amounts are levels -------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Put(Event):
    """Chips from a stack to the pot: the seat's level is now `level`, `added` chips went in."""

    seat: int
    level: int
    added: int
    stack: int
    pot: int


@_fast_init
@dataclass(frozen=True, slots=True)
class Bet(_Put):
    type: ClassVar[str] = "bet"


@_fast_init
@dataclass(frozen=True, slots=True)
class Call(_Put):
    type: ClassVar[str] = "call"


@_fast_init
@dataclass(frozen=True, slots=True)
class Raise(_Put):
    type: ClassVar[str] = "raise"


@_fast_init
@dataclass(frozen=True, slots=True)
class Blind(_Put):
    type: ClassVar[str] = "blind"
    unblind: bool = False  # a looked player doubled: the blind round is over (RULES §4)


@_fast_init
@dataclass(frozen=True, slots=True)
class Dark(_Put):
    type: ClassVar[str] = "dark"


@_fast_init
@dataclass(frozen=True, slots=True)
class Check(Event):
    type: ClassVar[str] = "check"
    seat: int


@_fast_init
@dataclass(frozen=True, slots=True)
class Fold(Event):
    type: ClassVar[str] = "fold"
    seat: int
    leaving: bool = False  # he folded by standing up (RULES §10)


@_fast_init
@dataclass(frozen=True, slots=True)
class AllIn(Event):
    type: ClassVar[str] = "all_in"
    seat: int
    level: int


@_fast_init
@dataclass(frozen=True, slots=True)
class LevelsReturned(Event):
    """A short all-in: the levels above his went back to their owners (D6)."""

    type: ClassVar[str] = "levels_returned"
    level: int
    returned: dict[int, int]  # seat: chips given back
    pot: int

    def to_json(self) -> dict:
        return {"level": self.level, "returned": {str(k): v for k, v in self.returned.items()}, "pot": self.pot,
                "type": "levels_returned"}

    @classmethod
    def _from_json(cls, data: dict) -> LevelsReturned:
        event = super(LevelsReturned, cls)._from_json(data)
        return cls(event.level, {int(k): v for k, v in event.returned.items()}, event.pot)


# --- the showdown, ties, svaras (RULES §6, §7) --------------------------------------------------------------------
@_fast_init
@dataclass(frozen=True, slots=True)
class ShowdownShown(Event):
    type: ClassVar[str] = "showdown_shown"
    seat: int
    cards: tuple[str, ...]
    points: float  # 32.5 is the only one that is not whole
    hand_name: str | None


@_fast_init
@dataclass(frozen=True, slots=True)
class FoldedUnseen(Event):
    type: ClassVar[str] = "folded_unseen"
    seat: int


@_fast_init
@dataclass(frozen=True, slots=True)
class SplitChosen(Event):
    type: ClassVar[str] = "split_chosen"
    seat: int


@_fast_init
@dataclass(frozen=True, slots=True)
class PlayOnChosen(Event):
    type: ClassVar[str] = "play_on_chosen"
    seat: int


@_fast_init
@dataclass(frozen=True, slots=True)
class Svara(Event):
    type: ClassVar[str] = "svara"
    seats: tuple[int, ...]  # the tied, clockwise from the dealer
    pot: int
    chain: int  # svaras in a row, this one included
    price: int  # a buy-in's price (D11)
    dealer: int  # the svara's dealer (D12)


@_fast_init
@dataclass(frozen=True, slots=True)
class BuyIn(Event):
    type: ClassVar[str] = "buy_in"
    seat: int
    price: int
    stack: int
    pot: int


@_fast_init
@dataclass(frozen=True, slots=True)
class Declined(Event):
    type: ClassVar[str] = "declined"
    seat: int


@_fast_init
@dataclass(frozen=True, slots=True)
class SvaraDealt(Event):
    type: ClassVar[str] = "svara_dealt"
    seats: tuple[int, ...]
    dealer: int
    pot: int
    chain: int


@_fast_init
@dataclass(frozen=True, slots=True)
class Winner:
    """One share of an award; points and hand name only when his hand was shown."""

    seat: int
    player: str
    amount: int
    points: float | None
    hand_name: str | None

    def to_json(self) -> dict:
        return {"seat": self.seat, "player": self.player, "amount": self.amount, "points": self.points,
                "hand_name": self.hand_name}


@dataclass(frozen=True, slots=True)
class _Award(Event):
    winners: tuple[Winner, ...]
    rake: int  # taken before sharing (RULES §8)
    pot: int  # before the rake
    reason: str  # "all others folded", "best hand", "split", "all checked (D17)"

    def to_json(self) -> dict:
        return {"winners": [w.to_json() for w in self.winners], "rake": self.rake, "pot": self.pot,
                "reason": self.reason, "type": self.type}

    @classmethod
    def _from_json(cls, data: dict) -> _Award:
        event = super(_Award, cls)._from_json(data)
        if not isinstance(event.winners, (list, tuple)):
            raise ValueError(f"a {cls.type} event's winners are a list")
        winners = tuple(w if isinstance(w, Winner) else Winner(**w) for w in event.winners)
        return cls(winners, event.rake, event.pot, event.reason)


@_fast_init
@dataclass(frozen=True, slots=True)
class PotAwarded(_Award):
    type: ClassVar[str] = "pot_awarded"


@_fast_init
@dataclass(frozen=True, slots=True)
class Split(_Award):
    type: ClassVar[str] = "split"


def _event_classes(base: type) -> list[type]:
    found = []
    for cls in base.__subclasses__():
        if cls.type:
            found.append(cls)
        found += _event_classes(cls)
    return found


# Every event class by its type name.
EVENT_TYPES: dict[str, type[Event]] = {cls.type: cls for cls in _event_classes(Event)}


def event_from_json(data: dict) -> Event:
    """The event of a dict `to_json` gave (e.g. read back from a stored hand history); ValueError otherwise."""
    if not isinstance(data, dict):
        raise ValueError("an event is a dict with a type")
    kind = data.get("type")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"unknown event type: {kind!r}")
    try:
        return cls._from_json(data)
    except TypeError as error:
        raise ValueError(f"a broken {cls.type} event: {error}") from None
