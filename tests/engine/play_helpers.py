"""Helpers for the table-play tests: seat players, deal stacked hands, act."""

from __future__ import annotations

import json

from tables.engine.dealing import StackedDeck
from tables.engine.events import Event
from tables.engine.play import Action, TableState

# Classic hands by their points (checked in test_play_deal.py against points.py).
TRYNKI = "Ah Kh Qh"  # 31
TEN_A = "Ks 9h 7d"  # 10
TEN_B = "Js 9d 8c"  # 10
TEN_C = "Ts 8h 7c"  # 10
FOREHEADS = "As Ad 7h"  # 22
SIXTEEN = "9s 8d 7s"  # 16 (classic); bulgarian uses "9s 8d Ts" instead


_STACKED: dict[int, StackedDeck] = {}


def table(family: str = "classic", players: int = 3, ante: int = 10, stacks=None, seats: int | None = None,
          bots: tuple[int, ...] = ()) -> TableState:
    """`bots`: the seats a bot sits at."""
    state = TableState.new(family, ante, seats or max(players, 2))
    for i in range(players):
        stack = stacks[i] if stacks else 100 * ante
        state.apply(Action("sit", seat=i, player=f"u{i}", name=f"P{i}", amount=stack, bot=i in bots))
    return state


def deal(state: TableState, *hands: str, deals: list | None = None) -> list[Event]:
    """Every unready active seat presses New deal; the deal is stacked with `hands` in the order of dealing
    (the player after the dealer first). `deals` queues more stacked deals for svaras."""
    rng = StackedDeck.deals(list(hands), *(deals or []))
    events = []
    unready = [i for i, s in enumerate(state.seats) if s.player and not s.ready and not s.sitting_out]
    for i in unready:
        events += state.apply(Action("new_deal", seat=i), rng)
    assert state.phase != "waiting", "the deal did not start"
    _STACKED[id(state)] = rng  # kept for the svaras of this deal
    return events


def act(state: TableState, kind: str, seat: int | None = None, amount: int | None = None, **fields) -> list[Event]:
    rng = _STACKED.get(id(state))
    return state.apply(Action(kind, seat=seat, amount=amount, **fields), rng)


def chips(state: TableState) -> int:
    return sum(s.stack for s in state.seats) + state.pot + state.rake_taken


def stacks(state: TableState) -> list[int]:
    return [s.stack for s in state.seats]


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def first(events: list[Event], type_: str) -> Event:
    """The first event of that type."""
    return next(e for e in events if e.type == type_)


def frozen(state: TableState) -> str:
    return json.dumps(state.to_json(), sort_keys=True)
