"""Statistics tallied from the hand histories (stats/tally.py): every ended deal's players added to their day rows
exactly once, whatever the order deals end and commit in, however often beat runs, and with two runs at once."""

import threading
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections
from django.db.models import Max, Sum
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stats import tally
from stats.models import PlayerDay, PlayerTotal, PlayerWeek, TalliedDeal
from tables import services
from tables.models import Deal, DealSeat, Table
from tests.tables.conftest import state_of

SUMMED = ("deals", "deals_won", "played", "svaras", "svaras_won", "net")


def expected_totals(users) -> dict:
    """What the day rows must add up to, straight from the deals' players."""
    out = {}
    for seat in DealSeat.objects.filter(user__in=users, ended=True).select_related("deal"):
        key = (seat.user_id, seat.family, seat.deal.ended_at.date())
        row = out.setdefault(key, dict.fromkeys(SUMMED, 0) | {"biggest_pot": 0})
        if seat.deal.svara:
            row["svaras"] += 1
            row["svaras_won"] += seat.svara_won
        else:
            row["deals"] += 1
            row["played"] += seat.played
        row["deals_won"] += seat.won_pot
        row["net"] += seat.net
        row["biggest_pot"] = max(row["biggest_pot"], seat.won)
    return out


def tallied_totals(users) -> dict:
    return {
        (row.user_id, row.family, row.day): {f: getattr(row, f) for f in (*SUMMED, "biggest_pot")}
        for row in PlayerDay.objects.filter(user__in=users)
    }


def spans_agree(users) -> None:
    """The week and all-time rows are the day rows summed (the biggest pot: their greatest)."""
    for model, key in ((PlayerWeek, lambda day: day - timedelta(days=day.weekday())), (PlayerTotal, lambda day: None)):
        wanted = {}
        for (user, family, day), figures in tallied_totals(users).items():
            row = wanted.setdefault((user, family, key(day)), dict.fromkeys((*SUMMED, "biggest_pot"), 0))
            for f in SUMMED:
                row[f] += figures[f]
            row["biggest_pot"] = max(row["biggest_pot"], figures["biggest_pot"])
        got = {(row.user_id, row.family, getattr(row, "week", None)): {f: getattr(row, f) for f in (*SUMMED, "biggest_pot")}
               for row in model.objects.filter(user__in=users)}
        assert got == wanted, model.__name__


# --- the arithmetic, on hand-made deals ending and committing in any order ---

deal_seats = st.lists(
    st.tuples(st.integers(0, 3), st.integers(-300, 300), st.booleans(), st.booleans(), st.booleans()),
    min_size=2, max_size=4, unique_by=lambda seat: seat[0],
)
deals = st.lists(
    st.tuples(st.sampled_from(["classic", "bulgarian"]), st.integers(0, 2), st.integers(0, 55 * 60), deal_seats),
    min_size=1, max_size=12,
)


@pytest.mark.django_db
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(deals=deals, cuts=st.lists(st.integers(0, 12), max_size=4), batch=st.integers(1, 5))
def test_every_ended_deal_is_added_exactly_once_in_any_order(deals, cuts, batch, monkeypatch):
    """Deals commit in an order unrelated to when they ended (within the slack), beat runs between any two, in
    batches of any size, and twice in a row: each day row is the sum of its deals, once."""
    monkeypatch.setattr(tally, "BATCH", batch)
    User = get_user_model()
    run = User.objects.count()
    users = [User.objects.create_user(email=f"p{run}-{i}@example.com", password="x") for i in range(4)]
    tables = {f: Table.objects.create(family=f, ante=10, seats=6) for f in ("classic", "bulgarian")}
    now = datetime.now(UTC)
    cuts = set(cuts)
    for n, (family, svara, seconds_ago, seats) in enumerate(deals):
        ended = now - timedelta(seconds=seconds_ago)
        deal = Deal.objects.create(table=tables[family], number=n + 1, svara=svara, started_at=ended, ended_at=ended)
        DealSeat.objects.bulk_create([
            DealSeat(deal=deal, user=users[who], table=tables[family], family=family, started_at=ended, seat=who,
                     name=f"p{who}", ended=True, won=max(net, 0), put_in=max(-net, 0), net=net, won_pot=won,
                     played=played, svara_won=bool(svara) and won, bot=bot and who == 3)
            for who, net, won, played, bot in seats
        ])
        if n in cuts:
            tally.tally_deals()
    tally.tally_deals()
    assert tally.tally_deals() == 0
    assert tallied_totals(users) == expected_totals(users)
    spans_agree(users)


