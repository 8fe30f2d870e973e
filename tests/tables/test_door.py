"""The one door: every change to a table, with every chip it moves written to the ledger in the same transaction."""

import pytest

from tables import services
from tables.models import ClientMessage, Deal, Table, TableSeat
from wallet.accounts import bots_pool_account, house_account, house_takings, pot_account, stack_account
from wallet.selectors import balance_of
from wallet.services import fund_bots

from .conftest import audit_clean, ledger_matches_engine, make_user, start_deal, state_of


def refused(code, call, *args, **kwargs):
    with pytest.raises(services.DoorError) as error:
        call(*args, **kwargs)
    assert error.value.code == code, error.value.message
    assert error.value.message
    return error.value


@pytest.mark.parametrize(
    "family, ante, seats, code",
    [
        ("poker", 10, 4, "bad_field"),
        ("classic", 0, 4, "out_of_range"),
        ("classic", "10", 4, "out_of_range"),
        ("classic", 10, 7, "out_of_range"),
        ("classic", 10, 1, "out_of_range"),
        ("bulgarian", 10, 9, "out_of_range"),
    ],
)
def test_a_table_has_a_family_an_ante_and_2_to_6_or_8_seats(players, family, ante, seats, code):
    refused(code, services.create_table, players[0], family, ante, seats, False)
    assert not Table.objects.exists()


def test_a_table_may_be_created_with_each_family(players):
    classic = services.create_table(players[0], "classic", 10, 6, False)
    bulgarian = services.create_table(players[0], "bulgarian", 5, 8, True)
    assert (classic.family, classic.seats, classic.is_open) == ("classic", 6, True)
    assert (bulgarian.family, bulgarian.seats, bulgarian.bots_allowed) == ("bulgarian", 8, True)
    assert state_of(bulgarian.pk).family == "bulgarian"


def test_sitting_down_costs_20_to_100_antes_from_the_balance_S10(classic_table, players):
    ann = players[0]
    refused("out_of_range", services.sit, classic_table.pk, ann, 190)
    refused("out_of_range", services.sit, classic_table.pk, ann, 1010)
    assert balance_of(ann) == 10_000
    answer = services.sit(classic_table.pk, ann, 400, seat=2)
    assert answer.reply["type"] == "ack"
    assert balance_of(ann) == 9_600
    assert stack_account(ann, classic_table.pk).balance == 400
    assert TableSeat.objects.get(table=classic_table).seat == 2
    audit_clean()


def test_one_seat_per_player_and_one_player_per_seat(classic_table, players):
    ann, boris, _ = players
    services.sit(classic_table.pk, ann, 400, seat=0)
    refused("already_seated", services.sit, classic_table.pk, ann, 400, seat=1)
    refused("seat_taken", services.sit, classic_table.pk, boris, 400, seat=0)
    assert balance_of(ann) == 9_600 and balance_of(boris) == 10_000


def test_a_balance_too_low_to_buy_in_changes_nothing(classic_table, staff):
    poor = make_user("poor@example.com")
    from wallet.services import credit

    credit(poor, 100, reason="a little", staff=staff)
    refused("wallet", services.sit, classic_table.pk, poor, 200)
    assert balance_of(poor) == 100
    assert not TableSeat.objects.exists()
    assert state_of(classic_table.pk).version == 0


def test_standing_up_returns_the_stack_to_the_balance_S10(classic_table, players):
    ann = players[0]
    services.sit(classic_table.pk, ann, 400)
    services.stand(classic_table.pk, ann)
    assert balance_of(ann) == 10_000
    assert stack_account(ann, classic_table.pk).balance == 0
    assert not TableSeat.objects.exists()
    audit_clean()


def test_adding_chips_between_deals_up_to_100_antes_D15(classic_table, players):
    ann = players[0]
    services.sit(classic_table.pk, ann, 400)
    services.act(classic_table.pk, ann, {"kind": "add_chips", "amount": 600}, client_id="more")
    # The same id again is answered again and adds nothing.
    services.act(classic_table.pk, ann, {"kind": "add_chips", "amount": 600}, client_id="more")
    assert stack_account(ann, classic_table.pk).balance == 1000
    assert balance_of(ann) == 9_000
    refused("out_of_range", services.act, classic_table.pk, ann, {"kind": "add_chips", "amount": 1})
    assert ClientMessage.objects.count() == 1
    audit_clean()


def test_a_whole_classic_deal_moves_every_chip_through_the_ledger_S8(classic_table, players):
    ann, boris, _ = players
    # Dealer is seat 0, so seat 1 (Boris) is dealt first and acts first.
    start_deal(classic_table, [ann, boris], hands=["Ah Ad As", "Kh 9s 7d"])
    ledger_matches_engine(classic_table.pk)
    assert pot_account(classic_table.pk).balance == 20
    services.act(classic_table.pk, boris, {"kind": "bet", "amount": 20})
    ledger_matches_engine(classic_table.pk)
    services.act(classic_table.pk, ann, {"kind": "call"})
    # Pot 60, rake 3 % rounded down = 1 to the house; Boris's three foreheads take 59.
    ledger_matches_engine(classic_table.pk)
    assert stack_account(boris, classic_table.pk).balance == 400 - 30 + 59
    assert stack_account(ann, classic_table.pk).balance == 400 - 30
    assert pot_account(classic_table.pk).balance == 0
    assert house_account(classic_table.pk).balance == house_takings() == 1  # the rake stays with its table
    deal = Deal.objects.get(table=classic_table)
    assert (deal.number, deal.pot, deal.rake) == (1, 60, 1)
    assert deal.ended_at is not None
    assert [w["player"] for w in deal.winners] == [str(boris.pk)]
    assert any(e["type"] == "showdown_shown" for e in deal.events)
    audit_clean()


