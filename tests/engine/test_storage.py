"""The stored form (docs/engine.md "Storage"): format 7, one JSON object with named fields, lossless, readable,
copied rather than shared, and refused when it is not ours."""

from __future__ import annotations

import json

import pytest

from tables.engine.cards import ALL_CARDS
from tables.engine.play import Action, TableState
from tables.engine.storage import SEAT_KEYS, STATE_KEYS, STORED_FORMAT

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


def test_the_stored_text_is_plain_json_naming_every_field_and_card():
    state = table(players=2)
    deal(state, TRYNKI, TEN_A)
    data = json.loads(state.dumps())
    assert data["format"] == STORED_FORMAT == 7
    assert data["version"] == state.version and data["family"] == "classic" and data["phase"] == "betting"
    seats = data["seats"]
    assert [seat["player"] if seat else None for seat in seats] == [s.player for s in state.seats]
    dealt_first = seats[state.order[0]]
    assert dealt_first["cards"] == ["Ah", "Kh", "Qh"] and dealt_first["opened"] == 0
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
    data["seats"][0]["cards"].clear()  # the first seat's cards in the values
    assert again.seats[0].cards == state.seats[0].cards and len(again.seats[0].cards) == 3


def test_to_json_is_a_copy_that_later_play_does_not_change():
    state = table(players=2)
    deal(state, TRYNKI, TEN_A)
    before = state.to_json()
    text = json.dumps(before)
    state.apply(Action("open", seat=state.turn, card=2))
    assert json.dumps(before) == text


@pytest.mark.parametrize("stored", [
    "", "null", "{}", "[]", "[3, \"iAAA\"]", "[4]", "not json", "[4" + ", 0" * 31 + ", []]", '{"format": 5}',
    '{"format": 4}', '{"format": "5"}',
])
def test_a_text_not_of_this_format_is_refused(stored):
    with pytest.raises(ValueError):
        TableState.loads(stored)


def _broken(data: dict, change) -> dict:
    copy = json.loads(json.dumps(data))
    change(copy)
    return copy


def test_a_stored_state_with_a_broken_seat_or_unknown_phase_is_refused():
    state = table(players=2)
    deal(state, TRYNKI, TEN_A)
    data = state.to_json()
    broken = [
        _broken(data, lambda d: d["seats"].__setitem__(0, {"player": "7", "name": "Alice", "stack": 100})),
        _broken(data, lambda d: d.__setitem__("phase", "dancing")),
        _broken(data, lambda d: d.__setitem__("seats", d["seats"] * 4)),
        _broken(data, lambda d: d.__setitem__("phase", ["betting"])),
        _broken(data, lambda d: d["seats"].__setitem__(0, "abcdefghijklmnop")),
        _broken(data, lambda d: d.__setitem__("version", "3")),
        _broken(data, lambda d: d.__setitem__("format", 5.0)),
        _broken(data, lambda d: d.__setitem__("extra", 1)),
        _broken(data, lambda d: d.pop("pot")),
        _broken(data, lambda d: d["seats"][0].__setitem__("cards", ["Ah", "Kh", "Zz"])),
        _broken(data, lambda d: d["seats"][0].__setitem__("cards", ["Ah", "Kh"])),
        _broken(data, lambda d: d["seats"][0].pop("stack")),
        _broken(data, lambda d: d.__setitem__("result", {"deal_no": 1})),
        _broken(data, lambda d: d.__setitem__("server_seed", None)),
        _broken(data, lambda d: d.__setitem__("fair", {"deal_no": 1})),
    ]
    for stored in broken:
        with pytest.raises(ValueError):
            TableState.from_json(stored)
    with pytest.raises(ValueError):
        TableState.from_json([4])


def test_dumps_writes_the_documented_fields_in_order():
    state = table(players=3)
    deal(state, TRYNKI, TEN_A, "Js 9d 8c")
    state.apply(Action("open", seat=state.turn, card=2))
    data = json.loads(state.dumps())
    assert tuple(data) == STATE_KEYS
    for name in STATE_KEYS[1:-2]:
        expected = getattr(state, name)
        if name == "fair":  # the fairness record of the running deal (docs/fair.md), by name too
            expected = expected.to_json()
            assert data[name]["decks"][0]["dealt"][0][1:] == ["Ah", "Kh", "Qh"]
        assert data[name] == expected, name
    for seat, row in zip(state.seats, data["seats"], strict=True):
        assert row is not None and tuple(row) == SEAT_KEYS
        for name in SEAT_KEYS:
            expected = getattr(seat, name)
            if name == "cards":
                expected = [ALL_CARDS[c].ascii for c in expected]
            assert row[name] == expected, name


def test_a_last_result_is_stored_by_name():
    state = table(players=2)
    deal(state, TRYNKI, TEN_A)
    trynki = state.order[0]  # dealt first
    while state.phase != "waiting":
        state.apply(Action("show" if state.phase == "showdown" else "check", seat=state.turn))
    result = json.loads(state.dumps())["result"]
    assert result["kind"] == "win" and result["reason"] == "best hand" and result["rake"] == 0
    assert result["winners"] == [{"seat": trynki, "player": f"u{trynki}", "amount": 20}]
    assert {tuple(hand["cards"]) for hand in result["shown"]} == {("Ah", "Kh", "Qh"), ("Ks", "9h", "7d")}
    assert roundtrip(state).last_result == state.last_result
