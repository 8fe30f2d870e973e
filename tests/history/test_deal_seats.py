"""The players of each deal (DealSeat), written by the door with the deal: who sat where, what each put in and won;
a svara is a deal of its own linked to the one before it (RULES §7)."""

import pytest
from django.db import IntegrityError, connection, transaction

from tables import services
from tables.models import Deal, DealSeat
from tests.tables.conftest import audit_clean, ledger_matches_engine, state_of

pytestmark = pytest.mark.django_db(transaction=True)

TIED = ["Ah Kh 7d", "As Ks 8d"]  # 21 each: a tie on top
LOSING = ["Ah Kh Qh", "9s 8d 7c"]  # dealt Boris (seat 1, first after the dealer), then Ann (seat 0): Ann's loses


def seated(table, *users):
    for seat, user in enumerate(users):
        services.sit(table.pk, user, 400, seat=seat)


def new_deal(table, *users):
    for user in users:
        services.act(table.pk, user, {"kind": "new_deal"})


def test_a_deal_keeps_its_players_and_their_results_S8(classic_table, players):
    ann, boris, _ = players
    seated(classic_table, ann, boris)
    services.queue_test_deck(classic_table.pk, LOSING)
    new_deal(classic_table, ann, boris)
    started = DealSeat.objects.filter(deal__table=classic_table)
    assert sorted((s.seat, s.name, s.stack, s.ended) for s in started) == [(0, "Ann", 400, False), (1, "Boris", 400, False)]
    services.act(classic_table.pk, boris, {"kind": "bet", "amount": 10})
    services.act(classic_table.pk, ann, {"kind": "call"})  # Boris's 31 against Ann's 10: Ann folds unseen or shows
    while state_of(classic_table.pk).phase != "waiting":
        services.act(classic_table.pk, ann, {"kind": "fold"})
    deal = Deal.objects.get(table=classic_table)
    rows = {s.user_id: s for s in deal.players.all()}
    a, b = rows[ann.pk], rows[boris.pk]
    assert a.ended and b.ended
    assert (a.put_in, a.won, a.net, a.won_pot, a.played) == (20, 0, -20, False, True)
    # The pot of 40 less the rake of 3 % rounded down (§8): 1.
    assert (b.put_in, b.won, b.net, b.won_pot, b.played) == (20, 39, 19, True, True)
    assert deal.pot == 40 and deal.rake == 1
    assert a.family == "classic" and a.table_id == classic_table.pk and a.started_at == deal.started_at
    ledger_matches_engine(classic_table.pk)


def test_a_fold_before_betting_played_nothing_beyond_the_ante(classic_table, players):
    ann, boris, _ = players
    seated(classic_table, ann, boris)
    new_deal(classic_table, ann, boris)
    services.act(classic_table.pk, boris, {"kind": "fold"})
    rows = {s.user_id: s for s in DealSeat.objects.all()}
    assert (rows[boris.pk].put_in, rows[boris.pk].played, rows[boris.pk].net) == (10, False, -10)
    assert (rows[ann.pk].won, rows[ann.pk].net, rows[ann.pk].won_pot) == (20, 10, True)  # antes only: no rake


def test_a_svara_is_a_deal_of_its_own_linked_to_the_one_before_S7(classic_table, players):
    ann, boris, _ = players
    seated(classic_table, ann, boris)
    services.queue_test_deck(classic_table.pk, TIED)
    new_deal(classic_table, ann, boris)
    services.act(classic_table.pk, boris, {"kind": "check"})
    services.act(classic_table.pk, ann, {"kind": "check"})
    for user in (ann, boris):  # both tied on top: play on (§7)
        if state_of(classic_table.pk).phase == "split_choice":
            services.act(classic_table.pk, user, {"kind": "play_on"})
    first, svara = Deal.objects.filter(table=classic_table).order_by("svara")
    assert (first.svara, svara.svara, svara.previous_id, svara.number) == (0, 1, first.pk, first.number)
    assert first.ended_at is not None and first.pot == 20 and first.winners == []
    assert all(s.tied and s.net == -10 for s in first.players.all())
    assert sorted(s.seat for s in svara.players.all()) == [0, 1]
    assert {s.stack for s in svara.players.all()} == {390}  # after the ante of the deal before
    folder = state_of(classic_table.pk).turn  # the first to act in the svara folds: the other takes its pot
    services.act(classic_table.pk, (ann, boris)[folder], {"kind": "fold"})
    svara.refresh_from_db()
    rows = {s.seat: s for s in svara.players.all()}
    winner, loser = rows[1 - folder], rows[folder]
    assert svara.ended_at is not None and svara.pot == 20 and svara.rake == 0  # antes only: no rake (§8)
    assert (winner.won, winner.net, winner.svara_won, winner.put_in, winner.played) == (20, 20, True, 0, False)
    assert (loser.won, loser.net, loser.svara_won) == (0, 0, False)
    # Over the chain each player's net is his stack's change.
    assert sum(s.net for s in DealSeat.objects.filter(user=boris)) == state_of(classic_table.pk).seats[1].stack - 400
    assert sum(s.net for s in DealSeat.objects.filter(user=ann)) == state_of(classic_table.pk).seats[0].stack - 400
    audit_clean()


def test_a_deals_players_are_records_never_deleted(classic_table, players):
    if connection.vendor != "postgresql":
        pytest.skip("the database's refusal is PostgreSQL's trigger: set DATABASE_URL")
    ann, boris, _ = players
    seated(classic_table, ann, boris)
    new_deal(classic_table, ann, boris)
    with pytest.raises(IntegrityError), transaction.atomic():
        DealSeat.objects.all().delete()
