"""Standing choices (docs/protocol.md "Standing choices"): "Deal me in", "Show my hand when it loses" / "Fold it",
"Split" / "Play on" given ahead. The door answers for the player in the same transaction as the change that raises
the prompt, inside the rules (RULES §6, §7, §10); the choice is his own, in his own view only."""

import json

import pytest

from tables import selectors, services
from tables.models import Table

from .conftest import audit_clean, ledger_matches_engine, state_of

LOSING = ["Ah Kh Qh", "9s 8d 7c"]  # dealt Boris (seat 1, first after the dealer), then Ann (seat 0): Ann's loses
TIED = ["Ah Kh 7d", "As Ks 8d"]  # 21 each: a tie on top


def seated(table, ann, boris):
    services.sit(table.pk, ann, 400, seat=0)
    services.sit(table.pk, boris, 400, seat=1)


def choose(table, user, choice):
    return services.act(table.pk, user, {"kind": "standing", "choice": choice})


def both_check(table, ann, boris):
    services.act(table.pk, boris, {"kind": "check"})
    return services.act(table.pk, ann, {"kind": "check"})


def test_deal_me_in_presses_new_deal_for_you_after_every_deal_until_unticked_S10(classic_table, players):
    ann, boris, _ = players
    seated(classic_table, ann, boris)
    choose(classic_table, ann, "deal_me_in")
    assert state_of(classic_table.pk).seats[0].ready  # pressed at once, no clock needed
    services.act(classic_table.pk, boris, {"kind": "new_deal"})
    assert state_of(classic_table.pk).phase == "betting"

    services.act(classic_table.pk, boris, {"kind": "fold"})  # the deal ends: Ann is dealt in again at once
    state = state_of(classic_table.pk)
    assert state.phase == "waiting" and state.seats[0].ready and not state.seats[1].ready
    assert state.clock.kind == "new_deal" and list(state.clock.seats) == [1]  # only Boris's 30 s run
    services.act(classic_table.pk, boris, {"kind": "new_deal"})
    assert state_of(classic_table.pk).deal_no == 2 and state_of(classic_table.pk).phase == "betting"

    choose(classic_table, ann, "deal_me_out")
    turn = state_of(classic_table.pk).turn
    services.act(classic_table.pk, ann if turn == 0 else boris, {"kind": "fold"})
    assert not state_of(classic_table.pk).seats[0].ready
    ledger_matches_engine(classic_table.pk)
    audit_clean()


def test_deal_me_in_does_not_bring_back_a_player_who_sat_out_S10(classic_table, players):
    ann, boris, _ = players
    seated(classic_table, ann, boris)
    services.act(classic_table.pk, ann, {"kind": "sit_out"})
    choose(classic_table, ann, "deal_me_in")  # sitting out was his own choice: it stands
    assert state_of(classic_table.pk).seats[0].sitting_out and not state_of(classic_table.pk).seats[0].ready
    services.act(classic_table.pk, ann, {"kind": "back"})
    assert state_of(classic_table.pk).seats[0].ready


def test_fold_it_folds_a_losing_hand_unseen_at_once_S6(classic_table, players):
    ann, boris, _ = players
    seated(classic_table, ann, boris)
    choose(classic_table, ann, "fold_if_losing")
    services.queue_test_deck(classic_table.pk, LOSING)
    for user in (ann, boris):
        services.act(classic_table.pk, user, {"kind": "new_deal"})
    ack = both_check(classic_table, ann, boris)
    state = state_of(classic_table.pk)
    assert state.phase == "waiting"
    assert [w["seat"] for w in state.last_result["winners"]] == [1]
    types = [event["type"] for event in ack.change.events]
    assert "folded_unseen" in types and "pot_awarded" in types  # the actor's change holds the answer's events
    seen_by_boris = json.dumps(state.view(1), ensure_ascii=False)
    assert not any(card in seen_by_boris for card in ("9♠", "8♦", "7♣"))  # nobody ever learns them
    ledger_matches_engine(classic_table.pk)
    audit_clean()


def test_show_it_shows_a_losing_hand_at_once_S6(classic_table, players):
    ann, boris, _ = players
    seated(classic_table, ann, boris)
    choose(classic_table, ann, "show_if_losing")
    services.queue_test_deck(classic_table.pk, LOSING)
    for user in (ann, boris):
        services.act(classic_table.pk, user, {"kind": "new_deal"})
    both_check(classic_table, ann, boris)
    state = state_of(classic_table.pk)
    assert state.phase == "waiting"
    assert {shown["seat"] for shown in state.last_result["shown"]} == {0, 1}


