"""Normal betting, classic (RULES §4): bets (D2), raises (D3, D4), calls, folds, all-in (D6), §9 move timeouts."""

import pytest

from tables.engine.play import IllegalAction

from .play_helpers import TEN_A, TEN_B, TRYNKI, act, chips, deal, first, frozen, stacks, table, types


def three(stacks_=None):
    state = table(players=3, stacks=stacks_)
    deal(state, TEN_A, TEN_B, TRYNKI)  # seat 1, seat 2, seat 0 (the dealer)
    return state


def test_bet_is_at_least_one_ante_D2():
    state = three()
    before = frozen(state)
    with pytest.raises(IllegalAction, match="at least 10"):
        act(state, "bet", 1, 9)
    assert frozen(state) == before
    act(state, "bet", 1, 10)
    assert state.seats[1].level == 10 and state.pot == 40


def test_bet_is_at_most_the_pot_D2():
    state = three()
    with pytest.raises(IllegalAction, match="at most the pot: 30"):
        act(state, "bet", 1, 31)
    act(state, "bet", 1, 30)
    assert state.pot == 60 and state.bet_level == 30


def test_raise_must_double_the_level_D3():
    state = three()
    act(state, "bet", 1, 20)
    with pytest.raises(IllegalAction, match="at least 40"):
        act(state, "raise", 2, 39)
    act(state, "raise", 2, 40)
    assert state.bet_level == 40
    assert [lg for lg in state.legal_actions(0) if lg.kind == "raise"][0].min == 80


def test_no_upper_limit_and_no_cap_on_raises_D4():
    state = three()
    act(state, "bet", 1, 10)
    act(state, "raise", 2, 20)
    act(state, "raise", 0, 40)
    act(state, "raise", 1, 80)
    act(state, "raise", 2, 160)
    pot = state.pot
    act(state, "raise", 0, 700)  # far above the pot: raises have no upper limit
    assert 700 > pot and state.bet_level == 700


def test_call_brings_the_level_up_to_the_highest():
    state = three()
    act(state, "bet", 1, 20)
    events = act(state, "call", 2)
    assert events[0].type == "call" and events[0].added == 20
    assert state.seats[2].level == 20 and state.seats[2].stack == 970


def test_check_only_with_nothing_to_call():
    state = three()
    act(state, "bet", 1, 20)
    with pytest.raises(IllegalAction, match="cannot check: 20 to call"):
        act(state, "check", 2)


def test_only_the_player_to_act_moves():
    state = three()
    with pytest.raises(IllegalAction, match="not your turn"):
        act(state, "check", 2)
    with pytest.raises(IllegalAction, match="not your turn"):
        act(state, "fold", 0)


def test_last_player_left_takes_the_pot_and_shows_nothing():
    state = three()
    act(state, "bet", 1, 20)
    act(state, "fold", 2)
    events = act(state, "fold", 0)
    assert "showdown_shown" not in types(events)
    award = first(events, "pot_awarded")
    assert award.pot == 50 and award.rake == 1  # 3 % of 50, rounded down
    assert award.winners[0].seat == 1 and award.winners[0].points is None
    assert state.seats[1].stack == 990 - 20 + 49
    assert state.phase == "waiting" and chips(state) == 3000


def test_all_checked_showdown_best_hand_takes_the_antes_without_rake():
    state = three()
    act(state, "check", 1)
    act(state, "check", 2)
    events = act(state, "check", 0)
    assert types(events).count("showdown_shown") == 3
    award = first(events, "pot_awarded")
    assert award.winners[0].seat == 0 and award.rake == 0
    assert stacks(state) == [1020, 990, 990]


def test_all_in_returns_higher_levels_at_once_D6():
    state = table(players=3, stacks=[1000, 1000, 300])
    deal(state, TEN_A, TRYNKI, TEN_B)  # seat 2, the short stack, holds the best hand
    act(state, "bet", 1, 30)
    act(state, "call", 2)
    act(state, "raise", 0, 600)
    act(state, "call", 1)
    events = act(state, "call", 2)  # 290 in all: short of 600, so all-in
    returned = first(events, "levels_returned")
    assert returned.returned == {0: 310, 1: 310} and returned.level == 290
    assert "all_in" in types(events)
    assert state.phase == "showdown" and state.turn == 0  # the last caller (seat 2) showed first
    act(state, "fold_hand", 0)
    events = act(state, "fold_hand", 1)
    # One pot, no side pots: the all-in player takes all of it.
    award = first(events, "pot_awarded")
    assert award.pot == 30 + 3 * 290
    assert award.winners[0].seat == 2 and award.rake == 27
    assert stacks(state) == [700, 700, 900 - 27]
    assert chips(state) == 2300


def test_no_raise_after_an_all_in_D6():
    state = table(players=3, stacks=[1000, 1000, 200])
    deal(state, TEN_A, TEN_B, TRYNKI)
    act(state, "bet", 1, 10)
    events = act(state, "raise", 2, 190)  # all his chips: a raise and an all-in
    assert "all_in" in types(events)
    kinds = [lg.kind for lg in state.legal_actions(0)]
    assert "raise" not in kinds and "call" in kinds
    with pytest.raises(IllegalAction, match="nobody raises after an all-in"):
        act(state, "raise", 0, 400)
    act(state, "call", 0)
    assert "raise" not in [lg.kind for lg in state.legal_actions(1)]


def test_a_call_short_of_the_level_is_an_all_in():
    state = table(players=2, stacks=[1000, 200])
    deal(state, TEN_A, TRYNKI)
    act(state, "bet", 1, 20)
    act(state, "raise", 0, 400)
    # Seat 1 has 170 left: his call is an all-in at 190 and 210 goes back to seat 0.
    assert [lg for lg in state.legal_actions(1) if lg.kind == "call"][0].min == 190
    events = act(state, "call", 1)
    assert first(events, "levels_returned").returned == {0: 210}


def test_move_timeout_checks_when_owing_nothing_else_folds():
    state = three()
    assert state.clock.kind == "move" and state.clock.seats == [1] and state.clock.seconds == 20
    events = act(state, "timeout")
    assert types(events)[:2] == ["timeout", "check"]
    act(state, "bet", 2, 10)
    events = act(state, "timeout")
    assert "fold" in types(events) and state.seats[0].folded
