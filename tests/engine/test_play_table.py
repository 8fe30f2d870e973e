"""Seats, chips and the table (RULES §10, D15, D16), the rake (§8), the clocks between deals (§9), and
illegal actions that change nothing."""

import pytest

from tables.engine.events import SatOut, SeatVacated
from tables.engine.play import Action, IllegalAction, TableState

from .play_helpers import TEN_A, TEN_B, TRYNKI, act, chips, deal, first, frozen, table, types


def test_sitting_down_costs_20_to_100_antes():
    state = TableState.new("classic", 10, 3)
    before = frozen(state)
    for amount in (199, 1001, None, "500", True):
        with pytest.raises(IllegalAction):
            state.apply(Action("sit", seat=0, player="u", amount=amount))
    assert frozen(state) == before
    state.apply(Action("sit", seat=0, player="u", name="Ann", amount=200))
    with pytest.raises(IllegalAction, match="taken"):
        state.apply(Action("sit", seat=0, player="v", amount=200))
    with pytest.raises(IllegalAction, match="already sit"):
        state.apply(Action("sit", seat=1, player="u", amount=200))


def test_table_sizes_follow_the_family():
    with pytest.raises(ValueError):
        TableState.new("classic", 10, 7)
    assert len(TableState.new("bulgarian", 10, 8).seats) == 8
    with pytest.raises(ValueError):
        TableState.new("poker", 10, 4)


def test_adding_chips_between_deals_up_to_100_antes_D15():
    state = table(players=2, stacks=[500, 1000])
    with pytest.raises(IllegalAction, match="at most 100 antes"):
        act(state, "add_chips", 0, 501)
    act(state, "add_chips", 0, 500)
    assert state.seats[0].stack == 1000
    state = table(players=2, stacks=[500, 1000])
    deal(state, TEN_A, TRYNKI)
    with pytest.raises(IllegalAction, match="between deals"):
        act(state, "add_chips", 0, 10)


def test_less_than_one_ante_sits_out_until_adding_chips_D16():
    state = table(players=2, stacks=[1000, 200])
    deal(state, TEN_A, TRYNKI)
    act(state, "bet", 1, 20)
    act(state, "raise", 0, 190)
    events = act(state, "call", 1)
    assert state.seats[1].stack == 0 and state.seats[1].sitting_out
    assert SatOut(seat=1, reason="less than one ante (D16)") in events
    with pytest.raises(IllegalAction, match="add chips"):
        act(state, "back", 1)
    with pytest.raises(IllegalAction, match="add chips"):
        act(state, "new_deal", 1)
    act(state, "add_chips", 1, 300)
    act(state, "back", 1)
    assert not state.seats[1].sitting_out and state.seats[1].ready


def test_new_deal_after_a_deal_within_30_seconds_or_sit_out():
    state = table(players=3)
    deal(state, TEN_A, TEN_B, TRYNKI)
    act(state, "fold", 1)
    act(state, "fold", 2)
    assert state.phase == "waiting"
    assert state.clock.kind == "new_deal" and state.clock.seats == [0, 1, 2] and state.clock.seconds == 30
    act(state, "new_deal", 0)
    act(state, "new_deal", 2)
    events = state.apply(Action("timeout"), __import__("random").Random(1))
    assert SatOut(seat=1, reason="no New deal in time") in events
    assert "deal_started" in types(events) and (state.dealer, state.order) == (2, [0, 2])


def test_sit_out_and_come_back():
    state = table(players=3)
    act(state, "sit_out", 2)
    assert "back" in [lg.kind for lg in state.legal_actions(2)]
    act(state, "back", 2)
    with pytest.raises(IllegalAction, match="not sitting out"):
        act(state, "back", 2)


def test_leaving_mid_deal_folds_at_once_and_frees_the_seat_when_the_deal_is_over():
    state = table(players=3)
    deal(state, TEN_A, TEN_B, TRYNKI)
    events = act(state, "stand", 2)  # not his turn: he folds all the same
    assert types(events) == ["stood", "fold"] and state.seats[2].folded
    assert state.seats[2].player == "u2" and state.turn == 1  # the seat is his until the deal ends
    act(state, "bet", 1, 10)
    events = act(state, "fold", 0)
    vacated = [e for e in events if e.type == "seat_vacated"]
    assert vacated == [SeatVacated(seat=2, player="u2", stack=990)]
    assert state.seats[2].player is None
    assert chips(state) == 3000 - 990


def test_standing_between_deals_frees_the_seat_at_once():
    state = table(players=3)
    events = act(state, "stand", 1)
    assert events[-1] == SeatVacated(seat=1, player="u1", stack=1000)


