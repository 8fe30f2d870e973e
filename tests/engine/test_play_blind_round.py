"""The classic blind round (RULES §4) and D5."""

import pytest

from tables.engine.play import IllegalAction

from .play_helpers import FOREHEADS, TEN_A, TEN_B, TEN_C, TRYNKI, act, deal, first, table, types


def four():
    state = table(players=4)
    deal(state, TEN_A, TEN_B, TEN_C, TRYNKI)  # A = seat 1, B = 2, C = 3, D = 0 (the dealer)
    return state


def test_blind_round_example_ante_10():
    state = four()
    act(state, "blind", 1)  # A 10 blind
    assert state.phase == "blind_round" and state.seats[1].level == 10
    act(state, "blind", 2)  # B 20 blind
    act(state, "open", 3, card=0)
    events = act(state, "blind", 3)  # C looks and bets 40: he unblinds the round
    assert events[0].unblind is True and state.phase == "betting"
    assert [lg.kind for lg in state.legal_actions(0)][:3] == ["call", "raise", "fold"]
    act(state, "call", 0)  # D calls 40
    assert state.turn == 1
    add_a = act(state, "call", 1)
    assert first(add_a, "call").added == 30  # A adds 30
    add_b = act(state, "call", 2)
    assert first(add_b, "call").added == 20  # B adds 20
    assert state.phase in ("showdown", "split_choice", "svara_buy_in", "waiting")
    assert sum(s.stack for s in state.seats) + state.pot + state.rake_taken == 4000


def test_only_the_first_player_before_looking_starts_the_blind_round():
    state = four()
    act(state, "open", 1, card=0)
    assert "blind" not in [lg.kind for lg in state.legal_actions(1)]
    with pytest.raises(IllegalAction, match="only the first player, before looking"):
        act(state, "blind", 1)
    act(state, "check", 1)  # no blind round in this deal
    assert "blind" not in [lg.kind for lg in state.legal_actions(2)]


def test_the_first_player_may_check_without_looking():
    state = four()
    act(state, "check", 1)
    assert not state.seats[1].has_looked and state.turn == 2


def test_blind_round_is_exactly_the_double_or_fold():
    state = four()
    act(state, "blind", 1)
    assert [(lg.kind, lg.min, lg.max) for lg in state.legal_actions(2)][:2] == [("blind", 20, 20), ("fold", None, None)]
    with pytest.raises(IllegalAction, match="exactly 20"):
        act(state, "blind", 2, 30)
    with pytest.raises(IllegalAction, match="blind round"):
        act(state, "call", 2)
    with pytest.raises(IllegalAction, match="blind round"):
        act(state, "check", 2)


def test_blind_round_has_no_pot_limit():
    state = table(players=2)
    deal(state, TEN_A, TRYNKI)
    act(state, "blind", 1)  # 10
    act(state, "blind", 0)  # 20
    act(state, "blind", 1)  # 40
    act(state, "blind", 0)  # 80
    pot = state.pot
    act(state, "blind", 1)  # 160, more than the pot
    assert state.seats[1].level == 160 > pot


def test_blind_round_goes_around_as_often_as_it_comes():
    state = table(players=3)
    deal(state, TEN_A, TEN_B, TRYNKI)
    act(state, "blind", 1)
    act(state, "blind", 2)
    act(state, "blind", 0)
    assert state.turn == 1 and state.phase == "blind_round"
    act(state, "blind", 1)
    assert state.seats[1].level == 80


def test_blind_player_cards_opened_for_him_when_his_turn_comes_D5():
    state = table(players=3)
    deal(state, TEN_A, TEN_B, FOREHEADS)
    act(state, "blind", 1)
    act(state, "open", 2, card=1)
    act(state, "blind", 2)  # unblinds
    events = act(state, "call", 0)
    opened = [e for e in events if e.type == "card_opened"]
    assert [e.private_to for e in opened] == [1, 1, 1]
    assert state.seats[1].opened == 0b111
    assert state.view(1)["seats"][1]["cards"] == ["K♠", "9♥", "7♦"]
    assert state.view(0)["seats"][1]["cards"] == [None, None, None]


def test_blind_round_timeout_folds():
    state = four()
    act(state, "blind", 1)
    events = act(state, "timeout")
    assert "fold" in types(events) and state.seats[2].folded
