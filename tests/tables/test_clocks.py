"""Clocks (RULES §9) stored with the state; tasks that act only on their version; a sweeper for overdue clocks."""

from datetime import timedelta

import pytest
from django.utils import timezone

from lobby.tasks import close_idle_tables
from tables import services, tasks
from tables.models import Presence, Table, TableSeat
from wallet.selectors import balance_of

from .conftest import audit_clean, ledger_matches_engine, start_deal, state_of


def table_row(table):
    return Table.objects.get(pk=table.pk)


def test_every_running_clock_is_stored_with_its_deadline_S9(classic_table, players):
    ann, boris, _ = players
    before = timezone.now()
    start_deal(classic_table, [ann, boris])
    table = table_row(classic_table)
    assert table.clock_kind == "move" and table.clock_seats == [1]
    assert before + timedelta(seconds=19) < table.clock_deadline <= timezone.now() + timedelta(seconds=20)


def test_the_clock_scale_setting_shortens_every_clock(classic_table, players, settings):
    settings.SVARA_CLOCK_SCALE = 0.5
    start_deal(classic_table, players[:2])
    left = (table_row(classic_table).clock_deadline - timezone.now()).total_seconds()
    assert 9 < left <= 10


def test_opening_a_card_does_not_restart_the_move_clock(classic_table, players):
    ann, boris, _ = players
    start_deal(classic_table, [ann, boris])
    deadline = table_row(classic_table).clock_deadline
    services.act(classic_table.pk, boris, {"kind": "open", "card": 0})
    table = table_row(classic_table)
    assert table.version == state_of(classic_table.pk).version
    assert table.clock_deadline == deadline


def overdue(table, seconds=1):
    Table.objects.filter(pk=table.pk).update(clock_deadline=timezone.now() - timedelta(seconds=seconds))


def test_the_sweeper_enforces_a_clock_whose_task_was_never_scheduled_S9(classic_table, players):
    ann, boris, _ = players
    start_deal(classic_table, [ann, boris])
    version = table_row(classic_table).version
    overdue(classic_table)
    assert tasks.sweep_overdue_clocks() == 1
    state = state_of(classic_table.pk)
    # Boris owed nothing, so the clock checked for him; now Ann's own 20 s run.
    assert state.version == version + 1
    assert state.seats[1].level == 0 and not state.seats[1].folded
    assert (state.phase, state.turn) == ("betting", 0)
    table = table_row(classic_table)
    assert table.clock_seats == [0] and table.clock_deadline > timezone.now()
    assert tasks.sweep_overdue_clocks() == 0


def test_a_move_clock_folds_one_who_owes_chips_S9(classic_table, players):
    ann, boris, _ = players
    start_deal(classic_table, [ann, boris])
    services.act(classic_table.pk, boris, {"kind": "bet", "amount": 20})
    overdue(classic_table)
    tasks.sweep_overdue_clocks()
    state = state_of(classic_table.pk)
    assert state.phase == "waiting"
    assert state.last_result["winners"][0]["player"] == str(boris.pk)
    ledger_matches_engine(classic_table.pk)
    audit_clean()


def test_a_stale_clock_task_is_a_no_op(classic_table, players):
    ann, boris, _ = players
    start_deal(classic_table, [ann, boris])
    stale = table_row(classic_table).version
    services.act(classic_table.pk, boris, {"kind": "check"})
    overdue(classic_table)
    version = table_row(classic_table).version
    assert tasks.clock_ran_out(classic_table.pk, stale) is False
    assert table_row(classic_table).version == version
    assert tasks.clock_ran_out(classic_table.pk, version) is True
    assert table_row(classic_table).version == version + 1


def test_a_clock_task_before_its_deadline_does_nothing(classic_table, players):
    start_deal(classic_table, players[:2])
    version = table_row(classic_table).version
    assert tasks.clock_ran_out(classic_table.pk, version) is False
    assert table_row(classic_table).version == version


def test_new_deal_clock_sits_out_those_who_did_not_press_S10(classic_table, players):
    ann, boris, _ = players
    services.sit(classic_table.pk, ann, 400)
    services.sit(classic_table.pk, boris, 400)
    services.act(classic_table.pk, ann, {"kind": "new_deal"})
    assert table_row(classic_table).clock_kind == "new_deal"
    overdue(classic_table)
    tasks.sweep_overdue_clocks()
    state = state_of(classic_table.pk)
    assert state.seats[1].sitting_out and not state.seats[0].sitting_out
    assert table_row(classic_table).clock_deadline is None


