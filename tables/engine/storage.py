"""The stored form of a TableState (docs/engine.md "Storage"): format 7, one JSON object with named fields.

The server writes it after every action and reads it before the next, so both directions are spelt out field by
field (plain attribute loads and dict displays are what CPython runs fastest; bench/storage.py measures them
against format 4's positional array). Cards are written by name ("Ah", "Th", "6c"), so a stored row reads as the
table it is; `loads` checks the format, the shape and the names and raises ValueError for anything else, but it
does not re-validate the play (only the door writes it).
"""

from __future__ import annotations

from operator import itemgetter

import orjson

from .cards import ALL_CARDS, FAMILIES
from .fair import FairRecord
from .rules import MAX_SEATS, MIN_SEATS
from .seat import Seat

STORED_FORMAT = 7

_DEAL_PHASES = frozenset(("betting", "blind_round", "dark_round", "showdown", "split_choice", "svara_buy_in"))
PHASES = frozenset(("waiting", *_DEAL_PHASES))

# The keys of the stored object and of each stored seat, in the order written (a test checks dumps against them).
STATE_KEYS = (
    "format", "version", "family", "ante", "pot", "rake_taken", "button", "dealer", "deal_no", "phase",
    "turn", "bet_level", "cap", "blind_last", "must_open", "first_move", "pending", "last_caller", "last_checker",
    "antes_only", "best", "svara_chain", "price", "svara_pot", "svara_dealer", "order", "show_queue", "tied",
    "offers", "buyers", "server_seed", "fair", "result", "seats",
)
SEAT_KEYS = (
    "player", "name", "bot", "stack", "sitting_out", "ready", "leaving", "in_deal", "cards", "opened", "level", "folded",
    "all_in", "blind", "shown", "unseen", "choice", "deal_me_in", "if_losing", "on_tie", "seed",
)
RESULT_KEYS = ("deal_no", "kind", "rake", "pot", "reason", "winners", "shown")
_N_STATE_KEYS = len(STATE_KEYS)
_N_SEAT_KEYS = len(SEAT_KEYS)

_NAME = tuple(card.ascii for card in ALL_CARDS)  # card index -> "Ah"
_INDEX = {card.ascii: card.index for card in ALL_CARDS}  # "Ah" -> card index
_KINDS = ("win", "split")  # showdown.py's codes in the compact last result
_REASONS = ("all others folded", "best hand", "split", "all checked (D17)")
_new = object.__new__
_dumps = orjson.dumps
_loads = orjson.loads


def dumps(state) -> str:
    seats = []
    for s in state.seats:
        if s.player is None:
            seats.append(None)
            continue
        cards = s.cards
        seats.append({
            "player": s.player, "name": s.name, "bot": s.bot, "stack": s.stack, "sitting_out": s.sitting_out, "ready": s.ready,
            "leaving": s.leaving, "in_deal": s.in_deal,
            "cards": None if cards is None else [_NAME[cards[0]], _NAME[cards[1]], _NAME[cards[2]]],
            "opened": s.opened, "level": s.level, "folded": s.folded, "all_in": s.all_in, "blind": s.blind,
            "shown": s.shown, "unseen": s.unseen, "choice": s.choice, "deal_me_in": s.deal_me_in,
            "if_losing": s.if_losing, "on_tie": s.on_tie, "seed": s.seed,
        })
    result = state.result
    return _dumps({
        "format": STORED_FORMAT, "version": state.version, "family": state.family, "ante": state.ante,
        "pot": state.pot, "rake_taken": state.rake_taken, "button": state.button,
        "dealer": state.dealer, "deal_no": state.deal_no, "phase": state.phase, "turn": state.turn,
        "bet_level": state.bet_level, "cap": state.cap, "blind_last": state.blind_last,
        "must_open": state.must_open, "first_move": state.first_move, "pending": state.pending,
        "last_caller": state.last_caller, "last_checker": state.last_checker, "antes_only": state.antes_only,
        "best": state.best, "svara_chain": state.svara_chain, "price": state.price, "svara_pot": state.svara_pot,
        "svara_dealer": state.svara_dealer, "order": state.order, "show_queue": state.show_queue,
        "tied": state.tied, "offers": state.offers, "buyers": state.buyers, "server_seed": state.server_seed,
        "fair": None if state.fair is None else state.fair.to_json(),
        "result": None if result is None else _result_to_json(result), "seats": seats,
    }).decode()


