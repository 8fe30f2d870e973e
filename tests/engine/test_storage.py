"""The stored form (docs/engine.md "Storage"): one flat JSON text, lossless, readable, copied rather than shared,
and refused when it is not ours."""

from __future__ import annotations

import json

import pytest

from tables.engine.play import STORED_FORMAT, Action, TableState

from .play_helpers import TEN_A, TRYNKI, deal, table


def roundtrip(state: TableState) -> TableState:
    return TableState.loads(state.dumps())


def test_a_mid_deal_state_comes_back_equal_with_every_seat_field():
    state = table(players=3)
    deal(state, TRYNKI, TEN_A, "Js 9d 8c")
    state.apply(Action("open", seat=state.turn, card=1))
    again = roundtrip(state)
    assert again == state and again.dumps() == state.dumps()
    for mine, theirs in zip(state.seats, again.seats, strict=True):
        for name in type(mine).__slots__:
            assert getattr(mine, name) == getattr(theirs, name), name
    assert again.view(1) == state.view(1)
    assert again.legal_actions(again.turn) == state.legal_actions(state.turn)


def test_the_stored_text_is_plain_json_naming_the_family_phase_and_players():
    state = table(players=2)
    deal(state, TRYNKI, TEN_A)
    data = json.loads(state.dumps())
    assert data[0] == STORED_FORMAT == 4
    assert data[1] == state.version and "classic" in data and "betting" in data
    seats = data[-1]
    assert [row[0] if row else None for row in seats] == [s.player for s in state.seats]
    assert TableState.from_json(data) == state


def test_chips_beyond_32_bits_come_back():
    state = table(players=2, ante=50_000_000)  # stacks of 5e9 chips
    deal(state, TRYNKI, TEN_A)
    again = roundtrip(state)
    assert [s.stack for s in again.seats] == [s.stack for s in state.seats] and again.pot == state.pot


def test_the_last_result_with_its_points_comes_back():
    state = table(players=2)
    deal(state, TRYNKI, TEN_A)
    while state.phase != "waiting":
        state.apply(Action("fold", seat=state.turn) if state.turn == 0 else Action("check", seat=state.turn))
    assert state.last_result is not None
    assert roundtrip(state).last_result == state.last_result


def test_the_loaded_state_shares_nothing_with_the_json_values_it_came_from():
    state = table(players=2)
    deal(state, TRYNKI, TEN_A)
    data = state.to_json()
    again = TableState.from_json(data)
    data[-1][0][7].clear()  # the first seat's cards in the values
    assert again.seats[0].cards == state.seats[0].cards and len(again.seats[0].cards) == 3


def test_to_json_is_a_copy_that_later_play_does_not_change():
    state = table(players=2)
    deal(state, TRYNKI, TEN_A)
    before = state.to_json()
    text = json.dumps(before)
    state.apply(Action("open", seat=state.turn, card=2))
    assert json.dumps(before) == text


@pytest.mark.parametrize("stored", [
    "", "null", "{}", "[]", "[3, \"iAAA\"]", "[4]", "not json", "[4" + ", 0" * 31 + ", []]",
])
def test_a_text_not_of_this_format_is_refused(stored):
    with pytest.raises(ValueError):
        TableState.loads(stored)


def test_a_stored_state_with_a_broken_seat_or_unknown_phase_is_refused():
    state = table(players=2)
    data = state.to_json()
    broken_seat = json.loads(json.dumps(data))
    broken_seat[-1][0] = ["7", "Alice", 100]
    unknown_phase = json.loads(json.dumps(data))
    unknown_phase[10] = "dancing"
    too_many_seats = json.loads(json.dumps(data))
    too_many_seats[-1] = too_many_seats[-1] * 4
    phase_not_a_name = json.loads(json.dumps(data))
    phase_not_a_name[10] = ["betting"]
    seat_as_text = json.loads(json.dumps(data))
    seat_as_text[-1][0] = "abcdefghijklmnop"  # sixteen characters, as many as a seat row has fields
    version_as_text = json.loads(json.dumps(data))
    version_as_text[1] = "3"
    format_as_float = json.loads(json.dumps(data))
    format_as_float[0] = 4.0
    for stored in (broken_seat, unknown_phase, too_many_seats, phase_not_a_name, seat_as_text, version_as_text,
                   format_as_float):
        with pytest.raises(ValueError):
            TableState.from_json(stored)
    with pytest.raises(ValueError):
        TableState.from_json({"format": 4})


def test_dumps_writes_the_fields_in_the_documented_order():
    from tables.engine.play import _FIELDS, _LISTS
    from tables.engine.seat import STORED_ROW

    state = table(players=3)
    deal(state, TRYNKI, TEN_A, "Js 9d 8c")
    state.apply(Action("open", seat=state.turn, card=2))
    data = json.loads(state.dumps())
    names = ("format", *_FIELDS, *_LISTS, "result", "seats")
    assert len(data) == len(names)
    for name, value in zip(names[1:-1], data[1:-1], strict=True):
        assert value == getattr(state, name), name
    for seat, row in zip(state.seats, data[-1], strict=True):
        assert row is not None and [getattr(seat, name) for name in STORED_ROW] == row
