"""Provably fair deals (docs/fair.md): the deck of every deal is a deterministic function of a server seed the
table committed to before the deal, the players' own seeds, the deal number and the svara index.

The procedure, exactly (docs/verify_deal.py and static/js/fair.js restate it, with no import of this module):

1. Before a deal the table draws a fresh 32-byte `server seed` (`secrets.token_bytes`) and publishes its
   commitment, `SHA-256(server seed)` in lowercase hex.
2. Each player may add a `seed` of his own with his New deal: 1 to 64 characters of `0-9a-f`.
3. The message of one deck is ASCII text, its lines joined by "\\n" (no line end after the last):
   `svara-fair/1`, `family=<classic|bulgarian>`, `deal=<deal number>`, `svara=<0 for the deal, k for its k-th
   svara>`, `seeds=<seat>:<seed>,<seat>:<seed>,…` (the seeds of the players dealt in at the deal's start, in
   ascending seat number; empty after `=` when none).
4. The byte stream is block 0, block 1, … where block i = HMAC-SHA256(key = the 32 bytes of the server seed,
   message + "\\nblock=<i>").
5. An index below m is drawn from the next 4 bytes as a big-endian number x: a draw with x ≥ 2^32 − (2^32 mod m)
   is thrown away (rejection sampling: every index equally likely), else the index is x mod m.
6. The deck starts in the family's order (suit by suit ♠ ♥ ♦ ♣, each from its lowest card to the ace) and is
   shuffled by Fisher–Yates: for i from the last position down to 1, swap position i with position index(i + 1).
7. Cards are dealt from the top, three to each player, the player after the dealer first.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterable, Sequence

from .cards import ALL_CARDS, Card, deck

VERSION = "svara-fair/1"
SERVER_SEED_BYTES = 32
PLAYER_SEED_MAX = 64  # hex characters of a player's seed (256 bits: more adds nothing)
_PLAYER_SEED = re.compile(f"[0-9a-f]{{1,{PLAYER_SEED_MAX}}}")
_SERVER_SEED = re.compile(f"[0-9a-f]{{{2 * SERVER_SEED_BYTES}}}")
_TWO_32 = 1 << 32


class SeedError(ValueError):
    """Not a seed: the message says what one is."""


def new_server_seed() -> str:
    """A fresh server seed from the operating system's CSPRNG, as 64 lowercase hex characters."""
    return secrets.token_bytes(SERVER_SEED_BYTES).hex()


def commitment(server_seed: str) -> str:
    """What the table publishes before the deal: SHA-256 of the seed's 32 bytes, lowercase hex."""
    return hashlib.sha256(bytes.fromhex(check_server_seed(server_seed))).hexdigest()


def check_server_seed(text) -> str:
    if not isinstance(text, str) or not _SERVER_SEED.fullmatch(text):
        raise SeedError(f"a server seed is {2 * SERVER_SEED_BYTES} lowercase hex characters (0-9, a-f)")
    return text


def check_player_seed(text) -> str:
    if not isinstance(text, str) or not _PLAYER_SEED.fullmatch(text):
        raise SeedError(f"a seed is 1 to {PLAYER_SEED_MAX} lowercase hex characters (0-9, a-f)")
    return text


def message(family: str, deal_no: int, svara: int, seeds: Iterable[tuple[int, str]]) -> bytes:
    """The HMAC message of one deck (step 3): `seeds` are (seat, seed) pairs in ascending seat order."""
    pairs = ",".join(f"{seat}:{seed}" for seat, seed in seeds)
    return f"{VERSION}\nfamily={family}\ndeal={deal_no}\nsvara={svara}\nseeds={pairs}".encode("ascii")


