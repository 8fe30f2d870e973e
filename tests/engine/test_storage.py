"""The stored form (docs/engine.md "Storage"): lossless through JSON, compact, and refused when it is not ours."""

from __future__ import annotations

import json

import pytest

from tables.engine.play import Action, TableState

from .play_helpers import TEN_A, TRYNKI, deal, table


def roundtrip(state: TableState) -> TableState:
    return TableState.from_json(json.loads(json.dumps(state.to_json())))


def test_a_mid_deal_state_comes_back_equal_with_every_seat_field():
    state = table(players=3)
    deal(state, TRYNKI, TEN_A, "Js 9d 8c")
    state.apply(Action("open", seat=state.turn, card=1))
    again = roundtrip(state)
    assert again == state
    for mine, theirs in zip(state.seats, again.seats, strict=True):
        for name in type(mine).__slots__:
            assert getattr(mine, name) == getattr(theirs, name), name
    assert again.view(1) == state.view(1)


def test_chips_beyond_32_bits_are_stored_as_64_bit_ints():
    state = table(players=2, ante=50_000_000)  # stacks of 5e9 chips
    deal(state, TRYNKI, TEN_A)
    stored = state.to_json()
    assert stored[1].startswith("q")
    again = roundtrip(state)
    assert [s.stack for s in again.seats] == [s.stack for s in state.seats] and again.pot == state.pot


def test_small_chips_are_stored_as_32_bit_ints():
    state = table(players=2)
    assert state.to_json()[1].startswith("i")


def test_the_last_result_with_its_points_comes_back():
    state = table(players=2)
    deal(state, TRYNKI, TEN_A)
    while state.phase != "waiting":
        state.apply(Action("fold", seat=state.turn) if state.turn == 0 else Action("check", seat=state.turn))
    assert state.last_result is not None
    assert roundtrip(state).last_result == state.last_result


@pytest.mark.parametrize("stored", [
    None, {}, [], [2, "i"], {"format": 1, "table": []}, [3, 7], [3, "xAAAA"], [3, "iAAA"], [3, "i" + "A" * 8],
])
def test_a_state_not_of_this_format_is_refused(stored):
    with pytest.raises(ValueError):
        TableState.from_json(stored)
