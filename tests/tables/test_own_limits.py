"""The limits a player sets for himself (tracker issue 14, wallet/limits.py), enforced by the door in the buy-in's
own transaction: a daily buy-in cap, a daily loss limit (UTC days, read from the ledger), a self-exclusion; the
timing rules (lower at once, raise after 24 hours, exclusion never shortened); concurrent buy-ins against a cap
on PostgreSQL."""

import threading
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from tables import services
from wallet import limits
from wallet.models import PlayerLimits
from wallet.selectors import balance_of

from .conftest import audit_clean

pytestmark = pytest.mark.django_db(transaction=True)


def refusal(call, *args, **kwargs) -> services.DoorError:
    with pytest.raises(services.DoorError) as refused:
        call(*args, **kwargs)
    return refused.value


def tables(owner, n):
    return [services.create_table(owner, "classic", 10, 6, False, kept_open=True) for _ in range(n)]


# --- timing --------------------------------------------------------------------------------------------------------


def test_lowering_takes_effect_at_once_and_raising_after_24_hours(players):
    ann = players[0]
    now = timezone.now()
    said = limits.set_limits(ann, now=now, daily_buy_in_cap=1_000, daily_loss_limit=500, session_minutes=60)
    assert all("at once" in line for line in said)
    assert limits.of(ann).daily_buy_in_cap == 1_000
    said = limits.set_limits(ann, now=now, daily_buy_in_cap=2_000)
    assert "24 hours" in said[0]
    row = PlayerLimits.objects.get(user=ann)
    assert limits.in_force(row, now).daily_buy_in_cap == 1_000
    assert limits.in_force(row, now).pending["daily_buy_in_cap"].value == 2_000
    assert limits.in_force(row, now + timedelta(hours=23, minutes=59)).daily_buy_in_cap == 1_000
    assert limits.in_force(row, now + timedelta(hours=24)).daily_buy_in_cap == 2_000


def test_removing_a_limit_is_a_raise_and_lowering_cancels_a_pending_raise(players):
    ann = players[0]
    now = timezone.now()
    limits.set_limits(ann, now=now, daily_loss_limit=500)
    limits.set_limits(ann, now=now, daily_loss_limit=None)
    row = PlayerLimits.objects.get(user=ann)
    assert limits.in_force(row, now).daily_loss_limit == 500
    assert limits.in_force(row, now + timedelta(days=1, seconds=1)).daily_loss_limit is None
    limits.set_limits(ann, now=now + timedelta(hours=1), daily_loss_limit=400)
    row.refresh_from_db()
    later = limits.in_force(row, now + timedelta(days=3))
    assert later.daily_loss_limit == 400 and not later.pending


def test_a_matured_raise_counts_as_the_limit_a_new_change_starts_from(players):
    ann = players[0]
    start = timezone.now()
    limits.set_limits(ann, now=start, session_minutes=30)
    limits.set_limits(ann, now=start, session_minutes=90)
    limits.set_limits(ann, now=start + timedelta(days=2), session_minutes=60)  # lower than the matured 90
    assert limits.of(ann).session_minutes == 60 and not limits.of(ann).pending


def test_bad_limits_are_refused_and_change_nothing(players):
    ann = players[0]
    for bad in (0, -5, 1.5, "100", True):
        with pytest.raises(ValueError):
            limits.set_limits(ann, daily_buy_in_cap=bad)
    with pytest.raises(ValueError):
        limits.set_limits(ann, no_such_limit=5)
    assert not PlayerLimits.objects.exists()


def test_an_exclusion_starts_at_once_and_is_only_ever_extended(players):
    ann = players[0]
    now = timezone.now()
    month = limits.exclude(ann, "month", now=now)
    assert month == now + timedelta(days=30)
    assert limits.exclude(ann, "day", now=now) == month  # a shorter one does not shorten it
    assert limits.exclude(ann, "six_months", now=now) == now + timedelta(days=182)
    with pytest.raises(ValueError):
        limits.exclude(ann, "forever", now=now)
    limits.set_limits(ann, daily_buy_in_cap=100)  # setting limits does not touch it either
    assert PlayerLimits.objects.get(user=ann).excluded_until == now + timedelta(days=182)


# --- the door's refusals --------------------------------------------------------------------------------------------


def test_self_excluded_player_cannot_sit_add_chips_or_create_a_table(players):
    ann, boris, _ = players
    table = services.create_table(boris, "classic", 10, 6, False)
    services.sit(table.pk, ann, 300)
    until = limits.exclude(ann, "week")
    sit_at_other = services.create_table(boris, "classic", 10, 6, False)
    for refused in (
        refusal(services.sit, sit_at_other.pk, ann, 400),
        refusal(services.act, table.pk, ann, {"kind": "add_chips", "amount": 100}),
        refusal(services.create_table, ann, "classic", 10, 6, False),
    ):
        assert refused.code == "self_excluded"
        assert limits.when(until) in refused.message and "cannot be lifted early" in refused.message
    assert balance_of(ann) == 10_000 - 300
    services.stand(table.pk, ann)  # he may always leave with his chips
    assert balance_of(ann) == 10_000


