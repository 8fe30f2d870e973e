"""Svara (RULES §7): buying in (D11), the svara's dealer and blind bet (D12), svara after svara (D13), the button
after a svara (D14), a svara dealt without betting; the rake of its final pot (§8)."""

import pytest

from tables.engine.play import IllegalAction

from .play_helpers import TEN_A, TEN_B, TEN_C, TRYNKI, act, chips, deal, first, table, types

LOW = "9s 8h 7c"


def pot_300_two_tied(family="classic", stacks=None, svara_hands=None):
    """4 players, ante 10; seats 1 and 2 tie in a pot of 300 and play on."""
    state = table(family, players=4, stacks=stacks or [770, 1000, 1000, 760])
    hands = [TEN_A, TEN_B, LOW, LOW.replace("9s", "9c").replace("8h", "8s").replace("7c", "7s")]
    if family == "bulgarian":
        hands = ["Ks 9h 8d", "Js 9d 8c", "9s 8h 7h", "9c 8s 7s"]
    deal(state, *hands, deals=svara_hands or [])
    act(state, "bet", 1, 40)
    act(state, "raise", 2, 130)
    act(state, "fold", 3)
    act(state, "fold", 0)
    act(state, "call", 1)
    assert state.pot == 300
    if state.phase == "split_choice":
        act(state, "play_on", 1)
    return state


def test_buy_in_price_example_pot_300_two_tied_D11():
    state = pot_300_two_tied(svara_hands=[[TEN_A, TRYNKI, TEN_B]])
    assert state.phase == "svara_buy_in" and state.price == 150
    # Only a stack above 750 may buy in: seat 3 has exactly 750 and is skipped, seat 0 has 760.
    assert state.seats[3].stack == 750 and state.seats[0].stack == 760
    assert state.turn == 0
    assert state.clock.kind == "svara_buy_in" and state.clock.seconds == 10
    view = state.view(0)
    assert view["svara"] == {"tied": [1, 2], "price": 150, "offer_to": 0, "buyers": [], "pot": 300}
    assert {"kind": "buy_in", "min": 150, "max": 150} in view["legal"]
    with pytest.raises(IllegalAction):
        act(state, "buy_in", 3)
    events = act(state, "buy_in", 0)
    assert events[0].type == "buy_in" and state.seats[0].stack == 610 and state.pot == 450
    assert "svara_dealt" in types(events)


def test_svara_pays_no_ante_and_the_pot_carries_over():
    state = pot_300_two_tied(svara_hands=[[TEN_A, TEN_B]])
    act(state, "decline", 0)
    assert state.phase == "betting" and state.pot == 300
    assert [s.level for s in state.seats] == [0, 0, 0, 0]
    assert state.order == [1, 2]


def test_svara_dealer_is_the_last_tied_clockwise_from_the_dealer():
    state = pot_300_two_tied(svara_hands=[[TEN_A, TEN_B, TRYNKI]])
    assert state.svara_dealer == 2  # tied 1 and 2, dealer 0: clockwise 1 then 2
    act(state, "buy_in", 0)
    assert state.dealer == 2 and state.order == [0, 1, 2] and state.turn == 0


def test_bulgarian_buy_in_has_no_two_pots_condition():
    state = pot_300_two_tied("bulgarian", stacks=[770, 1000, 1000, 760])
    assert state.phase == "svara_buy_in" and state.price == 150
    assert state.turn == 3  # 750 chips: not above two pots after paying, which only classic asks
    act(state, "buy_in", 3)
    assert state.seats[3].stack == 600


def test_classic_buy_in_offered_clockwise_from_the_svara_dealer_and_declined_on_timeout():
    state = pot_300_two_tied(stacks=[1000, 1000, 1000, 1000], svara_hands=[[TEN_A, TEN_B]])
    assert state.turn == 3
    events = act(state, "timeout")
    assert "declined" in types(events) and state.turn == 0
    act(state, "decline", 0)
    assert state.phase == "betting"


def test_svara_blind_bet_is_one_ante_D12():
    state = pot_300_two_tied(svara_hands=[[TEN_A, TEN_B]])
    act(state, "decline", 0)
    assert [(lg.min, lg.max) for lg in state.legal_actions(1) if lg.kind == "blind"] == [(10, 10)]
    bulgarian = pot_300_two_tied("bulgarian", stacks=[200, 1000, 1000, 200], svara_hands=[["Ks 9h 8d", "Js 9d 8c"]])
    act(bulgarian, "decline", 3)
    act(bulgarian, "decline", 0)
    assert [(lg.min, lg.max) for lg in bulgarian.legal_actions(1) if lg.kind == "dark"] == [(10, 10)]


def test_tie_in_a_svara_is_another_svara_at_once_D13():
    state = pot_300_two_tied(svara_hands=[[TEN_A, TEN_B], [TRYNKI, TEN_A]])
    act(state, "decline", 0)
    act(state, "check", 1)
    events = act(state, "check", 2)
    assert "svara" in types(events) and "split_chosen" not in types(events)
    assert state.svara_chain == 2


def test_after_ten_svaras_in_a_row_the_pot_is_split():
    state = table(players=3)
    deal(state, TEN_A, TEN_B, TEN_C, deals=[[TEN_A, TEN_B, TEN_C]] * 10)
    for seat in state.order:
        act(state, "check", seat)
    for chain in range(1, 11):
        assert state.svara_chain == chain and state.phase == "betting"
        for seat in list(state.order):
            events = act(state, "check", seat)
    assert "split" in types(events) and state.phase == "waiting"
    assert [s.stack for s in state.seats] == [1000, 1000, 1000]


def test_svara_with_a_player_without_chips_is_dealt_without_betting():
    state = table(players=2, stacks=[1000, 200])
    deal(state, TEN_A, TEN_B, deals=[[TRYNKI, TEN_A]])
    act(state, "bet", 1, 20)
    act(state, "raise", 0, 190)
    act(state, "call", 1)  # all his chips
    assert state.seats[1].stack == 0
    events = act(state, "play_on", 0)
    assert "svara_dealt" in types(events) and state.phase == "showdown"
    events += act(state, "fold_hand", 0)
    award = first(events, "pot_awarded")
    assert award.winners[0].seat == 1 and award.pot == 400
    assert not [e for e in events if e.type in ("check", "bet", "blind")]


def test_button_moves_on_from_the_original_dealer_after_a_svara_D14():
    state = pot_300_two_tied(svara_hands=[[TEN_A, TEN_B, TRYNKI]])
    act(state, "buy_in", 0)
    assert state.dealer == 2
    for seat in (0, 1, 2):
        act(state, "check", seat)
    assert state.phase == "waiting"
    deal(state, TEN_A, TEN_B, TEN_C, TRYNKI)
    assert state.dealer == 1  # the deal before was dealt by seat 0


def test_rake_is_taken_once_of_the_svara_final_pot():
    state = pot_300_two_tied(svara_hands=[[TEN_A, TEN_B, TRYNKI]])
    assert state.rake_taken == 0
    act(state, "buy_in", 0)
    for seat in (0, 1, 2):
        events = act(state, "check", seat)
    award = first(events, "pot_awarded")
    assert award.pot == 450 and award.rake == 13 and state.rake_taken == 13
    assert award.winners[0].seat == 2
    assert chips(state) == 770 + 1000 + 1000 + 760
