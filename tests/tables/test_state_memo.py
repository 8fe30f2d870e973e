"""The door's memo of decoded states (tables/state_memo.py): it saves decoding only text this process wrote itself,
never hands out a state another writer has since replaced, and never keeps a change that did not commit."""

import pytest
from django.db import transaction

from tables import services
from tables.engine.play import Action, TableState
from tables.models import Table
from tables.state_memo import StateMemo

from .conftest import state_of


def _state(version_bumps=0):
    state = TableState.new("classic", 10, 2)
    for seat in range(version_bumps):
        state.apply(Action("sit", seat=seat, player=str(seat + 1), amount=200))
    return state


def test_the_kept_state_is_handed_out_only_for_exactly_its_text():
    memo = StateMemo(TableState.loads)
    state = _state(1)
    text = state.dumps()
    memo.keep(7, text, state)
    assert memo.take(7, text) is state and memo.hits == 1
    memo.keep(7, text, state)
    other = _state(2).dumps()
    fresh = memo.take(7, other)
    assert fresh is not state and fresh.dumps() == other and memo.misses == 1


def test_a_taken_state_is_owned_by_its_taker_and_gone_from_the_memo():
    memo = StateMemo(TableState.loads)
    state = _state(1)
    text = state.dumps()
    memo.keep(7, text, state)
    assert memo.take(7, text) is state
    again = memo.take(7, text)  # a second caller gets its own copy, never the first caller's object
    assert again is not state and again == state and len(memo) == 0


def test_the_memo_forgets_the_least_recently_kept_table_when_full():
    memo = StateMemo(TableState.loads, size=2)
    states = {key: _state(1) for key in (1, 2, 3)}
    for key, state in states.items():
        memo.keep(key, state.dumps(), state)
    assert len(memo) == 2
    assert memo.take(1, states[1].dumps()) is not states[1]
    assert memo.take(3, states[3].dumps()) is states[3]


def test_an_older_state_never_replaces_a_newer_one():
    memo = StateMemo(TableState.loads)
    older, newer = _state(1), _state(2)
    memo.keep(7, newer.dumps(), newer)
    memo.keep(7, older.dumps(), older)  # e.g. a listener's own change committed and was kept first
    assert memo.take(7, newer.dumps()) is newer


def test_a_broken_text_is_refused_rather_than_served_from_the_memo():
    memo = StateMemo(TableState.loads)
    state = _state(1)
    memo.keep(7, state.dumps(), state)
    with pytest.raises(ValueError):
        memo.take(7, "[4, 0]")


@pytest.mark.django_db(transaction=True)
def test_the_door_reuses_the_state_it_wrote_after_commit(players):
    table = services.create_table(players[0], "classic", 10, 6, False)
    memo = services._states
    services.sit(table.pk, players[0], 400, seat=0)
    hits = memo.hits
    services.sit(table.pk, players[1], 400, seat=1)
    assert memo.hits == hits + 1
    assert state_of(table.pk) == memo.take(table.pk, Table.objects.get(pk=table.pk).state)


@pytest.mark.django_db(transaction=True)
def test_the_door_reads_what_another_process_wrote_not_its_memo(players):
    table = services.create_table(players[0], "classic", 10, 6, False)
    services.sit(table.pk, players[0], 400, seat=0)
    services.sit(table.pk, players[1], 400, seat=1)
    # Another process (a worker, another daphne) sits Boris out: the row changes behind this process's memo.
    other = state_of(table.pk)
    other.apply(Action("sit_out", seat=1))
    Table.objects.filter(pk=table.pk).update(state=other.dumps(), version=other.version)
    misses = services._states.misses
    services.act(table.pk, players[1], {"kind": "back"})  # refused if the door acted on its stale memo
    assert services._states.misses == misses + 1
    assert state_of(table.pk).seats[1].sitting_out is False and state_of(table.pk).version == other.version + 1


@pytest.mark.django_db(transaction=True)
def test_a_change_rolled_back_never_reaches_the_memo(players):
    table = services.create_table(players[0], "classic", 10, 6, False)
    services.sit(table.pk, players[0], 400, seat=0)
    before = state_of(table.pk)
    with pytest.raises(RuntimeError), transaction.atomic():
        services.sit(table.pk, players[1], 400, seat=1)
        raise RuntimeError("the caller's transaction fails after the door acted")
    assert state_of(table.pk) == before
    services.sit(table.pk, players[1], 300, seat=2)  # decoded from the row: seat 1 is still free
    state = state_of(table.pk)
    assert state.seats[1].player is None and state.seats[2].stack == 300
    assert state.version == before.version + 1


@pytest.mark.django_db(transaction=True)
def test_a_chat_or_a_refused_move_leaves_the_state_for_the_next_action(players):
    table = services.create_table(players[0], "classic", 10, 6, False)
    services.sit(table.pk, players[0], 400, seat=0)
    services.sit(table.pk, players[1], 400, seat=1)
    memo = services._states
    services.chat(table.pk, players[0], "good luck")
    with pytest.raises(services.DoorError):
        services.act(table.pk, players[1], {"kind": "fold"})  # no deal yet: refused before the engine runs
    hits = memo.hits
    services.act(table.pk, players[0], {"kind": "new_deal"})
    assert memo.hits == hits + 1
    assert state_of(table.pk).seats[0].ready is True


@pytest.mark.django_db(transaction=True)
def test_threads_acting_on_one_table_at_once_never_act_on_a_stale_state(players):
    """Three players open their cards at the same moment, from three threads (connections) of one process: the row
    lock serialises them, the memo hands each state to one of them at a time, and nothing is lost or doubled."""
    import threading

    from django.db import connection

    from .conftest import audit_clean, ledger_matches_engine, start_deal

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (row locks, concurrent connections): set DATABASE_URL")
    table = services.create_table(players[0], "classic", 10, 6, False)
    start_deal(table, players)
    version = state_of(table.pk).version
    barrier, errors = threading.Barrier(len(players)), []

    def open_all(user):
        try:
            barrier.wait()
            for card in range(3):
                services.act(table.pk, user, {"kind": "open", "card": card})
        except Exception as error:  # noqa: BLE001 - reported by the assertion below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=open_all, args=(user,)) for user in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    state = state_of(table.pk)
    assert state.version == version + 9
    assert [seat.opened for seat in state.seats[:3]] == [0b111] * 3
    # The memo kept the last committed state, paired with exactly the text the row holds.
    stored = Table.objects.get(pk=table.pk).state
    kept_text, kept_state = services._states._entries[table.pk]
    assert kept_text == stored and kept_state == state and kept_state.dumps() == stored
    ledger_matches_engine(table.pk)
    audit_clean()


@pytest.mark.django_db(transaction=True)
def test_a_closed_table_leaves_the_memo(players):
    table = services.create_table(players[0], "classic", 10, 6, False)
    services.sit(table.pk, players[0], 400, seat=0)
    assert table.pk in services._states._entries
    services.close_table(table.pk)
    assert table.pk not in services._states._entries