def test_a_split_deal_is_recorded_with_its_pot_and_rake_S7_D10(classic_table, players):
    ann, boris, _ = players
    # Both hold 31 in one suit: a tie of two, and both answer Split.
    start_deal(classic_table, [ann, boris], hands=["Ah Kh Qh", "As Ks Qs"])
    services.act(classic_table.pk, boris, {"kind": "bet", "amount": 20})
    services.act(classic_table.pk, ann, {"kind": "call"})
    for player in (ann, boris):
        services.act(classic_table.pk, player, {"kind": "split"})
    # Pot 60, rake 1; 59 split 29/30, the odd chip to the first tied clockwise from the dealer (seat 0): Boris.
    ledger_matches_engine(classic_table.pk)
    assert stack_account(boris, classic_table.pk).balance == 400 - 30 + 30
    assert stack_account(ann, classic_table.pk).balance == 400 - 30 + 29
    deal = Deal.objects.get(table=classic_table)
    assert (deal.pot, deal.rake) == (60, 1)
    assert sorted(w["player"] for w in deal.winners) == sorted([str(ann.pk), str(boris.pk)])
    audit_clean()


def test_a_bulgarian_deal_where_everyone_else_folds(bulgarian_table, players):
    ann, boris, vera = players
    state = start_deal(bulgarian_table, [ann, boris, vera])
    first = [ann, boris, vera][state.turn]
    legal = {legal.kind: legal for legal in state.legal_actions(state.turn)}
    services.act(bulgarian_table.pk, first, {"kind": "dark", "amount": legal["dark"].min})
    for _ in range(2):
        state = state_of(bulgarian_table.pk)
        services.act(bulgarian_table.pk, [ann, boris, vera][state.turn], {"kind": "fold"})
    state = state_of(bulgarian_table.pk)
    assert state.phase == "waiting"
    ledger_matches_engine(bulgarian_table.pk)
    assert pot_account(bulgarian_table.pk).balance == 0
    # Pot 30 antes + 10 dark = 40; more than antes went in, so the rake is 3 % rounded down = 1 (S8).
    assert stack_account(first, bulgarian_table.pk).balance == 400 - 10 - 10 + 40 - 1
    assert house_account(bulgarian_table.pk).balance == house_takings() == 1
    audit_clean()


def test_leaving_mid_deal_folds_at_once_and_the_chips_return_when_the_deal_is_over_S10(classic_table, players):
    ann, boris, vera = players
    state = start_deal(classic_table, [ann, boris, vera])
    by_seat = [ann, boris, vera]
    leaver = by_seat[state.turn]
    services.stand(classic_table.pk, leaver)
    # Folded at once, but the seat and the chips wait for the end of the deal.
    state = state_of(classic_table.pk)
    assert state.phase != "waiting"
    assert TableSeat.objects.filter(user=leaver).exists()
    assert balance_of(leaver) == 9_600
    refused("illegal_action", services.stand, classic_table.pk, leaver)
    # The next player folds too: the deal ends, and the leaver's 390 return to his balance.
    services.act(classic_table.pk, by_seat[state.turn], {"kind": "fold"})
    assert state_of(classic_table.pk).phase == "waiting"
    assert not TableSeat.objects.filter(user=leaver).exists()
    assert balance_of(leaver) == 10_000 - 10
    assert stack_account(leaver, classic_table.pk).balance == 0
    ledger_matches_engine(classic_table.pk)
    audit_clean()


def test_a_bot_buys_in_from_the_bots_pool_and_returns_there(players, staff):
    table = services.create_table(players[0], "classic", 10, 4, True)
    bot = make_user("bot1@bots.svara.local", is_bot=True, display_name="Bot 1")
    fund_bots(5_000, "seed-bots", staff=staff)
    services.sit(table.pk, bot, 500)
    assert bots_pool_account().balance == 4_500
    assert stack_account(bot, table.pk).balance == 500
    services.stand(table.pk, bot)
    assert bots_pool_account().balance == 5_000
    no_bots = services.create_table(players[0], "classic", 10, 4, False)
    refused("illegal_action", services.sit, no_bots.pk, bot, 500)
    audit_clean()


def test_staff_closing_a_table_mid_deal_stands_everybody_up_and_cashes_out(classic_table, players, staff):
    ann, boris, vera = players
    state = start_deal(classic_table, [ann, boris, vera])
    services.act(classic_table.pk, [ann, boris, vera][state.turn], {"kind": "bet", "amount": 20})
    services.close_table(classic_table.pk, staff=staff)
    table = Table.objects.get(pk=classic_table.pk)
    assert table.status == "closed"
    assert not TableSeat.objects.filter(table=table).exists()
    assert pot_account(table.pk).balance == 0
    assert sum(balance_of(p) for p in players) + house_takings() == 30_000
    refused("table_closed", services.sit, table.pk, ann, 400)
    audit_clean()
