"""Issue 11, defect 7: what `legal` offers is what the door takes. The buy_in entry's min/max is its price and an
amount equal to it is taken; an amount outside the offered range is `out_of_range` (docs/protocol.md), not
`illegal_action`, and changes nothing."""

import pytest

from tables import services
from tables.models import Table
from tables.protocol import BadMessage, parse_frame
from tests.tables.conftest import audit_clean, start_deal, state_of


def to_act(table):
    state = state_of(table.pk)
    seat = state.clock.seats[0] if state.clock else None
    return state, seat


def version_of(table):
    return Table.objects.get(pk=table.pk).version


def refused(table, user, action):
    before = version_of(table)
    with pytest.raises(services.DoorError) as error:
        services.act(table.pk, user, action)
    assert version_of(table) == before  # nothing changed
    return error.value.code


def test_a_bet_outside_the_offered_range_is_out_of_range_D2(classic_table, players):
    start_deal(classic_table, players)
    state, seat = to_act(classic_table)
    legal = {entry.kind: entry for entry in state.legal_moves(seat)}
    user = players[seat]
    assert "bet" in legal
    assert refused(classic_table, user, {"kind": "bet", "amount": legal["bet"].max + 1}) == "out_of_range"
    assert refused(classic_table, user, {"kind": "bet", "amount": legal["bet"].min - 1}) == "out_of_range"
    services.act(classic_table.pk, user, {"kind": "bet", "amount": legal["bet"].min})
    audit_clean()


def test_a_call_with_another_amount_than_the_call_is_out_of_range(classic_table, players):
    start_deal(classic_table, players)
    state, seat = to_act(classic_table)
    bet = next(e for e in state.legal_moves(seat) if e.kind == "bet")
    services.act(classic_table.pk, players[seat], {"kind": "bet", "amount": bet.min})
    state, seat = to_act(classic_table)
    call = next(e for e in state.legal_moves(seat) if e.kind == "call")
    assert refused(classic_table, players[seat], {"kind": "call", "amount": call.min + 5}) == "out_of_range"
    services.act(classic_table.pk, players[seat], {"kind": "call", "amount": call.min})


def test_buy_in_takes_its_offered_price_as_amount_and_refuses_another_D11(classic_table, players):
    # Two tied hands first and second in the dealing order, a weak third: all check, the tied pair plays on, and
    # the third is offered to buy into the svara (classic, §7).
    start_deal(classic_table, players, ["Kh Qh 7d", "Ks Qs 7c", "7h 8s 9d"])
    for _ in range(20):
        state = state_of(classic_table.pk)
        if state.phase == "svara_buy_in":
            break
        seat = state.clock.seats[0]
        kinds = [e.kind for e in state.legal_moves(seat)]
        kind = next(k for k in ("check", "fold_hand", "play_on", "show") if k in kinds)
        services.act(classic_table.pk, players[seat], {"kind": kind})
    state, seat = to_act(classic_table)
    assert state.phase == "svara_buy_in"
    offer = next(e for e in state.legal_moves(seat) if e.kind == "buy_in")
    assert offer.min == offer.max  # the price
    frame = f'{{"type": "buy_in", "amount": {offer.min}}}'
    assert parse_frame(frame, classic_table.pk).command.amount == offer.min  # no "'buy_in' takes no amount"
    assert refused(classic_table, players[seat], {"kind": "buy_in", "amount": offer.min + 1}) == "out_of_range"
    stack = state.seats[seat].stack
    services.act(classic_table.pk, players[seat], {"kind": "buy_in", "amount": offer.min})
    after = state_of(classic_table.pk)
    assert after.seats[seat].stack == stack - offer.min and after.seats[seat].in_deal
    audit_clean()


def test_an_amount_on_a_move_that_takes_none_is_still_bad_field():
    with pytest.raises(BadMessage) as error:
        parse_frame('{"type": "fold", "amount": 10}', 1)
    assert error.value.code == "bad_field"