class FairShuffle:
    """The rng the engine's deal uses: `shuffle(cards)` puts a list of card indexes in the family's start order into
    the order of this deck (steps 4-6). One object per deck."""

    __slots__ = ("_key", "_message", "_block", "_buffer")

    def __init__(self, server_seed: str, family: str, deal_no: int, svara: int, seeds: Sequence[tuple[int, str]]):
        self._key = bytes.fromhex(check_server_seed(server_seed))
        self._message = message(family, deal_no, svara, seeds)
        self._block = 0
        self._buffer = b""

    def _bytes(self, n: int) -> bytes:
        while len(self._buffer) < n:
            block = hmac.new(self._key, self._message + b"\nblock=%d" % self._block, hashlib.sha256).digest()
            self._buffer += block
            self._block += 1
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def below(self, m: int) -> int:
        """A uniform index in 0..m-1 (step 5)."""
        limit = _TWO_32 - _TWO_32 % m
        while True:
            x = int.from_bytes(self._bytes(4), "big")
            if x < limit:
                return x % m

    def shuffle(self, cards: list) -> None:
        for i in range(len(cards) - 1, 0, -1):
            j = self.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]


def deck_for(server_seed: str, family: str, deal_no: int, svara: int, seeds: Sequence[tuple[int, str]]) -> list[Card]:
    """The whole deck of one deal (or svara) in the order it is dealt from the top."""
    cards = [card.index for card in deck(family)]
    FairShuffle(server_seed, family, deal_no, svara, seeds).shuffle(cards)
    return [ALL_CARDS[i] for i in cards]


def hands_for(deck_cards: Sequence[Card], order: Sequence[int]) -> list[tuple[int, list[Card]]]:
    """Step 7: (seat, three cards) for each seat of `order`, the player after the dealer first."""
    return [(seat, list(deck_cards[3 * k: 3 * k + 3])) for k, seat in enumerate(order)]


# --- the record of one deal's chain, kept in the table's stored state -------------------------------------------

_NAME = tuple(card.ascii for card in ALL_CARDS)
_INDEX = {card.ascii: card.index for card in ALL_CARDS}


class FairDeck:
    """One dealt deck of a deal's chain: its svara index (0: the deal itself), whether a test rng stacked it (then it
    proves nothing), and what each seat got, (seat, [three card indexes]) in the order of dealing."""

    __slots__ = ("svara", "stacked", "dealt")

    def __init__(self, svara: int, stacked: bool, dealt: list[tuple[int, list[int]]]):
        self.svara = svara
        self.stacked = stacked
        self.dealt = dealt

    def to_json(self) -> dict:
        return {"svara": self.svara, "stacked": self.stacked,
                "dealt": [[seat, *(_NAME[c] for c in cards)] for seat, cards in self.dealt]}

    @classmethod
    def from_json(cls, data: dict) -> FairDeck:
        return cls(data["svara"], data["stacked"],
                   [(row[0], [_INDEX[row[1]], _INDEX[row[2]], _INDEX[row[3]]]) for row in data["dealt"]])


class FairRecord:
    """The fairness record of the running deal (or, between deals, of the last one): its number, the server seed
    it was dealt from (secret until the deal is over), the players' seeds in seat order and every deck dealt."""

    __slots__ = ("deal_no", "server_seed", "seeds", "decks")

    def __init__(self, deal_no: int, server_seed: str, seeds: list[tuple[int, str]], decks: list[FairDeck]):
        self.deal_no = deal_no
        self.server_seed = server_seed
        self.seeds = seeds
        self.decks = decks

    @property
    def stacked(self) -> bool:
        return any(d.stacked for d in self.decks)

    def to_json(self) -> dict:
        return {"deal_no": self.deal_no, "server_seed": self.server_seed,
                "seeds": [[seat, seed] for seat, seed in self.seeds], "decks": [d.to_json() for d in self.decks]}

    @classmethod
    def from_json(cls, data: dict) -> FairRecord:
        return cls(data["deal_no"], data["server_seed"], [(seat, seed) for seat, seed in data["seeds"]],
                   [FairDeck.from_json(d) for d in data["decks"]])
