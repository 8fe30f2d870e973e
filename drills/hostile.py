"""Hostile messages for the fuzz drill: each one made with what the server must answer to it.

A `Hostile` is a frame (text or bytes) and its category: `parse` frames are refused by the protocol before any
database work, with a code the drill knows in advance; `door` frames are well formed and reach the door (applied:
the snapshot of the change or an `ack`; or a refusal with any of the door's codes); `chat`, `ping` and `snapshot` are answered by the socket itself.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from urllib.parse import unquote

import orjson

from tables.protocol import table_id_of

KINDS = ("sit", "stand", "add_chips", "sit_out", "back", "new_deal", "open", "check", "bet", "call", "raise", "fold",
         "blind", "dark", "show", "fold_hand", "split", "play_on", "buy_in", "decline")  # fmt: skip
AMOUNT_KINDS = ("sit", "add_chips", "bet", "raise", "dark", "blind", "call", "buy_in")
DOOR_CODES = frozenset(("out_of_range", "login_required", "not_seated", "already_seated", "seat_taken",
                        "not_your_turn", "illegal_action", "wallet", "table_closed", "rate_limited",
                        "bad_field"))  # fmt: skip
ODD_TEXT = ("\u202eevil", "zero\u200bwidth", "e\u0301", "😀" * 3, "\uffff", "\u0085next", "tab\there", "<b>x</b>",
            "ﷺ", "\U0010ffff", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "line\nbreak")  # fmt: skip
WEIRD_VALUES = ("10", 10.5, 1e308, -1, 0, True, False, None, [], {}, [10], {"n": 10}, 10**30, -(10**30), "1e3",
                "", "\x00", 2**63, 2**64 + 1, -0.0)  # fmt: skip


@dataclass(frozen=True)
class Hostile:
    frame: str | bytes
    category: str  # parse, door, chat, ping, snapshot
    codes: frozenset = frozenset()  # for `parse`: the error codes allowed
    id: str | None = None  # the id the answer must carry (None: an answer without one)
    kind: str = ""
    what: str = ""  # a short name for the report


def dumps(message) -> str:
    """The frame as a client library writes it (stdlib json: any integer, unicode unescaped)."""
    return json.dumps(message, ensure_ascii=False)


def as_parsed(value):
    """The value as the server reads it (orjson: integers past 64 bits become floats)."""
    return orjson.loads(json.dumps(value))


def is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Generator:
    def __init__(self, rng: random.Random, table_id: int, other_table: int):
        self.rng, self.table_id, self.other_table = rng, table_id, other_table
        self.counter = 0

    def next_id(self) -> str:
        self.counter += 1
        return f"z{self.table_id}-{self.counter}"

    # --- refused by the protocol -------------------------------------------------------------------------------

    def parse_level(self) -> Hostile:
        rng = self.rng
        pick = rng.randrange(17)
        bad_json = frozenset(("bad_json",))
        if pick == 0:
            junk = rng.choice(["", "{", "}", "nul", "[1,2", "{'type': 'sit'}", '{"type": "sit",}', "NaN",
                               '{"type": "bet", "amount": NaN}', '{"a": Infinity}', "\x00", "\ufeff{}", "💥",
                               '{"type": "chat", "text": "\\ud800"}', '{"type": "bet", "amount": 1e400}'])
            return Hostile(junk, "parse", bad_json, what="bad JSON")
        if pick == 1:
            depth = rng.choice([1000, 2000, 1500])
            return Hostile("[" * depth + "]" * depth, "parse", bad_json, what=f"nested {depth} deep")
        if pick == 2:
            size = rng.choice([4097, 10_000, 65_536, 1_000_000])
            return Hostile(dumps({"type": "chat", "text": "x" * size}), "parse", bad_json, what=f"{size} characters")
        if pick == 3:
            return Hostile(dumps(rng.choice([[], [1], "sit", 7, None, True, 1.5])), "parse", bad_json, what="not an object")
        if pick == 4:
            noise = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))  # "{}" by chance: no type
            return Hostile(noise, "parse", frozenset(("bad_json", "unknown_type")), what="binary noise")
        if pick == 5:
            raw = dumps({"type": "check", "id": self.next_id()}).encode("utf-16")
            return Hostile(raw, "parse", bad_json, what="UTF-16 bytes")
        if pick == 6:
            bad_id = rng.choice(["a\x00b", "x" * 65, "", 12, 1.5, True, [], {}, "new\nline", "\x7f", "\u2028"])
            return Hostile(dumps({"type": "check", "id": bad_id}), "parse", frozenset(("bad_field",)), what="bad id")
        if pick == 7:
            message_id = self.next_id()
            kind = rng.choice(["timeout", "hack", "", "SIT", "sit ", "chat\x00", "__class__", "ping2", "ack",
                               "snapshot.", "error", "лобби", None, 5, [], {}])  # fmt: skip
            return Hostile(dumps({"type": kind, "id": message_id}), "parse", frozenset(("unknown_type",)),
                           message_id, what="unknown type")  # fmt: skip
        if pick == 8:
            message_id = self.next_id()
            other = rng.choice([self.other_table, -1, 0, 10**12, "1", None, [], self.table_id + 10**6])
            message = {"type": rng.choice(KINDS), "table": other, "id": message_id}
            return Hostile(dumps(message), "parse", frozenset(("wrong_table",)), message_id, what="another table")
        if pick == 9:
            message_id = self.next_id()
            kind = rng.choice(("bet", "raise", "sit", "add_chips"))
            value = rng.choice(WEIRD_VALUES)
            message = {"type": kind, "amount": value, "id": message_id}
            parsed = as_parsed(value)
            if is_int(parsed) and parsed > 0:
                return Hostile(dumps(message), "door", id=message_id, kind=kind, what="huge amount")
            code = "out_of_range" if is_int(parsed) else "bad_field"  # None: a required amount missing
            return Hostile(dumps(message), "parse", frozenset((code,)), message_id, what="amount of a wrong type")
        if pick == 10:
            message_id = self.next_id()
            kind = rng.choice(("check", "fold", "new_deal", "stand", "sit_out", "show", "split", "decline"))
            message = {"type": kind, "amount": rng.choice([10, 1, "10"]), "id": message_id}
            return Hostile(dumps(message), "parse", frozenset(("bad_field",)), message_id, what="amount it takes not")
        if pick == 11:
            message_id = self.next_id()
            card = rng.choice([3, -1, "0", 1.0, None, True, [0], 10**20])
            message = {"type": "open", "card": card, "id": message_id}
            code = "out_of_range" if is_int(as_parsed(card)) else "bad_field"
            return Hostile(dumps(message), "parse", frozenset((code,)), message_id, what="bad card")
        if pick == 12:
            message_id = self.next_id()
            kind = rng.choice(("check", "bet", "fold", "stand", "call"))
            message = {"type": kind, "seat": rng.choice([0, 1, 5, -1, "0"]), "id": message_id}
            if kind == "bet":
                message["amount"] = 20
            return Hostile(dumps(message), "parse", frozenset(("bad_field",)), message_id, what="another seat")
        if pick == 13:
            message_id = self.next_id()
            message = {"type": "sit", "amount": 400, "seat": rng.choice(["3", 1.5, True, [1], None]), "id": message_id}
            if message["seat"] is None:
                return Hostile(dumps(message), "door", id=message_id, kind="sit", what="sit, any seat")
            return Hostile(dumps(message), "parse", frozenset(("bad_field",)), message_id, what="seat of a wrong type")
        if pick == 14:
            message_id = self.next_id()
            text = rng.choice([None, 5, [], {}, "   ", "x" * 201, "a\x00b", True])
            codes = frozenset(("bad_field", "out_of_range", "chat_closed", "rate_limited", "login_required"))
            return Hostile(dumps({"type": "chat", "text": text, "id": message_id}), "chat", codes, message_id,
                           what="bad chat")  # fmt: skip
        if pick == 15:
            message_id = self.next_id()
            extra = {"__proto__": {"admin": True}, "type ": "x", "constructor": 1, "state": {"pot": 10**9}}
            message = {"type": "check", "id": message_id, **extra}
            return Hostile(dumps(message), "door", id=message_id, kind="check", what="extra fields")
        message_id = self.next_id()
        text = '{"type": "check", "id": "' + message_id + '", "type": "fold"}'  # a repeated key: the last one wins
        return Hostile(text, "door", id=message_id, kind="fold", what="repeated key")

    # --- well formed: the door answers ----------------------------------------------------------------------------

    def door_level(self, honest: tuple[str, dict] | None) -> Hostile:
        rng = self.rng
        message_id = self.next_id() if rng.random() < 0.95 else None
        if honest is not None and rng.random() < 0.6:
            kind, fields = honest
            message = {"type": kind, **fields}
            what = "honest move"
        else:
            kind = rng.choice(KINDS)
            message = {"type": kind}
            if kind in AMOUNT_KINDS and (kind in ("sit", "add_chips", "bet", "raise") or rng.random() < 0.5):
                message["amount"] = rng.choice([1, 5, 10, 20, 40, 199, 200, 400, 1000, 4000, 10**6, 10**15])
            if kind == "open":
                message["card"] = rng.randrange(3)
            if kind == "sit" and rng.random() < 0.5:
                message["seat"] = rng.randrange(-1, 9)
            what = "random move"
        if message_id is not None:
            message["id"] = message_id
        if rng.random() < 0.1:
            message["table"] = self.table_id  # naming its own table is allowed
        return Hostile(dumps(message), "door", id=message_id, kind=kind, what=what)

    def chat(self) -> Hostile:
        message_id = self.next_id()
        text = self.rng.choice(ODD_TEXT)
        codes = frozenset(("chat_closed", "rate_limited", "login_required", "not_seated"))
        return Hostile(dumps({"type": "chat", "text": text, "id": message_id}), "chat", codes, message_id, what="chat")

    def ping(self) -> Hostile:
        message_id = self.next_id()
        return Hostile(dumps({"type": "ping", "id": message_id}), "ping", id=message_id, what="ping")

    def snapshot(self) -> Hostile:
        return Hostile(dumps({"type": "snapshot"}), "snapshot", frozenset(("rate_limited",)), what="snapshot")


def hostile_paths(rng: random.Random, count: int) -> list[str]:
    """Socket paths anyone can type: answered with no_such_table, or refused at the handshake, never a 500."""
    paths = ["/ws/tables/abc/", "/ws/tables/-1/", "/ws/nope/", "/ws/", "/ws/tables/0/", "/ws/tables/1%00/",
             "/ws/tables/" + "9" * 40 + "/", "/ws/tables/%F0%9F%92%A5/", "/ws/lobby/x/", "/ws/tables//",
             "/ws/tables/1/extra/", "/ws/tables/12345678901234567890/", "/ws/tables/١٢/"]  # fmt: skip
    while len(paths) < count:
        junk = "".join(rng.choice("abc0123456789-_.~%") for _ in range(rng.randrange(1, 30)))
        if table_id_of(unquote(junk)) is None:  # "2" or "%32" names a real table, which is rightly shown
            paths.append(f"/ws/tables/{junk}/")
    return paths[:count]