@pytest.mark.django_db(transaction=True)
def test_a_daphne_process_runs_out_a_clock_within_its_watch_and_its_viewers_see_it_S9(players, settings):
    """No task is scheduled: the watcher that every daphne runs on its event loop finds the overdue clock, runs it
    out through the door, and the table's viewers get the new state from the group message (no sweeper here)."""
    from asgiref.sync import async_to_sync

    from .sockets import open_socket, receive_until

    settings.SVARA_CLOCK_SCALE = 0.05  # a move clock of 1 s
    settings.SVARA_CLOCK_WATCH_SECONDS = 0.05
    table = services.create_table(players[0], "classic", 10, 2, False)
    start_deal(table, players[:2])
    row = table_row(table)
    version, deadline = row.version, row.clock_deadline
    assert row.clock_kind == "move"

    async def scenario():
        watcher, _ = await open_socket(f"/ws/tables/{table.pk}/")  # connecting starts this loop's watcher
        snapshot, _ = await receive_until(watcher, lambda m: m["type"] == "snapshot" and m["version"] > version, 5)
        await watcher.disconnect()
        return snapshot, timezone.now()

    snapshot, seen_at = async_to_sync(scenario)()
    assert snapshot["version"] == version + 1 and snapshot["state"]["turn"] == 0  # seat 1 checked; seat 0 to act
    assert deadline <= seen_at <= deadline + timedelta(seconds=1)  # after its deadline, never long after
    assert state_of(table.pk).version == version + 1


# --- presence (RULES §9: offline 2 minutes stands up) ---


def test_presence_counts_connections_from_any_process(classic_table, players):
    ann = players[0]
    services.connected(classic_table.pk, ann)
    services.connected(classic_table.pk, ann)
    services.disconnected(classic_table.pk, ann)
    presence = Presence.objects.get(table=classic_table, user=ann)
    assert presence.connections == 1


def test_a_player_offline_for_two_minutes_stands_up_and_gets_the_chips_back_S9(classic_table, players):
    ann, boris, _ = players
    services.sit(classic_table.pk, ann, 400)
    services.sit(classic_table.pk, boris, 400)
    services.connected(classic_table.pk, ann)
    services.connected(classic_table.pk, boris)
    services.disconnected(classic_table.pk, ann)
    services.disconnected(classic_table.pk, boris)
    services.connected(classic_table.pk, boris)  # Boris came back in time
    Presence.objects.update(changed_at=timezone.now() - timedelta(seconds=121))
    assert tasks.stand_up_offline_players() == 1
    assert not TableSeat.objects.filter(user=ann).exists()
    assert TableSeat.objects.filter(user=boris).exists()
    assert balance_of(ann) == 10_000
    audit_clean()


def test_an_offline_player_mid_deal_folds_and_frees_the_seat_at_the_deal_end_S10(classic_table, players):
    ann, boris, vera = players
    start_deal(classic_table, [ann, boris, vera])
    Presence.objects.all().delete()
    TableSeat.objects.update(seated_at=timezone.now() - timedelta(seconds=121))
    # Nobody ever connected: all three stand (fold) at once; the deal ends and everyone is cashed out.
    tasks.stand_up_offline_players()
    assert state_of(classic_table.pk).phase == "waiting"
    assert not TableSeat.objects.exists()
    assert sum(balance_of(p) for p in players) == 30_000 - state_of(classic_table.pk).rake_taken
    audit_clean()


def test_an_empty_table_closes_after_ten_minutes(classic_table, players):
    busy = services.create_table(players[0], "classic", 10, 2, False)
    services.sit(busy.pk, players[1], 400)
    Table.objects.update(empty_since=timezone.now() - timedelta(minutes=11))
    Table.objects.filter(pk=busy.pk).update(empty_since=None)
    assert close_idle_tables() == 1
    assert table_row(classic_table).status == "closed"
    assert table_row(busy).status == "open"


def test_a_table_staff_keep_open_never_closes_for_being_empty(classic_table, players):
    kept = services.create_table(players[0], "classic", 10, 2, False, kept_open=True)
    Table.objects.update(empty_since=timezone.now() - timedelta(hours=5))
    assert close_idle_tables() == 1
    assert table_row(kept).status == "open" and table_row(classic_table).status == "closed"
    with pytest.raises(services.DoorError, match="not idle"):  # the door checks it too, under the lock
        services.close_table(kept.pk, idle_before=timezone.now())


def test_a_connection_left_counted_by_a_dead_process_goes_stale_and_the_player_stands_up_S9(classic_table, players):
    ann, boris, _ = players
    services.sit(classic_table.pk, ann, 400)
    services.sit(classic_table.pk, boris, 400)
    services.connected(classic_table.pk, ann)  # its process dies: no disconnect ever comes, no heartbeat either
    services.connected(classic_table.pk, boris)  # his consumer keeps beating
    long_ago = timezone.now() - timedelta(seconds=200)
    Presence.objects.update(changed_at=long_ago, seen_at=long_ago)
    services.still_here(classic_table.pk, boris)
    assert tasks.stand_up_offline_players() == 1
    assert not TableSeat.objects.filter(user=ann).exists()
    assert TableSeat.objects.filter(user=boris).exists()
    assert balance_of(ann) == 10_000
    audit_clean()