def test_a_choice_made_while_its_prompt_is_up_answers_at_once_S6(classic_table, players):
    ann, boris, _ = players
    seated(classic_table, ann, boris)
    services.queue_test_deck(classic_table.pk, LOSING)
    for user in (ann, boris):
        services.act(classic_table.pk, user, {"kind": "new_deal"})
    both_check(classic_table, ann, boris)
    asked = state_of(classic_table.pk)
    assert asked.phase == "showdown" and asked.clock.kind == "show" and list(asked.clock.seats) == [0]
    choose(classic_table, ann, "fold_if_losing")
    assert state_of(classic_table.pk).phase == "waiting"


def test_play_on_ahead_plays_on_in_a_svara_at_once_S7(classic_table, players):
    ann, boris, _ = players
    seated(classic_table, ann, boris)
    choose(classic_table, ann, "play_on_on_tie")
    services.queue_test_deck(classic_table.pk, TIED)
    for user in (ann, boris):
        services.act(classic_table.pk, user, {"kind": "new_deal"})
    both_check(classic_table, ann, boris)
    state = state_of(classic_table.pk)
    assert state.svara_chain == 1 and state.phase != "split_choice"  # one who plays on is enough


def test_split_ahead_from_both_splits_the_pot_at_once_S7(classic_table, players):
    ann, boris, _ = players
    seated(classic_table, ann, boris)
    choose(classic_table, ann, "split_on_tie")
    choose(classic_table, boris, "split_on_tie")
    services.queue_test_deck(classic_table.pk, TIED)
    for user in (ann, boris):
        services.act(classic_table.pk, user, {"kind": "new_deal"})
    both_check(classic_table, ann, boris)
    state = state_of(classic_table.pk)
    assert state.phase == "waiting" and state.last_result["kind"] == "split"
    ledger_matches_engine(classic_table.pk)


def test_one_split_ahead_still_waits_for_the_other_S7(classic_table, players):
    ann, boris, _ = players
    seated(classic_table, ann, boris)
    choose(classic_table, ann, "split_on_tie")
    services.queue_test_deck(classic_table.pk, TIED)
    for user in (ann, boris):
        services.act(classic_table.pk, user, {"kind": "new_deal"})
    both_check(classic_table, ann, boris)
    state = state_of(classic_table.pk)
    assert state.phase == "split_choice" and list(state.clock.seats) == [1]


def test_a_standing_choice_is_in_the_players_own_snapshot_only(classic_table, players):
    ann, boris, vera = players
    seated(classic_table, ann, boris)
    choose(classic_table, ann, "fold_if_losing")
    committed = selectors.committed(classic_table.pk)
    assert selectors.snapshot(committed, ann.pk)["state"]["standing"] == {
        "deal_me_in": False, "if_losing": "fold", "on_tie": None, "seed": None,
    }
    assert selectors.snapshot(committed, boris.pk)["state"]["standing"]["if_losing"] is None
    assert selectors.snapshot(committed, vera.pk)["state"]["standing"] is None
    assert selectors.snapshot(committed, None)["state"]["standing"] is None
    assert "fold" not in json.dumps(selectors.snapshot(committed, boris.pk)["state"]["seats"])


@pytest.mark.parametrize("choice", [None, "always", 3, ["deal_me_in"]])
def test_a_bad_standing_choice_is_refused_and_changes_nothing(classic_table, players, choice):
    ann, boris, _ = players
    seated(classic_table, ann, boris)
    version = Table.objects.get(pk=classic_table.pk).version
    with pytest.raises(services.DoorError) as error:
        services.act(classic_table.pk, ann, {"kind": "standing", "choice": choice})
    assert error.value.code == "bad_field" and "deal_me_in" in error.value.message
    assert Table.objects.get(pk=classic_table.pk).version == version


def test_only_a_seated_player_has_standing_choices(classic_table, players):
    vera = players[2]
    with pytest.raises(services.DoorError) as error:
        choose(classic_table, vera, "deal_me_in")
    assert error.value.code == "not_seated"


def test_a_new_player_in_a_freed_seat_starts_with_no_standing_choice(classic_table, players):
    ann, boris, vera = players
    seated(classic_table, ann, boris)
    choose(classic_table, ann, "deal_me_in")
    services.stand(classic_table.pk, ann)
    services.sit(classic_table.pk, vera, 400, seat=0)
    seat = state_of(classic_table.pk).seats[0]
    assert (seat.deal_me_in, seat.if_losing, seat.on_tie) == (False, None, None)


