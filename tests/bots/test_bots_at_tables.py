"""Bots at real tables: seated from the bots' pool, acting through the one door (via their Celery task), taking no
rake (RULES §8), standing up with their chips back in the pool; the bot table keeper; the ledger stays clean."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from bots import services as bots
from bots import tasks
from bots.models import BotPlayer, BotTable, BotTablePolicy
from tables import services as door
from tables.engine.play import TableState
from tables.models import Deal, Table
from wallet import services as wallet
from wallet.accounts import bots_pool_account, house_takings
from wallet.models import Transfer, TransferKind
from wallet.selectors import balance_of

POOL = 100_000


def make_user(email, **extra):
    return get_user_model().objects.create_user(email=email, password="pw-for-tests-1", **extra)


@pytest.fixture
def staff(db):
    return make_user("staff@example.com", is_staff=True, display_name="Staff")


@pytest.fixture
def ann(staff):
    user = make_user("ann@example.com", display_name="Ann")
    wallet.credit(user, 10_000, reason="welcome chips", staff=staff)
    return user


@pytest.fixture
def pool(db):
    bots.fund_bots(POOL, key="tests:pool")
    return bots_pool_account


def state_of(table_id) -> TableState:
    return TableState.loads(Table.objects.get(pk=table_id).state)


def audit_clean():
    call_command("audit_ledger")  # raises CommandError on any problem


def person_move(state, seat) -> dict:
    """Ann: opens her cards, bets the pot once, then checks or calls; shows; splits; declines buy-ins."""
    legal = {item.kind: item for item in state.legal_actions(seat)}
    if "open" in legal:
        return {"kind": "open", "card": legal["open"].min}
    for kind in ("new_deal", "show", "split", "decline", "call", "check"):
        if kind in legal and not (kind == "check" and "bet" in legal and state.seats[seat].level == 0):
            return {"kind": kind}
    if "bet" in legal:
        return {"kind": "bet", "amount": legal["bet"].max}
    if "blind" in legal:
        return {"kind": "blind"}
    return {"kind": "fold"}


def play_one_deal(table_id, person, person_seat) -> list[dict]:
    """Drive a whole deal: the person through the door, the bots through their Celery task, until it ends."""
    bot_moves = []
    started = False
    for _ in range(200):
        state = state_of(table_id)
        if started and state.phase == "waiting":
            return bot_moves
        started = started or state.phase != "waiting"
        due = bots.seats_to_act(state)
        if due:
            applied = tasks.bot_act.apply(args=(table_id, state.version, due[0])).get()
            assert applied, f"the bot at seat {due[0]} had something to do but did nothing"
            bot_moves.extend(applied)
            continue
        if person_seat in (state.clock.seats if state.clock else []):
            door.act(table_id, person, person_move(state, person_seat))
            continue
        raise AssertionError(f"nobody to act: {state.view(None)}")
    raise AssertionError("the deal did not end")


def test_bot_sits_from_the_pool_plays_through_the_door_and_stands_up_returning_its_chips(ann, pool):
    table = door.create_table(ann, "classic", 10, 2, bots_allowed=True)
    bot = bots.seat_bot(table, "strong", by_user=ann)
    assert bot.is_bot and BotPlayer.objects.get(user=bot).level == "strong"
    assert pool().balance == POOL - bots.BUY_IN_ANTES * 10
    door.sit(table.pk, ann, 400)
    ann_seat = next(i for i, s in enumerate(state_of(table.pk).seats) if s is not None and s.player == str(ann.pk))
    door.act(table.pk, ann, {"kind": "new_deal"})

    moves = play_one_deal(table.pk, ann, ann_seat)

    assert {"kind": "new_deal"} in moves  # the bot pressed New deal itself
    assert any(move["kind"] == "open" for move in moves) or state_of(table.pk).deal_no >= 1
    assert bots.stand_bot(table.pk, bot)
    door.stand(table.pk, ann)
    # Every chip is back where it started: the pool and Ann's balance together, nothing raked (§8).
    assert pool().balance + balance_of(ann) == POOL + 10_000
    assert not Transfer.objects.filter(kind=TransferKind.RAKE).exists()
    audit_clean()


def play_people_deal(table_id, ann, boris) -> None:
    """Ann at seat 0 and Boris at seat 1 press New deal and play one deal to its end with `person_move`."""
    door.act(table_id, ann, {"kind": "new_deal"})
    door.act(table_id, boris, {"kind": "new_deal"})
    for _ in range(100):
        state = state_of(table_id)
        if state.phase == "waiting":
            return
        seat = state.clock.seats[0]
        door.act(table_id, (ann, boris)[seat], person_move(state, seat))
    raise AssertionError("the deal did not end within 100 moves")


# Hands of different points: no tie, so each deal is one row (a tie may start a svara, a second row: RULES §7).
UNTIED = ["9s 8d 7c", "Ah Kh Qh"]


def test_no_rake_at_a_table_with_a_bot_S8(ann, staff, pool):
    """Ann bets the pot, so the pot holds more than antes: a table of people would rake it; with a bot, nothing."""
    boris = make_user("boris@example.com", display_name="Boris")
    wallet.credit(boris, 10_000, reason="welcome chips", staff=staff)
    people = door.create_table(ann, "classic", 10, 2, bots_allowed=False)
    door.sit(people.pk, ann, 400, seat=0)
    door.sit(people.pk, boris, 400, seat=1)
    door.queue_test_deck(people.pk, UNTIED)
    play_people_deal(people.pk, ann, boris)
    assert Deal.objects.get(table=people).rake > 0  # the control: people pay rake on this deal
    house_after_people = house_takings()

    with_bot = door.create_table(ann, "classic", 10, 2, bots_allowed=True)
    bots.seat_bot(with_bot, "strong", by_user=ann)
    door.sit(with_bot.pk, ann, 400)
    ann_seat = next(i for i, s in enumerate(state_of(with_bot.pk).seats) if s is not None and s.player == str(ann.pk))
    door.queue_test_deck(with_bot.pk, UNTIED)
    door.act(with_bot.pk, ann, {"kind": "new_deal"})
    play_one_deal(with_bot.pk, ann, ann_seat)

    deal = Deal.objects.get(table=with_bot)
    assert deal.pot > 20  # more than the two antes went in
    assert deal.rake == 0 and state_of(with_bot.pk).rake_taken == 0
    assert house_takings() == house_after_people
    assert not Transfer.objects.filter(kind=TransferKind.RAKE, table_id=with_bot.pk).exists()
    audit_clean()


def test_a_bot_task_for_an_old_version_does_nothing(ann, pool):
    table = door.create_table(ann, "classic", 10, 2, bots_allowed=True)
    bots.seat_bot(table, "easy", by_user=ann)
    door.sit(table.pk, ann, 400)
    door.act(table.pk, ann, {"kind": "new_deal"})
    state = state_of(table.pk)
    assert bots.seats_to_act(state)  # the bot must press New deal
    assert tasks.bot_act.apply(args=(table.pk, state.version - 1, bots.seats_to_act(state)[0])).get() == []
    assert state_of(table.pk).version == state.version


def test_bots_never_deal_among_themselves(ann, pool):
    table = door.create_table(ann, "classic", 10, 3, bots_allowed=True)
    bots.seat_bot(table, "strong", by_user=ann)
    bots.seat_bot(table, "easy", by_user=ann)
    assert bots.seats_to_act(state_of(table.pk)) == []  # no person at the table: nobody presses New deal


def test_only_the_creator_or_staff_seat_bots_and_only_where_bots_are_allowed(ann, staff, pool):
    vera = make_user("vera@example.com", display_name="Vera")
    table = door.create_table(ann, "classic", 10, 6, bots_allowed=True)
    with pytest.raises(bots.BotError, match="creator or staff"):
        bots.seat_bot(table, "strong", by_user=vera)
    assert bots.seat_bot(table, "easy", by_user=staff).is_bot
    closed_to_bots = door.create_table(ann, "classic", 10, 6, bots_allowed=False)
    with pytest.raises(bots.BotError, match="without bots"):
        bots.seat_bot(closed_to_bots, "strong", by_user=ann)
    with pytest.raises(bots.BotError, match="level"):
        bots.seat_bot(table, "grandmaster", by_user=ann)
    assert pool().balance == POOL - bots.BUY_IN_ANTES * 10  # only the one bot took chips


def test_a_bot_cannot_sit_when_the_pool_is_empty(ann, db):
    table = door.create_table(ann, "classic", 10, 6, bots_allowed=True)
    with pytest.raises(door.DoorError, match="pool|balance|enough"):
        bots.seat_bot(table, "strong", by_user=ann)
    assert Table.objects.get(pk=table.pk).version == table.version  # nothing changed
    assert all(seat is None or seat.player is None for seat in state_of(table.pk).seats)


def test_keeper_opens_the_policy_tables_seats_bots_and_closes_them_when_reduced(pool):
    policy = BotTablePolicy.objects.create(family="bulgarian", ante=5, seats=4, tables=2, level="easy", bots_per_table=2)
    first = tasks.keep_bot_tables.apply().get()
    assert first["opened"] == 2 and first["seated"] == 4
    assert tasks.keep_bot_tables.apply().get()["opened"] == 0  # kept, not reopened
    tables = [bot_table.table for bot_table in policy.bot_tables.all()]
    assert all(table.is_open and table.bots_allowed and table.family == "bulgarian" for table in tables)
    assert all(len(bots.bots_at(table.pk)) == 2 for table in tables)
    assert pool().balance == POOL - 4 * bots.BUY_IN_ANTES * 5

    policy.tables = 0
    policy.save()
    report = bots.keep_bot_tables()
    assert report["closed"] == 2 and report["stood"] == 4
    assert pool().balance == POOL  # every bot's chips went back
    audit_clean()


def test_bots_left_alone_stand_up_after_a_while(ann, pool):
    table = door.create_table(ann, "classic", 10, 6, bots_allowed=True)
    bots.seat_bot(table, "strong", by_user=ann)
    now = timezone.now()
    bots.keep_bot_tables(now)
    assert len(bots.bots_at(table.pk)) == 1  # alone only since now
    bots.keep_bot_tables(now + timedelta(seconds=bots.ALONE_SECONDS + 1))
    assert bots.bots_at(table.pk) == []
    assert pool().balance == POOL
    assert BotTable.objects.get(table=table).policy is None
    audit_clean()


def test_fund_bots_command_fills_the_pool(db):
    call_command("fund_bots", "2500", "--key", "demo:bots")
    call_command("fund_bots", "2500", "--key", "demo:bots")  # the same key moves nothing more
    assert bots_pool_account().balance == 2500


def test_table_changed_schedules_the_bot_with_a_human_pause(ann, pool, settings):
    """The receiver of `table_changed` queues `bot_act(table, version, seat)` to run 1–4 s later."""
    from datetime import datetime

    from config.celery import app
    from tables.signals import table_changed

    table = door.create_table(ann, "classic", 10, 2, bots_allowed=True)
    bots.seat_bot(table, "strong", by_user=ann)
    door.sit(table.pk, ann, 400)
    door.act(table.pk, ann, {"kind": "new_deal"})
    state = state_of(table.pk)
    bot_seat = bots.seats_to_act(state)[0]
    sent_at = timezone.now()
    table_changed.send(sender=None, table_id=table.pk, version=state.version, state=state)
    done_at = timezone.now()
    from bots.receivers import _sender

    _sender.submit(lambda: None).result(timeout=10)  # the bots' sender thread has sent what was due before

    found = []
    with app.connection_for_read() as connection:
        queue = connection.SimpleQueue(app.conf.task_default_queue)
        try:
            while True:
                message = queue.get(timeout=1)
                message.ack()
                if message.headers.get("task") == "bots.tasks.bot_act":
                    found.append((message.payload[0], datetime.fromisoformat(message.headers["eta"])))
        except queue.Empty:
            pass
        finally:
            queue.close()
    mine = [eta for args, eta in found if args == [table.pk, state.version, bot_seat]]
    assert len(mine) == 1
    scale = float(getattr(settings, "SVARA_CLOCK_SCALE", 1.0))
    # Timed between sending and returning (sent from the bots' own thread after): that moment plus 1..4 s (times the
    # clock scale).
    assert (mine[0] - sent_at).total_seconds() >= 1.0 * scale
    assert (mine[0] - done_at).total_seconds() <= 4.0 * scale


def test_a_table_that_allows_bots_but_seats_only_people_pays_rake_S8(ann, staff, pool):
    """§8 exempts a table *with* a bot: ticking "bots may sit" must not make a table of people rake-free."""
    boris = make_user("boris@example.com", display_name="Boris")
    wallet.credit(boris, 10_000, reason="welcome chips", staff=staff)
    table = door.create_table(ann, "classic", 10, 2, bots_allowed=True)
    door.sit(table.pk, ann, 400, seat=0)
    door.sit(table.pk, boris, 400, seat=1)
    play_people_deal(table.pk, ann, boris)
    deal = Deal.objects.get(table=table)
    assert deal.pot > 20 and deal.rake > 0
    assert Transfer.objects.filter(kind=TransferKind.RAKE, table_id=table.pk).exists()
    audit_clean()


def test_tasks_queued_under_the_old_tables_bots_names_still_reach_the_bots(monkeypatch):
    """The app moved from tables/bots/ to bots/: a move queued by a process of the old layout must still run."""
    from config.celery import app

    calls = []
    monkeypatch.setattr(bots, "bot_act", lambda *args: calls.append(("bot_act", args)) or [])
    monkeypatch.setattr(bots, "keep_bot_tables", lambda: calls.append(("keep_bot_tables",)) or {})
    app.tasks["tables.bots.tasks.bot_act"](7, 3, 1)
    app.tasks["tables.bots.tasks.keep_bot_tables"]()
    assert calls == [("bot_act", (7, 3, 1)), ("keep_bot_tables",)]
