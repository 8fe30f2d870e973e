"""Migrations 0003, 0004, 0008 and 0010 rewrite stored states of format 3 (session 1's packed form) as format 4 (a
positional array), format 4 as format 5 (a keyed object), and format 5 as format 6 (seats with their standing
choices), format 6 as the engine's format 7 (a server seed, a fairness record, seats with a seed): a table that was mid-deal, or between deals with its last result, reads back exactly as the same
play gives today."""

import importlib
import json
import random

import pytest

from tables.engine.play import Action, TableState

migration = importlib.import_module("tables.migrations.0003_state_as_text")
keyed = importlib.import_module("tables.migrations.0004_state_keyed")
standing = importlib.import_module("tables.migrations.0008_standing_choices")
fair_deals = importlib.import_module("tables.migrations.0011_fair_deals")
SEED = "5e" * 32

# Written by the format 4 engine (commit 3b9ee34) for the same play.
MID_DEAL_FORMAT_4 = '[4,8,"classic",10,false,50,0,0,0,1,"betting",3,20,-1,0,false,false,9,-1,-1,false,null,0,0,0,-1,[2,3,0],[],[],[],[],null,[["7","Alice",990,false,true,false,true,[9,28,10],0,0,false,false,false,false,false,null],null,["9","Bob",770,false,true,false,true,[26,8,19],2,20,false,false,false,false,false,null],["11","Carol",490,false,true,false,true,[13,35,30],0,0,false,false,false,false,false,null]]]'
AFTER_DEAL_FORMAT_4 = '[4,11,"classic",10,false,0,2,0,-1,1,"waiting",-1,0,-1,0,false,true,0,-1,-1,true,null,0,0,0,-1,[],[],[],[],[],[1,0,2,90,1,1,2,88,3,2,78362,3,125133,0,42761,"9"],[["7","Alice",970,false,false,false,false,null,0,0,false,false,false,false,false,null],null,["9","Bob",858,false,false,false,false,null,0,0,false,false,false,false,false,null],["11","Carol",470,false,false,false,false,null,0,0,false,false,false,false,false,null]]]'
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


def _shown_in_seat_order(state: TableState) -> TableState:
    """The stored result's shown hands, in seat order: engines before format 6 kept them in the order of play, today's
    in the order they were shown (D8); the hands themselves are the same."""
    if state.result is not None:
        data = state.to_json()
        data["result"]["shown"].sort(key=lambda hand: hand["seat"])
        state = TableState.from_json(data)
    return state


def _without_fair(state: TableState) -> TableState:
    """The play without its fairness fields (format 7): the old formats had none, and the fresh play's server seed is
    its own. The migration's record of a deal caught mid-deal is checked on its own."""
    data = state.to_json()
    data["server_seed"], data["fair"] = SEED, None
    return TableState.from_json(data)


def check_same_play(format_5: dict, until_waiting: bool) -> None:
    expected = _without_fair(_shown_in_seat_order(_play(until_waiting)))
    format_7 = fair_deals._format_6_to_7(standing._format_5_to_6(format_5), SEED)
    again = TableState.loads(json.dumps(format_7))
    assert again.server_seed == SEED
    if until_waiting:
        assert again.fair is None
    else:  # dealt before fair deals: a record that proves nothing, never shown as fair
        assert again.fair.stacked and again.fair.decks[0].dealt == [] and again.view(0)["fair"]["stacked"]
    again = _without_fair(_shown_in_seat_order(again))
    assert again == expected
    assert again.view(0) == expected.view(0) and again.last_result == expected.last_result
    if until_waiting:
        assert again.last_result is not None and again.phase == "waiting"
    else:
        assert again.phase == "betting" and again.seats[1].player is None


@pytest.mark.parametrize("stored, until_waiting", [(MID_DEAL_FORMAT_3, False), (AFTER_DEAL_FORMAT_3, True)])
def test_a_format_3_state_becomes_the_same_state_in_format_4_then_5(stored, until_waiting):
    format_4 = migration._format_3_to_4(json.loads(stored))
    check_same_play(keyed._format_4_to_5(format_4), until_waiting)


@pytest.mark.parametrize("stored, until_waiting", [(MID_DEAL_FORMAT_4, False), (AFTER_DEAL_FORMAT_4, True)])
def test_a_format_4_state_becomes_the_same_state_in_format_5(stored, until_waiting):
    converted = keyed._format_4_to_5(json.loads(stored))
    assert converted["format"] == 5 and converted["family"] == "classic"
    check_same_play(converted, until_waiting)


@pytest.mark.parametrize("broken", [
    "[4, 1, 2]", MID_DEAL_FORMAT_4.replace("[9,28,10]", "[9,28,99]"), MID_DEAL_FORMAT_4.replace(',null,["9"', ',[1],["9"'),
])
def test_a_format_4_state_it_cannot_read_is_refused(broken):
    with pytest.raises((ValueError, IndexError, TypeError, KeyError)):
        keyed._format_4_to_5(json.loads(broken))


def test_the_seat_of_a_bot_user_becomes_a_bot_seat_section_8(db):
    from django.apps import apps

    from tables import services
    from tables.models import Table

    from .conftest import make_user

    person = make_user("alice@example.com", display_name="Alice")
    bot = make_user("bot1@bots.svara.local", is_bot=True, display_name="Bot 1")
    table = services.create_table(person, "classic", 10, 4, True)
    stored = MID_DEAL_FORMAT_4.replace('"7","Alice"', f'"{person.pk}","Alice"').replace('"9","Bob"', f'"{bot.pk}","Bob"')
    Table.objects.filter(pk=table.pk).update(state=stored)
    keyed.forwards(apps, None)
    standing.forwards(apps, None)
    fair_deals.forwards(apps, None)
    state = TableState.loads(Table.objects.get(pk=table.pk).state)
    assert [s.bot for s in state.seats] == [False, False, True, False] and state.has_bot
    assert state.seats[2].player == str(bot.pk) and state.seats[2].cards == json.loads(MID_DEAL_FORMAT_4)[-1][2][7]


def test_a_format_5_state_it_cannot_read_is_refused():
    format_5 = keyed._format_4_to_5(json.loads(MID_DEAL_FORMAT_4))
    del format_5["seats"][0]["choice"]
    with pytest.raises(ValueError):
        standing._format_5_to_6(format_5)
    with pytest.raises(ValueError):
        standing._format_5_to_6({**format_5, "format": 4})


def test_a_format_6_state_it_cannot_read_is_refused():
    format_6 = standing._format_5_to_6(keyed._format_4_to_5(json.loads(MID_DEAL_FORMAT_4)))
    with pytest.raises(ValueError):
        fair_deals._format_6_to_7({**format_6, "format": 5}, SEED)
    del format_6["seats"][0]["on_tie"]
    with pytest.raises(ValueError):
        fair_deals._format_6_to_7(format_6, SEED)
