"""A deal (RULES §3): antes, the dealer, the order of play, cards and opening them (D1)."""

import pytest

from tables.engine.events import CardOpened
from tables.engine.play import Action, IllegalAction
from tables.engine.points import hand_points

from .play_helpers import FOREHEADS, TEN_A, TEN_B, TEN_C, TRYNKI, act, chips, deal, table, types


def test_stacked_hands_score_as_the_helpers_say():
    assert hand_points("classic", TRYNKI).points == 31
    assert [hand_points("classic", h).points for h in (TEN_A, TEN_B, TEN_C)] == [10, 10, 10]
    assert hand_points("classic", FOREHEADS).points == 22


def test_every_active_player_pays_the_ante():
    state = table(players=3)
    events = deal(state, TEN_A, TEN_B, TRYNKI)
    assert "ante" in types(events)
    assert state.pot == 30
    assert [s.stack for s in state.seats] == [990, 990, 990]


def test_sitting_out_player_pays_no_ante_and_gets_no_cards():
    state = table(players=3)
    act(state, "sit_out", 2)
    deal(state, TEN_A, TEN_B)
    assert state.pot == 20
    assert state.seats[2].stack == 1000 and not state.seats[2].in_deal
    assert state.order == [1, 0]


def test_two_players_are_needed_for_a_deal():
    state = table(players=2)
    act(state, "sit_out", 1)
    act(state, "new_deal", 0)
    assert state.phase == "waiting" and state.pot == 0


def test_dealer_moves_clockwise_every_deal_and_the_next_player_acts_first():
    state = table(players=3)
    deal(state, TEN_A, TEN_B, TRYNKI)
    assert (state.dealer, state.turn) == (0, 1)
    act(state, "fold", 1)
    act(state, "fold", 2)
    assert state.phase == "waiting"
    deal(state, TEN_A, TEN_B, TRYNKI)
    assert (state.dealer, state.turn) == (1, 2)
    assert state.order == [2, 0, 1]


def test_own_card_is_known_only_once_opened_D1():
    state = table(players=2)
    deal(state, TRYNKI, TEN_A)
    assert state.view(1)["seats"][1]["cards"] == [None, None, None]
    events = act(state, "open", 1, card=2)
    opened = [e for e in events if e.type == "card_opened"]
    assert opened == [CardOpened(seat=1, index=2, card="Q♥")] and opened[0].private_to == 1
    assert opened[0].to_json() == {"type": "card_opened", "seat": 1, "index": 2, "card": "Q♥", "private_to": 1}
    assert state.view(1)["seats"][1]["cards"] == [None, None, "Q♥"]
    assert state.view(0)["seats"][1]["cards"] == [None, None, None]
    assert state.view(None)["seats"][1]["cards"] == [None, None, None]
    with pytest.raises(IllegalAction, match="open already"):
        act(state, "open", 1, card=2)


def test_cards_open_one_at_a_time_and_looking_is_opening_the_first():
    state = table(players=2)
    deal(state, TRYNKI, TEN_A)
    assert not state.seats[1].has_looked
    act(state, "open", 1, card=0)
    assert state.seats[1].has_looked
    assert state.view(1)["seats"][1]["opened"] == 1
    with pytest.raises(IllegalAction):
        act(state, "open", 1, card=3)


def test_a_deck_is_dealt_from_the_injected_rng_three_cards_each():
    import random

    state = table(players=3)
    for i in range(3):
        state.apply(Action("new_deal", seat=i), random.Random(5))
    cards = [c for i in state.order for c in state.seats[i].cards]
    assert len(cards) == 9 and len(set(cards)) == 9
    again = table(players=3)
    for i in range(3):
        again.apply(Action("new_deal", seat=i), random.Random(5))
    assert [again.seats[i].cards for i in again.order] == [state.seats[i].cards for i in state.order]
    assert chips(state) == 3000