def test_a_buy_in_past_the_daily_cap_is_refused_saying_the_cap_and_until_when(players):
    ann, boris, _ = players
    first, second = tables(boris, 2)
    limits.set_limits(ann, daily_buy_in_cap=600)
    services.sit(first.pk, ann, 400)
    refused = refusal(services.sit, second.pk, ann, 400)
    assert refused.code == "limit_reached"
    assert "daily buy-in cap is 600" in refused.message and "at most 200 more" in refused.message
    assert "00:00 UTC" in refused.message
    assert refusal(services.act, first.pk, ann, {"kind": "add_chips", "amount": 300}).code == "limit_reached"
    services.act(first.pk, ann, {"kind": "add_chips", "amount": 200})
    assert balance_of(ann) == 10_000 - 600
    audit_clean()


def test_the_loss_limit_counts_buy_ins_less_cash_outs_of_the_day(players):
    ann, boris, _ = players
    first, second, third = tables(boris, 3)
    limits.set_limits(ann, daily_loss_limit=500)
    services.sit(first.pk, ann, 400)  # could lose 400
    refused = refusal(services.sit, second.pk, ann, 200)
    assert refused.code == "limit_reached" and "daily loss limit is 500" in refused.message
    assert "at most 100" in refused.message
    services.stand(first.pk, ann)  # the 400 come back: nothing lost today
    services.sit(third.pk, ann, 500)


def test_yesterdays_buy_ins_do_not_count_today(players):
    ann, boris, _ = players
    (table,) = tables(boris, 1)
    limits.set_limits(ann, daily_buy_in_cap=500)
    services.sit(table.pk, ann, 400)
    tomorrow = limits.day_start(timezone.now()) + timedelta(days=1, minutes=1)
    with transaction.atomic():
        with pytest.raises(limits.LimitError):
            limits.check_buy_in(ann.pk, 400)
        limits.check_buy_in(ann.pk, 500, now=tomorrow)


def test_bots_and_players_without_limits_are_not_checked(players, staff):
    from bots.services import fund_bots, seat_bot

    fund_bots(10_000, staff=staff)
    table = services.create_table(players[0], "classic", 10, 6, True)
    seat_bot(table, "easy", by_user=players[0])
    services.sit(table.pk, players[1], 1000)


# --- two tabs at once ----------------------------------------------------------------------------------------------


def test_concurrent_buy_ins_cannot_both_pass_the_cap_on_postgresql(players, staff):
    """Issue 14: eight buy-ins at once (eight tabs, eight tables) against a cap of two: exactly two pass, because
    each locks the player's limits row before it reads the day's buy-ins, in the buy-in's own transaction."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's: set DATABASE_URL")
    ann = players[0]
    several = tables(staff, 8)
    limits.set_limits(ann, daily_buy_in_cap=800)
    barrier = threading.Barrier(len(several))
    outcomes, faults = [], []

    def buy_in(table):
        try:
            barrier.wait()
            services.sit(table.pk, ann, 400)
            outcomes.append("seated")
        except services.DoorError as refused:
            outcomes.append(refused.code)
        except BaseException as fault:  # reported below
            faults.append(fault)
        finally:
            connection.close()

    threads = [threading.Thread(target=buy_in, args=(table,)) for table in several]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not faults, faults
    assert sorted(outcomes) == ["limit_reached"] * 6 + ["seated"] * 2
    assert balance_of(ann) == 10_000 - 800
    audit_clean()


def test_concurrent_chips_added_at_two_tables_cannot_both_pass_the_cap_on_postgresql(players):
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's: set DATABASE_URL")
    ann, boris, _ = players
    first, second = tables(boris, 2)
    services.sit(first.pk, ann, 200)
    services.sit(second.pk, ann, 200)
    limits.set_limits(ann, daily_buy_in_cap=700)  # 400 bought: room for one more 300
    barrier = threading.Barrier(2)
    outcomes = []

    def add(table):
        try:
            barrier.wait()
            services.act(table.pk, ann, {"kind": "add_chips", "amount": 300})
            outcomes.append("added")
        except services.DoorError as refused:
            outcomes.append(refused.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=add, args=(t,)) for t in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(outcomes) == ["added", "limit_reached"]
    assert balance_of(ann) == 10_000 - 700