# --- real deals through the door ---

TIED = ["Ah Kh 7d", "As Ks 8d"]  # 21 each: a tie on top, and a svara (§7)


def choose(legal: list[dict], liked: tuple[str, ...]) -> dict | None:
    """The first liked move the player has, else any move that keeps the deal going (open a card, the least)."""
    by_kind = {entry["kind"]: entry for entry in legal}
    for kind in liked:
        if kind in by_kind:
            return {"kind": kind}
    for entry in legal:
        if entry["kind"] in ("sit_out", "stand", "add_chips") or (entry["kind"] == "new_deal" and "new_deal" not in liked):
            continue
        if entry["kind"] == "open":
            return {"kind": "open", "card": entry["min"]}
        return {"kind": entry["kind"], **({"amount": entry["min"]} if entry.get("min") is not None else {})}
    return None


@pytest.mark.django_db(transaction=True)
def test_real_deals_and_a_svara_add_up_on_the_profile_figures_S7(classic_table, bulgarian_table, players):
    ann, boris, vera = players
    for table in (classic_table, bulgarian_table):
        for seat, user in enumerate(players):
            services.sit(table.pk, user, 400, seat=seat)
    services.queue_test_deck(classic_table.pk, TIED)
    for user in (ann, boris):
        services.act(classic_table.pk, user, {"kind": "new_deal"})
    services.act(classic_table.pk, vera, {"kind": "new_deal"})
    # Play both tables out, each player taking the first of these his legal moves offers, until six deals ended.
    liked = ("play_on", "check", "call", "show", "new_deal", "fold")
    for _ in range(3000):
        if Deal.objects.filter(ended_at__isnull=False).count() >= 6:
            liked = ("play_on", "check", "call", "show", "fold")  # then no new deal: let the running ones end
            if all(state_of(t.pk).phase == "waiting" for t in (classic_table, bulgarian_table)):
                break
        for table in (classic_table, bulgarian_table):
            state = state_of(table.pk)
            for seat, user in enumerate(players):
                action = choose(state.view(seat)["legal"], liked)
                if action is not None:
                    services.act(table.pk, user, action)
                    state = state_of(table.pk)
    assert Deal.objects.filter(svara__gt=0, ended_at__isnull=False).exists()
    assert tally.tally_deals() >= 6
    assert tallied_totals(players) == expected_totals(players)
    spans_agree(players)
    # With every deal over, net chips over his day rows are what his stacks did at the tables.
    for user in players:
        net = PlayerDay.objects.filter(user=user).aggregate(total=Sum("net"))["total"]
        stacks = sum(state_of(t.pk).seats[seat].stack for t in (classic_table, bulgarian_table)
                     for seat in range(3) if state_of(t.pk).seats[seat].player == str(user.pk))
        assert net == stacks - 800, user


@pytest.mark.django_db(transaction=True)
def test_two_runs_at_once_add_each_deal_once(players, classic_table):
    if connection.vendor != "postgresql":
        pytest.skip("two concurrent transactions need PostgreSQL: set DATABASE_URL")
    ann, boris, _ = players
    now = datetime.now(UTC)
    for n in range(40):
        deal = Deal.objects.create(table=classic_table, number=n + 1, started_at=now, ended_at=now)
        DealSeat.objects.bulk_create([
            DealSeat(deal=deal, user=u, table=classic_table, family="classic", started_at=now, seat=i, name="x",
                     ended=True, won=20 * i, put_in=10, net=20 * i - 10, won_pot=bool(i)) for i, u in enumerate((ann, boris))
        ])
    barrier, added = threading.Barrier(2), []

    def run():
        try:
            barrier.wait()
            added.append(tally.tally_deals())
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(added) == [0, 40]
    assert TalliedDeal.objects.count() == 40
    assert tallied_totals([ann, boris]) == expected_totals([ann, boris])
    spans_agree([ann, boris])
    assert PlayerDay.objects.aggregate(best=Max("biggest_pot"))["best"] == 20