def _result_to_json(result: list) -> dict:
    """showdown.py's compact last result as named fields (it is stored only between an award and the next deal)."""
    deal_no, kind, rake, pot, reason, n = result[:6]
    k = 6 + 2 * n
    paid = result[6:k]
    shown = result[k + 1: k + 1 + 2 * result[k]]
    players = result[-n:]
    return {
        "deal_no": deal_no, "kind": _KINDS[kind], "rake": rake, "pot": pot, "reason": _REASONS[reason],
        "winners": [{"seat": seat, "player": player, "amount": amount}
                    for seat, amount, player in zip(paid[0::2], paid[1::2], players, strict=True)],
        "shown": [{"seat": seat, "cards": [_NAME[packed & 63], _NAME[packed >> 6 & 63], _NAME[packed >> 12 & 63]]}
                  for seat, packed in zip(shown[0::2], shown[1::2], strict=True)],
    }


def _result_from_json(data: dict) -> list:
    if type(data) is not dict or len(data) != len(RESULT_KEYS):
        raise ValueError("a broken stored table state: its last result")
    winners, shown = data["winners"], data["shown"]
    packed = []
    for hand in shown:
        a, b, c = hand["cards"]
        packed += (hand["seat"], _INDEX[a] | _INDEX[b] << 6 | _INDEX[c] << 12)
    paid = []
    for winner in winners:
        paid += (winner["seat"], winner["amount"])
    return [data["deal_no"], _KINDS.index(data["kind"]), data["rake"], data["pot"], _REASONS.index(data["reason"]),
            len(winners), *paid, len(shown), *packed, *(winner["player"] for winner in winners)]


def loads(cls, text):
    try:
        data = _loads(text)
    except (orjson.JSONDecodeError, TypeError) as error:
        raise ValueError(f"a stored table state is JSON text: {error}") from None
    return build(cls, data)


def build(cls, data):
    """The state of the stored object's JSON values (the caller made them fresh: they are taken, not copied)."""
    if type(data) is not dict or data.get("format") != STORED_FORMAT or type(data["format"]) is not int:
        raise ValueError(f"not a stored table state of format {STORED_FORMAT}")
    if len(data) != _N_STATE_KEYS:
        raise ValueError("a broken stored table state: its fields")
    try:
        return _build(cls, data)
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise ValueError(f"a broken stored table state: {error!r}") from None


# One C call each picks every value of the stored object (or of a seat) in key order; a missing key is a KeyError.
_state_values = itemgetter(*STATE_KEYS[1:-2])
_seat_values = itemgetter(*SEAT_KEYS)


def _build(cls, data: dict):
    state = _new(cls)
    (
        state.version, state.family, state.ante, state.pot, state.rake_taken, state.button, state.dealer,
        state.deal_no, state.phase, state.turn, state.bet_level, state.cap, state.blind_last, state.must_open,
        state.first_move, state.pending, state.last_caller, state.last_checker, state.antes_only, state.best,
        state.svara_chain, state.price, state.svara_pot, state.svara_dealer, state.order, state.show_queue,
        state.tied, state.offers, state.buyers, state.server_seed, fair,
    ) = _state_values(data)
    state.fair = None if fair is None else FairRecord.from_json(fair)
    family, phase = state.family, state.phase
    result = data["result"]
    state.result = None if result is None else _result_from_json(result)
    state._legals = None
    rows = data["seats"]
    # The shape is checked (a few cheap tests on every load); the values are the door's own writing.
    if (type(family) is not str or family not in FAMILIES or type(phase) is not str or phase not in PHASES
            or type(state.version) is not int or type(rows) is not list or type(state.server_seed) is not str):
        raise ValueError("its version, family, phase or seats")
    if not MIN_SEATS <= len(rows) <= MAX_SEATS[family]:
        raise ValueError("the number of seats")
    seats = []
    for row in rows:
        if row is None:
            seats.append(Seat())
            continue
        if type(row) is not dict or len(row) != _N_SEAT_KEYS:
            raise ValueError("a seat is not an object of its fields")
        s = _new(Seat)
        (
            s.player, s.name, s.bot, s.stack, s.sitting_out, s.ready, s.leaving, s.in_deal, cards, s.opened,
            s.level, s.folded, s.all_in, s.blind, s.shown, s.unseen, s.choice, s.deal_me_in, s.if_losing, s.on_tie,
            s.seed,
        ) = _seat_values(row)
        if cards is not None:
            if type(cards) is not list or len(cards) != 3:
                raise ValueError("a seat's cards are three names")
            cards = [_INDEX[cards[0]], _INDEX[cards[1]], _INDEX[cards[2]]]
        s.cards = cards
        seats.append(s)
    state.seats = seats
    return state
