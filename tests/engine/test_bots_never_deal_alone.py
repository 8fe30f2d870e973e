"""The platform's bots never deal among themselves (docs/bots.md; issue 12 item 12): a deal starts only with a
person in it. Before, two bots that had pressed New deal dealt a hand between themselves as soon as the person
sat out (his New deal clock ran out, or he sat out or stood up himself)."""

from tables.engine.play import Action

from .play_helpers import TEN_A, TEN_B, TRYNKI, act, deal, table


def _after_a_deal_with_two_bots():
    """Seat 0 a person, seats 1 and 2 bots; one deal played, both bots pressed New deal, the person did not."""
    state = table(players=3, bots=(1, 2))
    deal(state, TEN_A, TEN_B, TRYNKI)
    act(state, "fold", 1)
    act(state, "fold", 2)
    assert state.phase == "waiting"
    act(state, "new_deal", 1)
    act(state, "new_deal", 2)
    return state


def test_bots_do_not_deal_when_the_persons_new_deal_clock_runs_out_section_9():
    state = _after_a_deal_with_two_bots()
    events = state.apply(Action("timeout"), __import__("random").Random(1))
    assert state.seats[0].sitting_out
    assert "deal_started" not in [e.type for e in events]
    assert state.phase == "waiting" and state.clock is None  # nothing runs for the bots alone


def test_bots_do_not_deal_when_the_person_sits_out_or_stands_up():
    for kind in ("sit_out", "stand"):
        state = _after_a_deal_with_two_bots()
        events = act(state, kind, 0)
        assert "deal_started" not in [e.type for e in events], kind
        assert state.phase == "waiting" and state.clock is None, kind


def test_the_deal_starts_once_the_person_comes_back():
    state = _after_a_deal_with_two_bots()
    state.apply(Action("timeout"), __import__("random").Random(1))
    events = state.apply(Action("back", seat=0), __import__("random").Random(2))
    assert "deal_started" in [e.type for e in events] and sorted(state.order) == [0, 1, 2]


def test_people_and_bots_together_deal_as_before():
    state = table(players=2, bots=(1,))
    deal(state, TEN_A, TEN_B)
    assert state.phase != "waiting"
