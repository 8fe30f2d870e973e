"""Bulgarian betting (RULES §5): dark bets (D7), the first open bet, the dark bettor's pot, D17."""

import pytest

from tables.engine.play import IllegalAction

from .play_helpers import act, chips, deal, first, stacks, table, types

B_TEN_A, B_TEN_B, B_TEN_C, B_TRYNKI = "Ks 9h 8d", "Js 9d 8c", "Ts 8h 9c", "Ah Kh Qh"


def four():
    state = table("bulgarian", players=4)
    deal(state, B_TEN_A, B_TEN_B, B_TEN_C, B_TRYNKI)  # A = seat 1, B = 2, C = 3, D = 0 (the dealer)
    return state


def test_dark_bet_is_one_ante_up_to_the_pot_D7():
    state = four()
    assert [(lg.min, lg.max) for lg in state.legal_actions(1) if lg.kind == "dark"] == [(10, 40)]
    with pytest.raises(IllegalAction, match="at least 10"):
        act(state, "dark", 1, 5)
    with pytest.raises(IllegalAction, match="at most the pot: 40"):
        act(state, "dark", 1, 41)
    act(state, "dark", 1, 40)
    assert state.phase == "dark_round" and state.seats[1].level == 40


def test_classic_has_no_dark_bet_and_bulgarian_no_blind():
    state = four()
    assert "blind" not in [lg.kind for lg in state.legal_actions(1)]
    with pytest.raises(IllegalAction):
        act(state, "blind", 1)


def test_next_players_double_in_the_dark_and_the_first_who_does_not_ends_it():
    state = four()
    act(state, "dark", 1, 10)
    with pytest.raises(IllegalAction, match="exactly 20"):
        act(state, "dark", 2, 30)
    act(state, "dark", 2, 20)
    act(state, "open", 3, card=0)
    assert "dark" not in [lg.kind for lg in state.legal_actions(3)]  # he looked: no dark double
    with pytest.raises(IllegalAction, match="at least 40"):
        act(state, "bet", 3, 39)
    act(state, "bet", 3, 40)  # the first open bet: at least twice the last dark bet
    assert state.phase == "betting" and not state.must_open
    act(state, "call", 0)
    events = act(state, "call", 1)  # a dark bettor calls the difference; his cards open for him first
    assert first(events, "call").added == 30
    assert state.seats[1].opened == 0b111


def test_the_first_open_bet_has_no_upper_limit():
    state = four()
    act(state, "dark", 1, 10)
    act(state, "fold", 2)
    lg = [lg for lg in state.legal_actions(3) if lg.kind == "bet"][0]
    assert (lg.min, lg.max) == (20, 990)
    act(state, "bet", 3, 500)
    assert state.bet_level == 500


def test_after_dark_betting_there_is_nothing_to_check_or_call():
    state = four()
    act(state, "dark", 1, 10)
    act(state, "fold", 2)  # did not double in the dark: dark betting is over
    assert [lg.kind for lg in state.legal_actions(3)][:2] == ["bet", "fold"]
    with pytest.raises(IllegalAction, match="twice"):
        act(state, "check", 3)
    with pytest.raises(IllegalAction, match="twice"):
        act(state, "call", 3)
    assert "fold" in types(act(state, "timeout"))  # §9: nothing to check, so the clock folds


def test_last_dark_bettor_takes_the_pot_when_nobody_bets_after_it():
    state = four()
    act(state, "dark", 1, 10)
    act(state, "dark", 2, 20)
    act(state, "fold", 3)
    act(state, "fold", 0)
    events = act(state, "fold", 1)
    award = first(events, "pot_awarded")
    assert award.winners[0].seat == 2 and award.pot == 70 and award.rake == 2
    assert "showdown_shown" not in types(events)
    assert chips(state) == 4000


def test_no_dark_bet_and_all_check_the_dealer_takes_the_pot_D17():
    state = four()
    for seat in (1, 2, 3, 0):
        events = act(state, "check", seat)
    award = first(events, "pot_awarded")
    assert award.winners[0].seat == 0 and award.rake == 0
    assert "showdown_shown" not in types(events)
    assert stacks(state) == [1030, 990, 990, 990]


def test_dealer_folded_the_last_player_to_check_takes_the_pot_D17():
    state = four()
    act(state, "check", 1)
    act(state, "check", 2)
    act(state, "check", 3)
    events = act(state, "fold", 0)
    award = first(events, "pot_awarded")
    assert award.winners[0].seat == 3


def test_dark_bettor_turn_after_dark_betting_must_bet_twice_or_fold():
    state = four()
    act(state, "dark", 1, 10)
    act(state, "dark", 2, 20)
    act(state, "fold", 3)
    act(state, "fold", 0)
    assert state.turn == 1 and state.seats[1].opened == 0b111  # his cards opened for him
    assert [(lg.kind, lg.min) for lg in state.legal_actions(1)][:2] == [("bet", 40), ("fold", None)]
