"""Migration 0003 rewrites stored states of format 3 (session 1's packed form) as the engine's format 4: a table
that was mid-deal, or between deals with its last result, reads back exactly as the same play gives today."""

import importlib
import json
import random

import pytest

from tables.engine.play import Action, TableState

migration = importlib.import_module("tables.migrations.0003_state_as_text")

# Written by the format 3 engine (commit c148ac5) for the play in `_play`: after a bet, and after the deal.
MID_DEAL_FORMAT_3 = '[3, "iCAAAAAAAAAAKAAAAAAAAADIAAAAAAAAAAAAAAAAAAAABAAAAAQAAAAMAAAAUAAAA/////wAAAAAAAAAAAAAAAAkAAAD//////////wAAAAD/////AAAAAAAAAAAAAAAA/////wQAAADeAwAAAAAAAAoAAAAJpwAAAAAAAAAAAAAAAAAA/////wIDAAAUAAAACgQAABoyAQDqAQAAAAAAAAoAAADN6AEAAwAAAAIAAAADAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", "7", "Alice", null, null, "9", "Bob", "11", "Carol"]'
AFTER_DEAL_FORMAT_3 = '[3, "iCwAAAAAAAAAKAAAAAAAAAAAAAAACAAAAAAAAAP////8BAAAAAAAAAP////8AAAAA/////wAAAAAAAAAAAQAAAAAAAAD//////////wEAAAD/////AAAAAAAAAAAAAAAA/////wQAAADKAwAAAAAAAAAAAAD/////AAAAAAAAAAAAAAAA/////1oDAAAAAAAAAAAAAP/////WAQAAAAAAAAAAAAD/////AAAAAAAAAAAAAAAAAAAAAAAAAAABAAAAAAAAAAIAAABaAAAAAQAAAAEAAAACAAAAWAAAAAMAAAACAAAAGjIBAAMAAADN6AEAAAAAAAmnAAA=", "7", "Alice", null, null, "9", "Bob", "11", "Carol", "9"]'


def _play(until_waiting: bool) -> TableState:
    state = TableState.new("classic", 10, 4)
    state.apply(Action("sit", seat=0, player="7", name="Alice", amount=1000))
    state.apply(Action("sit", seat=2, player="9", name="Bob", amount=800))
    state.apply(Action("sit", seat=3, player="11", name="Carol", amount=500))
    rng = random.Random(5)
    for seat in (0, 2, 3):
        state.apply(Action("new_deal", seat=seat), rng)
    state.apply(Action("open", seat=state.turn, card=1))
    state.apply(Action("bet", seat=state.turn, amount=20))
    while until_waiting and state.phase != "waiting":
        seat = state.turn if state.turn >= 0 else state.clock.seats[0]
        moves = [lg for lg in state.legal_actions(seat) if lg.kind in ("call", "check", "show", "split", "decline", "fold")]
        state.apply(Action(moves[0].kind, seat=seat), rng)
    return state


@pytest.mark.parametrize("stored, until_waiting", [(MID_DEAL_FORMAT_3, False), (AFTER_DEAL_FORMAT_3, True)])
def test_a_format_3_state_becomes_the_same_state_in_format_4(stored, until_waiting):
    converted = json.dumps(migration._format_3_to_4(json.loads(stored)))
    expected = _play(until_waiting)
    again = TableState.loads(converted)
    assert again == expected
    assert again.view(0) == expected.view(0) and again.last_result == expected.last_result
    if until_waiting:
        assert again.last_result is not None and again.phase == "waiting"
    else:
        assert again.phase == "betting" and again.seats[1].player is None
