"""Client messages parsed and validated into typed commands (docs/protocol.md); the door gets only these.

Everything a client can get wrong is refused here with the protocol's error code, before any database work:
bad JSON (deep nesting and huge frames included), a bad id, an unknown type, a field of the wrong type or range.
The rules themselves (whose turn, which amounts are legal now) are the door's and the engine's.
"""

from __future__ import annotations

from dataclasses import dataclass

import orjson
from django.utils.translation import gettext_lazy as _

from .engine.actions import MOVE_KINDS, STANDING_CHOICES
from .engine.fair import PLAYER_SEED_MAX, SeedError, check_player_seed
from .errors import DoorError, said

FRAME_MAX = 4096  # characters of a text frame (bytes of a binary one): an honest message (a 200-character chat line) is far below
CLIENT_ID_MAX = 64
CHAT_MAX = 200

# What a player may ask of the door; `timeout` is never a client's (the clock's alone).
SEAT_KINDS = frozenset(("sit", "stand", "add_chips"))
PLAY_KINDS = MOVE_KINDS | {"sit_out", "back", "new_deal", "standing"}
PLAYER_KINDS = SEAT_KINDS | PLAY_KINDS
AMOUNT_REQUIRED = frozenset(("sit", "add_chips", "bet", "raise"))
# Every kind whose `legal` entry carries min/max may say its amount (the door holds it to that range).
AMOUNT_ALLOWED = AMOUNT_REQUIRED | {"dark", "blind", "call", "buy_in"}
# Messages the socket answers itself, beside the door's.
SOCKET_TYPES = frozenset(("chat", "snapshot", "ping"))
# Where a player's own seed for his next deal may ride (docs/fair.md): pressing New deal, coming back, "Deal me in".
SEED_KINDS = frozenset(("new_deal", "back", "standing"))
CLIENT_TYPES = PLAYER_KINDS | SOCKET_TYPES


@dataclass(frozen=True, slots=True)
class Command:
    """One player's validated request to the door: an action at his own seat (or `sit` at a chosen one)."""

    kind: str
    amount: int | None = None
    card: int | None = None  # open: 0, 1 or 2
    seat: int | None = None  # sit only: the seat wanted (None: the first free one)
    choice: str | None = None  # standing only: one of STANDING_CHOICES ("deal_me_in", "fold_if_losing", ...)
    seed: str | None = None  # new_deal, back, standing deal_me_in: the player's seed for his next deal (docs/fair.md)


@dataclass(frozen=True, slots=True)
class Request:
    """A whole client frame: what it asks (`type`), its id, and the command or chat text it carries."""

    type: str
    id: str | None = None
    command: Command | None = None
    text: str | None = None  # chat


class BadMessage(DoorError):
    """A refused frame; `id` is the message's id when it had a valid one (the error answers it)."""

    def __init__(self, code: str, message: str, message_id: str | None = None):
        super().__init__(code, message)
        self.id = message_id


def parse_frame(frame: str | bytes | None, table_id: int) -> Request:
    """A socket frame for table `table_id` as a Request, or BadMessage."""
    if frame is None:
        raise BadMessage("bad_json", "A message must be a JSON object.")
    if len(frame) > FRAME_MAX:
        raise BadMessage("bad_json", f"A message may be at most {FRAME_MAX} bytes.")
    try:
        message = orjson.loads(frame)
    except (orjson.JSONDecodeError, RecursionError, TypeError):  # orjson refuses nesting past 1024 itself
        raise BadMessage("bad_json", "A message must be a JSON object.") from None
    if not isinstance(message, dict):
        raise BadMessage("bad_json", "A message must be a JSON object.")
    try:
        message_id = check_client_id(message.get("id"))
    except DoorError as error:
        raise BadMessage(error.code, error.message) from None
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_TYPES:
        raise BadMessage("unknown_type", f"Unknown message type {_shown(kind)}.", message_id)
    if "table" in message and message["table"] != table_id:
        raise BadMessage(
            "wrong_table", f"This socket serves table {table_id}, not {_shown(message['table'])}.", message_id
        )
    if kind in SOCKET_TYPES:
        return Request(kind, message_id, text=message.get("text") if kind == "chat" else None)
    try:
        fields = ("amount", "card", "seat", "choice", "seed")
        command = parse_action({"kind": kind, **{f: message[f] for f in fields if f in message}})
    except DoorError as error:
        raise BadMessage(error.code, error.message, message_id) from None
    return Request(kind, message_id, command=command)