def test_an_open_connection_with_a_fresh_heartbeat_keeps_the_seat(classic_table, players):
    ann = players[0]
    services.sit(classic_table.pk, ann, 400)
    services.connected(classic_table.pk, ann)
    Presence.objects.update(changed_at=timezone.now() - timedelta(seconds=600))
    assert tasks.stand_up_offline_players() == 0
    assert TableSeat.objects.filter(user=ann).exists()


def test_a_timeout_the_ledger_refuses_leaves_no_transfer_behind_it(classic_table, players):
    """The clock's action moves rake, then the pot: when the second movement fails, the first is undone too."""
    from wallet.accounts import pot_account
    from wallet.models import LedgerAccount, Transfer

    ann, boris, _ = players
    start_deal(classic_table, [ann, boris])
    services.act(classic_table.pk, boris, {"kind": "bet", "amount": 20})  # pot 40: a rake of 1 will be taken
    pot = pot_account(classic_table.pk)
    LedgerAccount.objects.filter(pk=pot.pk).update(balance=10)  # corrupted: less than the pot the engine holds
    transfers, version = Transfer.objects.count(), table_row(classic_table).version
    overdue(classic_table)
    assert services.run_out_clock(classic_table.pk) is False  # Ann owes 20: the clock folds her, Boris would win
    assert Transfer.objects.count() == transfers
    assert LedgerAccount.objects.get(pk=pot.pk).balance == 10
    assert table_row(classic_table).version == version and state_of(classic_table.pk).phase == "betting"


def test_a_refused_timeout_is_logged_once_and_its_clock_stopped_not_retried_every_second(
    classic_table, players, caplog
):
    from wallet.accounts import pot_account
    from wallet.models import LedgerAccount

    ann, boris, _ = players
    start_deal(classic_table, [ann, boris])
    services.act(classic_table.pk, boris, {"kind": "bet", "amount": 20})
    LedgerAccount.objects.filter(pk=pot_account(classic_table.pk).pk).update(balance=10)  # corrupted
    overdue(classic_table)
    with caplog.at_level("ERROR", logger="tables.services.door"):
        assert tasks.sweep_overdue_clocks() == 0
        assert tasks.sweep_overdue_clocks() == 0  # the next sweep does not try again
    refusals = [r for r in caplog.records if "timeout refused" in r.getMessage()]
    assert len(refusals) == 1 and refusals[0].levelname == "ERROR"
    table = table_row(classic_table)
    assert table.clock_deadline is None and "timeout refused" in table.fault  # for staff, in the admin


def test_one_broken_table_does_not_hold_up_the_other_tables_clocks_S9(players, staff):
    """A fault at one table (here a stored state that no longer reads) is logged; the sweep goes on to the next."""
    from tables.services import create_table

    broken, healthy = (create_table(players[0], "classic", 10, 2, False) for _ in range(2))
    start_deal(broken, players[:2])
    start_deal(healthy, players[1:3])
    Table.objects.filter(pk=broken.pk).update(state="{not a state")
    overdue(broken)
    overdue(healthy)
    version = table_row(healthy).version
    assert tasks.sweep_overdue_clocks() == 1
    assert table_row(healthy).version == version + 1


@pytest.mark.django_db(transaction=True)
def test_the_watcher_runs_out_a_clock_while_every_door_thread_is_busy_S9(players, settings):
    """A daphne whose door threads are all taken (the clients of a daphne that died reconnect to it and resend
    their moves) still enforces clocks: its watcher does not wait in the door's queue (found by the fault drill)."""
    import threading

    from asgiref.sync import async_to_sync

    from tables import db_threads

    from .sockets import open_socket, receive_until

    settings.SVARA_CLOCK_SCALE = 0.05  # a move clock of 1 s
    settings.SVARA_CLOCK_WATCH_SECONDS = 0.05
    table = services.create_table(players[0], "classic", 10, 2, False)
    start_deal(table, players[:2])
    version = table_row(table).version
    release = threading.Event()
    busy = [db_threads.door_threads.submit(release.wait, 30) for _ in range(db_threads.DOOR_THREADS)]

    async def scenario():
        watcher, _ = await open_socket(f"/ws/tables/{table.pk}/")  # connecting starts this loop's watcher
        try:
            snapshot, _ = await receive_until(watcher, lambda m: m["type"] == "snapshot" and m["version"] > version,
                                              10)
        finally:
            release.set()
        await watcher.disconnect()
        return snapshot

    try:
        snapshot = async_to_sync(scenario)()
    finally:
        release.set()
        for future in busy:
            future.result(timeout=30)
    assert snapshot["version"] == version + 1  # the clock ran out while no door thread was free
