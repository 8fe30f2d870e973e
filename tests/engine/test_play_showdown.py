"""The showdown (RULES §6: D8, D9, Show or Fold) and ties (§7: split or play on, D10)."""

import pytest

from tables.engine.events import FoldedUnseen
from tables.engine.play import IllegalAction

from .play_helpers import TEN_A, TEN_B, TEN_C, TRYNKI, act, chips, deal, first, stacks, table, types

LOW = "9s 8h 7c"  # 9 points


def shown_order(events):
    return [e.seat for e in events if e.type == "showdown_shown"]


def test_the_player_who_called_last_shows_first():
    state = table(players=3)
    deal(state, TEN_A, TEN_B, TRYNKI)
    act(state, "bet", 1, 10)
    act(state, "call", 2)
    events = act(state, "call", 0)
    assert shown_order(events)[0] == 0


def test_all_checked_the_first_player_after_the_dealer_shows_first_D8():
    state = table(players=3)
    deal(state, TEN_A, TEN_B, TRYNKI)
    act(state, "check", 1)
    act(state, "check", 2)
    events = act(state, "check", 0)
    assert shown_order(events) == [1, 2, 0]


def test_a_hand_equal_or_better_than_the_best_shown_opens_by_itself_D9():
    state = table(players=3)
    deal(state, TEN_A, TEN_B, TRYNKI)
    for seat in (1, 2, 0):
        events = act(state, "check", seat)
    assert shown_order(events) == [1, 2, 0]  # 10, then 10 (equal), then 31 (better): nobody was asked
    assert "pot_awarded" in types(events)


def test_a_weaker_hand_chooses_show_or_fold():
    state = table(players=3)
    deal(state, TRYNKI, TEN_A, TEN_B)
    for seat in (1, 2, 0):
        act(state, "check", seat)
    assert state.phase == "showdown" and state.turn == 2
    assert state.clock.kind == "show" and state.clock.seats == [2] and state.clock.seconds == 3
    assert [lg.kind for lg in state.legal_actions(2)][:2] == ["show", "fold_hand"]
    with pytest.raises(IllegalAction):
        act(state, "show", 0)
    events = act(state, "show", 2)
    assert events[0].type == "showdown_shown" and events[0].cards == ("K♠", "9♥", "7♦")
    events = act(state, "fold_hand", 0)
    assert events[0] == FoldedUnseen(seat=0) and events[0].to_json() == {"type": "folded_unseen", "seat": 0}
    assert first(events, "pot_awarded").winners[0].seat == 1


def test_no_answer_folds_the_weaker_hand_unseen_and_nobody_ever_learns_it():
    state = table(players=3)
    deal(state, TRYNKI, TEN_A, TEN_B)
    for seat in (1, 2, 0):
        act(state, "check", seat)
    events = act(state, "timeout")
    events += act(state, "timeout")
    assert types(events).count("folded_unseen") == 2
    assert all("cards" not in e.to_json() for e in events if getattr(e, "seat", None) in (0, 2))
    for viewer in (None, 0, 1, 2):
        view = state.view(viewer)
        assert [h["seat"] for h in view["last_result"]["shown"]] == [1]
        assert "9♥" not in str(view) and "J♠" not in str(view)


def test_split_odd_chip_goes_to_the_first_tied_clockwise_from_the_dealer_D10():
    state = table(players=3, ante=11)
    deal(state, TEN_A, TEN_B, LOW)
    for seat in (1, 2, 0):
        act(state, "check", seat)
    act(state, "fold_hand", 0)
    assert state.phase == "split_choice"
    assert state.clock.kind == "split" and state.clock.seats == [1, 2] and state.clock.seconds == 10
    act(state, "split", 2)
    events = act(state, "split", 1)
    split = first(events, "split")
    assert split.pot == 33 and split.rake == 0
    assert {w.seat: w.amount for w in split.winners} == {1: 17, 2: 16}
    assert stacks(state) == [1100 - 11, 1100 - 11 + 17, 1100 - 11 + 16]


def test_two_tied_play_on_when_one_of_them_wants_to():
    state = table(players=3)
    deal(state, TEN_A, TEN_B, LOW, deals=[[TRYNKI, TEN_A]])
    for seat in (1, 2, 0):
        act(state, "check", seat)
    act(state, "fold_hand", 0)
    act(state, "split", 1)
    events = act(state, "play_on", 2)
    assert "svara" in types(events)


def test_two_tied_with_no_answer_split():
    state = table(players=3)
    deal(state, TEN_A, TEN_B, LOW)
    for seat in (1, 2, 0):
        act(state, "check", seat)
    act(state, "fold_hand", 0)
    events = act(state, "timeout")
    assert "split" in types(events) and "svara" not in types(events)


def test_two_tied_and_one_of_them_left_the_pot_is_split():
    state = table(players=3)
    deal(state, TEN_A, TEN_B, LOW)
    for seat in (1, 2, 0):
        act(state, "check", seat)
    act(state, "fold_hand", 0)
    events = act(state, "stand", 2)
    assert "split" in types(events)
    vacated = first(events, "seat_vacated")
    assert vacated.seat == 2 and vacated.stack == 990 + 15
    assert state.seats[2].player is None and chips(state) == 3000 - 1005


def test_three_tied_is_a_svara_at_once():
    state = table(players=3)
    deal(state, TEN_A, TEN_B, TEN_C, deals=[[TRYNKI, TEN_A, TEN_B]])
    act(state, "check", 1)
    act(state, "check", 2)
    events = act(state, "check", 0)
    assert "svara" in types(events) and "split_chosen" not in types(events)


def test_the_last_result_lists_the_shown_hands_in_the_order_they_were_shown_D8():
    """The result panel and the deal log tell one story: the last caller's hand first, then clockwise."""
    state = table(players=3)
    deal(state, TEN_A, TRYNKI, LOW)  # seats 1, 2, 0 in the order of play; each shown hand beats the last (D9)
    act(state, "bet", 1, 10)
    act(state, "call", 2)
    events = act(state, "call", 0)
    assert shown_order(events) == [0, 1, 2]
    assert [hand["seat"] for hand in state.last_result["shown"]] == [0, 1, 2]