def check_client_id(client_id) -> str | None:
    if client_id is None:
        return None
    if not isinstance(client_id, str) or not 1 <= len(client_id) <= CLIENT_ID_MAX or not client_id.isprintable():
        raise DoorError(
            "bad_field", f"A message id must be a string of 1 to {CLIENT_ID_MAX} printable characters."
        )
    return client_id


def check_chat_text(text) -> str:
    if not isinstance(text, str):
        raise DoorError("bad_field", "The chat text must be a string.")
    text = text.strip()
    if not text:
        raise DoorError("out_of_range", _("An empty chat message says nothing."))
    if len(text) > CHAT_MAX:
        raise DoorError("out_of_range", said(_("A chat message may be at most %(max)s characters, not %(length)s."),
                                             max=CHAT_MAX, length=len(text)))  # fmt: skip
    if "\x00" in text:
        raise DoorError("bad_field", "A chat message may not hold a NUL character.")
    return text


def parse_action(action) -> Command:
    """`{"kind": ..., "amount"?, "card"?, "seat"?, "choice"?}` as a Command, or DoorError."""
    if isinstance(action, Command):
        return action
    if not isinstance(action, dict):
        raise DoorError("bad_field", "An action must be a JSON object.")
    kind = action.get("kind")
    if not isinstance(kind, str) or kind not in PLAYER_KINDS:
        raise DoorError("unknown_type", f"Unknown action {_shown(kind)}.")
    amount = action.get("amount")
    if amount is not None:
        if kind not in AMOUNT_ALLOWED:
            raise DoorError("bad_field", f"'{kind}' takes no amount.")
        if not _is_int(amount):
            raise DoorError("bad_field", f"The amount must be a whole number of chips, not {_shown(amount)}.")
        if amount <= 0:
            raise DoorError("out_of_range", f"The amount must be positive, not {amount}.")
    elif kind in AMOUNT_REQUIRED:
        raise DoorError("bad_field", f"'{kind}' needs an amount.")
    card = action.get("card")
    if kind == "open":
        if not _is_int(card):
            raise DoorError("bad_field", f"Say which card to open: 0, 1 or 2, not {_shown(card)}.")
        if not 0 <= card <= 2:
            raise DoorError("out_of_range", f"A hand has cards 0, 1 and 2, not {card}.")
    elif card is not None:
        raise DoorError("bad_field", f"'{kind}' takes no card.")
    seat = action.get("seat")
    if seat is not None:
        if kind != "sit":
            raise DoorError("bad_field", "Only 'sit' names a seat; you always act for your own seat.")
        if not _is_int(seat):
            raise DoorError("bad_field", f"A seat is a number, not {_shown(seat)}.")
    choice = action.get("choice")
    if kind == "standing":
        if not isinstance(choice, str) or choice not in STANDING_CHOICES:
            raise DoorError(
                "bad_field", f"Say which standing choice: one of {', '.join(STANDING_CHOICES)}, not {_shown(choice)}."
            )
    elif choice is not None:
        raise DoorError("bad_field", f"'{kind}' takes no choice.")
    seed = action.get("seed")
    if seed is not None:
        if kind not in SEED_KINDS or (kind == "standing" and choice != "deal_me_in"):
            raise DoorError("bad_field", "Only new_deal, back and standing deal_me_in carry a seed.")
        try:
            check_player_seed(seed)
        except SeedError:
            raise DoorError(
                "bad_field", f"A seed is 1 to {PLAYER_SEED_MAX} lowercase hex characters (0-9, a-f), not {_shown(seed)}."
            ) from None
    return Command(kind, amount=amount, card=card, seat=seat, choice=choice, seed=seed)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shown(value) -> str:
    """A client's value in an error message: short, whatever was sent (a list or object only by its kind: its repr
    could be a thousand levels deep)."""
    if isinstance(value, (list, dict)):
        return "a list" if isinstance(value, list) else "an object"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


TABLE_ID_MAX = 2**63 - 1  # PostgreSQL's bigint


def table_id_of(text: str) -> int | None:
    """The table id a socket path names, or None when it can name no table (abc, -1, 0, 99…9, a NUL)."""
    if not (text.isascii() and text.isdigit()) or len(text) > 19:
        return None
    number = int(text)
    return number if 1 <= number <= TABLE_ID_MAX else None