def test_rake_is_3_percent_rounded_down_at_most_10_antes():
    state = table(players=2)
    deal(state, TEN_A, TRYNKI)
    act(state, "bet", 1, 20)
    act(state, "raise", 0, 990)
    events = act(state, "call", 1)
    award = first(events, "pot_awarded")
    assert award.pot == 2000 and award.rake == 60
    state = table(players=2, ante=1, stacks=[100, 100])
    deal(state, TEN_A, TRYNKI)
    act(state, "bet", 1, 2)
    act(state, "raise", 0, 99)
    events = act(state, "call", 1)
    award = first(events, "pot_awarded")
    assert award.pot == 200 and award.rake == 6
    state = table(players=2, ante=1, stacks=[100, 100])
    state.seats[0].stack = state.seats[1].stack = 1000  # a rich table to pass 10 antes of rake
    deal(state, TEN_A, TRYNKI)
    act(state, "bet", 1, 2)
    act(state, "raise", 0, 999)
    events = act(state, "call", 1)
    assert first(events, "pot_awarded").rake == 10


def test_no_rake_at_a_table_with_a_bot_section_8():
    state = table(players=2, bots=(1,))
    assert state.has_bot and state.seats[1].bot and not state.seats[0].bot
    deal(state, TEN_A, TRYNKI)
    act(state, "bet", 1, 20)
    act(state, "call", 0)
    events = act(state, "fold_hand", 1)
    assert first(events, "pot_awarded").rake == 0 and state.rake_taken == 0


def test_a_bot_leaving_mid_deal_counts_until_its_seat_is_vacated_section_8():
    state = table(players=3, bots=(2,))
    deal(state, TEN_A, TEN_B, TRYNKI)
    act(state, "bet", 1, 20)
    act(state, "stand", 2)  # the bot leaves: he folds now, his seat frees at the deal's end
    assert state.seats[2].leaving and state.has_bot
    assert TableState.loads(state.dumps()).has_bot  # the seat's flag is stored
    events = act(state, "fold", 2 if state.turn == 2 else state.turn)
    award = first(events, "pot_awarded")
    assert award.rake == 0 and state.seats[2].player is None and not state.has_bot
    # The next deal, bot-free, is raked again.
    deal(state, TEN_A, TRYNKI)
    act(state, "bet", state.turn, 20)
    events = act(state, "call", state.turn)
    events += act(state, "fold_hand", state.turn) if state.phase == "showdown" else []
    assert first(events, "pot_awarded").rake > 0


def test_only_the_sit_action_says_bot_and_only_true_or_false():
    state = table(players=0, seats=2)
    with pytest.raises(IllegalAction, match="bot"):
        state.apply(Action("sit", seat=0, player="b", name="Bot", amount=1000, bot="yes"))
    state.apply(Action("sit", seat=0, player="b", name="Bot", amount=1000, bot=True))
    assert state.has_bot and TableState.from_json(state.to_json()).seats[0].bot
    state.apply(Action("stand", seat=0))
    assert not state.has_bot


def test_illegal_actions_change_nothing_and_say_why():
    state = table(players=3)
    deal(state, TEN_A, TEN_B, TRYNKI)
    before = frozen(state)
    bad = [
        Action("check", seat=2), Action("bet", seat=1, amount=5), Action("bet", seat=1), Action("raise", seat=1, amount=20),
        Action("open", seat=1, card=7), Action("show", seat=1), Action("split", seat=1), Action("buy_in", seat=1),
        Action("new_deal", seat=1), Action("add_chips", seat=1, amount=5), Action("sit", seat=1, player="x", amount=500),
        Action("fly", seat=1), Action("check", seat=9), Action("timeout", seat=1), Action("back", seat=1),
        Action("bet", seat=1, amount=True), Action("bet", seat=1, amount=10.0),
    ]
    for action in bad:
        with pytest.raises(IllegalAction) as error:
            state.apply(action)
        assert str(error.value)
        assert frozen(state) == before, action
    with pytest.raises(IllegalAction, match="unknown field"):
        state.apply({"kind": "check", "seat": 1, "deck": ["Ah"]})
    with pytest.raises(IllegalAction, match="needs a kind"):
        state.apply({"seat": 1})
    assert frozen(state) == before


def test_version_grows_with_every_applied_action():
    state = table(players=2)
    v = state.version
    deal(state, TEN_A, TRYNKI)
    assert state.version == v + 2
    act(state, "open", 1, card=0)
    assert state.version == v + 3
