"""A move in a deal without the table's lock (tables/services/optimistic.py): one statement that is its own
transaction, on the state this process last saw committed; whenever that state is not the newest, or anything
else is off, it writes nothing and the locked way answers. Every answer is the locked way's; no chip moves twice."""

import asyncio
import threading
from unittest import mock

import psycopg
import pytest
from django.conf import settings
from django.db import close_old_connections, connection, transaction
from django.test.utils import CaptureQueriesContext, override_settings
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from tables import selectors, services
from tables.engine.cards import ALL_CARDS
from tables.engine.fair import commitment
from tables.engine.play import TableState
from tables.models import ClientMessage, Deal, DealEvent, DealSeat, Table
from tables.protocol import parse_action
from wallet.batch import AccountRef
from wallet.models import LedgerAccount, Transfer

from .conftest import audit_clean, ledger_matches_engine, make_user, state_of

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="one statement needs PostgreSQL's data-modifying WITH"),
    pytest.mark.usefixtures("fresh_process"),
]


def statements(fn, *args, **kwargs):
    with CaptureQueriesContext(connection) as captured:
        result = fn(*args, **kwargs)
    return result, [q["sql"] for q in captured.captured_queries]


def seated_deal(table, users, hands=("9s 8d 7c", "Ah Kh Qh")):
    for index, user in enumerate(users):
        services.sit(table.pk, user, 400, seat=index)
    services.queue_test_deck(table.pk, list(hands))
    for user in users:
        services.act(table.pk, user, {"kind": "new_deal"})
    return state_of(table.pk)


def to_act(table, users):
    return users[state_of(table.pk).turn]


def written_rows():
    return Transfer.objects.count(), DealEvent.objects.count(), ClientMessage.objects.count()


def test_a_bet_in_a_deal_is_one_statement_and_moves_its_chips_once(classic_table, players):
    ann, boris, _ = players
    before = seated_deal(classic_table, [ann, boris])
    player = to_act(classic_table, [ann, boris])
    ack, sql = statements(services.act, classic_table.pk, player, {"kind": "bet", "amount": 20}, "b1")
    assert len(sql) == 1 and sql[0].startswith("WITH guard AS"), sql
    assert ack.reply == {"type": "ack", "id": "b1", "version": before.version + 1}
    assert ack.change.version == before.version + 1 and ack.change.events
    after = state_of(classic_table.pk)
    assert after.version == before.version + 1 and after.pot == before.pot + 20
    bet = Transfer.objects.get(key=f"t{classic_table.pk}:v{after.version}:in:{player.pk}")
    assert bet.amount == 20
    assert ClientMessage.objects.get(client_id="b1").response == ack.reply
    assert DealEvent.objects.filter(table=classic_table, version=after.version).exists()
    # The next player's call goes the same way, on the state the bet's change left known here.
    _, sql = statements(services.act, classic_table.pk, to_act(classic_table, [ann, boris]), {"kind": "call"}, "c1")
    assert len(sql) == 1, sql
    ledger_matches_engine(classic_table.pk)
    audit_clean()


def plan_nodes(plan: dict):
    yield plan
    for child in plan.get("Plans", ()):
        yield from plan_nodes(child)


def test_a_moves_statement_reads_its_table_and_accounts_by_key_on_a_database_without_statistics_S10(
    classic_table, players
):
    """A new deployment's tables have no statistics yet: the statement's generic plan (a prepared statement's, as the
    loop's connections keep them) still finds the table's row and each account it moves chips of by its key. It
    took the status index and read every open table's row, and scanned the whole ledger's accounts, on every move."""
    ann, boris, _ = players
    for _n in range(30):  # more open tables than this one
        Table.objects.create(family=classic_table.family, ante=10, seats=4)
    seated_deal(classic_table, [ann, boris])
    ran = []

    def keep(execute, sql, params, many, context):
        ran.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(keep):
        services.act(classic_table.pk, to_act(classic_table, [ann, boris]), {"kind": "bet", "amount": 20}, "b1")
    (sql, params), = [(sql, params) for sql, params in ran if sql.startswith("WITH guard AS")]
    assert "wallet_ledgeraccount" in sql
    numbered, n = sql, 0
    while "%s" in numbered:
        n += 1
        numbered = numbered.replace("%s", f"${n}", 1)
    raw = connection.connection
    with transaction.atomic(), psycopg.ClientCursor(raw) as cursor:
        cursor.execute("DELETE FROM pg_statistic WHERE starelid IN ('tables_table'::regclass, "
                       "'wallet_ledgeraccount'::regclass)")  # fmt: skip
        cursor.execute("SET LOCAL plan_cache_mode = force_generic_plan")
        cursor.execute(f"PREPARE probe AS {numbered}")
        cursor.execute(f"EXPLAIN (FORMAT JSON) EXECUTE probe({', '.join(['%s'] * n)})", params)
        (plan,), = cursor.fetchall()
        cursor.execute("DEALLOCATE probe")
        transaction.set_rollback(True)
    nodes = list(plan_nodes(plan[0]["Plan"]))
    read = {(node["Relation Name"], node["Node Type"]) for node in nodes
            if node.get("Relation Name") in ("tables_table", "wallet_ledgeraccount") and "Scan" in node["Node Type"]}
    indexes = {node["Index Name"] for node in nodes if node.get("Index Name", "").startswith(("tables_table",
                                                                                               "wallet_ledger"))}
    assert {name for name, _kind in read} == {"tables_table", "wallet_ledgeraccount"}, read
    assert not any(kind == "Seq Scan" for _name, kind in read), read
    assert indexes == {"tables_table_pkey", "wallet_ledgeraccount_pkey"}, indexes


def shown(table, user):
    """The table as committed, shown to `user` in this process (a socket's `show`), on an event loop that then turns:
    his next move's state is decoded ahead when it is his to play (services.ready_next_move)."""
    committed = selectors.committed(table.pk)
    services.committed_seen(committed)

    async def show():
        services.ready_next_move(committed, user.pk)
        await asyncio.sleep(0)

    asyncio.run(show())
    return committed


def test_the_state_decoded_ahead_of_a_players_move_serves_that_move_once_S10(classic_table, players, monkeypatch):
    ann, boris, carl = players
    seated_deal(classic_table, [ann, boris])
    player = to_act(classic_table, [ann, boris])
    other = next(p for p in (ann, boris) if p != player)
    shown(classic_table, other)  # not his turn: nothing is decoded ahead
    assert classic_table.pk not in services.known.spares
    shown(classic_table, player)
    spare = services.known.spares[classic_table.pk]
    decodes = []
    real = TableState.loads.__func__
    monkeypatch.setattr(TableState, "loads", classmethod(lambda cls, text: decodes.append(text) or real(cls, text)))
    ack = services.act_unlocked(classic_table.pk, player, parse_action({"kind": "bet", "amount": 20}), "b1")
    assert ack is not None and ack.change.version == spare.known[0] + 1
    assert decodes == [] and classic_table.pk not in services.known.spares  # played on it, and it is gone
    # One decoded ahead of a state no longer the newest known is not played on: the newest is decoded as it plays.
    answering = to_act(classic_table, [ann, boris])
    shown(classic_table, answering)
    stale = services.known.spares[classic_table.pk]
    services.sit(classic_table.pk, carl, 400, seat=2)  # the locked way: the table moves on
    services.committed_seen(selectors.committed(classic_table.pk))
    assert classic_table.pk not in services.known.spares  # dropped as the newer state became known
    services.known.spares[classic_table.pk] = stale  # as if made on the loop a moment before (a race)
    decodes.clear()
    ack = services.act_unlocked(classic_table.pk, answering, parse_action({"kind": "call"}), "c1")
    assert ack is not None and ack.change.version == stale.known[0] + 2
    assert len(decodes) == 1 and classic_table.pk not in services.known.spares
    ledger_matches_engine(classic_table.pk)
    audit_clean()


def test_a_repeated_id_gets_its_stored_reply_even_where_its_move_is_legal_again(classic_table, players, caplog):
    """Sitting out, coming back, then the sit-out's id again: sitting out is legal again, but the id was answered,
    so nothing is applied a second time and the first answer comes back. The statement's guard refuses quietly: a
    resent id is ordinary (a reconnect), not a failed statement with a traceback in the server's log."""
    ann, boris, vera = players
    for index, user in enumerate(players):
        services.sit(classic_table.pk, user, 400, seat=index)
    first = services.act(classic_table.pk, vera, {"kind": "sit_out"}, "x1")
    services.act(classic_table.pk, vera, {"kind": "back"}, "x2")
    version = state_of(classic_table.pk).version
    counts = written_rows()
    with caplog.at_level("INFO", logger="tables"):
        assert services.act_unlocked(classic_table.pk, vera, parse_action({"kind": "sit_out"}), "x1") is None
    assert not [record.getMessage() for record in caplog.records if record.name.startswith("tables")]
    assert services.act(classic_table.pk, vera, {"kind": "sit_out"}, "x1").reply == first.reply
    after = state_of(classic_table.pk)
    assert after.version == version and not after.seats[2].sitting_out
    assert written_rows() == counts


def test_a_table_moved_on_meanwhile_gets_nothing_written_and_the_locked_way_answers(classic_table, players):
    """A process that has not yet heard of the newest change plays on an older state: its statement finds the row
    at another version and writes nothing; the locked way then plays the move on the newest state."""
    ann, boris, _ = players
    seated_deal(classic_table, [ann, boris])
    stale = services.known.tables[classic_table.pk]
    services.act(classic_table.pk, to_act(classic_table, [ann, boris]), {"kind": "bet", "amount": 20}, "b1")
    services.known.tables[classic_table.pk] = stale  # as in the other daphne, before the group message
    other = next(p for p in (ann, boris) if p != to_act(classic_table, [ann, boris]))
    version, counts = state_of(classic_table.pk).version, written_rows()
    command = parse_action({"kind": "open", "card": 0})
    assert services.act_unlocked(classic_table.pk, other, command, "o1") is None
    assert state_of(classic_table.pk).version == version and written_rows() == counts
    services.known.tables[classic_table.pk] = stale
    ack = services.act(classic_table.pk, other, {"kind": "open", "card": 0}, "o1")
    assert ack.version == version + 1
    after = state_of(classic_table.pk)
    assert after.pot == 40 and after.seats[[ann, boris].index(other)].opened == 1  # both moves, once each
    ledger_matches_engine(classic_table.pk)
    audit_clean()


def test_an_account_known_wrongly_gets_nothing_written(classic_table, players):
    """The statement checks each account it moves chips of is that account of this table: a wrong id known here
    (a reused test database, a fault) writes nothing, and the locked way answers and mends what is known."""
    ann, boris, _ = players
    seated_deal(classic_table, [ann, boris])
    player = to_act(classic_table, [ann, boris])
    other = next(p for p in (ann, boris) if p != player)
    ids = services.known.accounts[classic_table.pk]
    mine, theirs = AccountRef.stack(player.pk, classic_table.pk), AccountRef.stack(other.pk, classic_table.pk)
    ids[mine], right = ids[theirs], ids[mine]
    balances = dict(LedgerAccount.objects.values_list("pk", "balance"))
    command = parse_action({"kind": "bet", "amount": 20})
    assert services.act_unlocked(classic_table.pk, player, command, "b1") is None
    assert dict(LedgerAccount.objects.values_list("pk", "balance")) == balances
    services.act(classic_table.pk, player, {"kind": "bet", "amount": 20}, "b1")
    assert services.known.accounts[classic_table.pk][mine] == right
    ledger_matches_engine(classic_table.pk)
    audit_clean()


def test_a_refusal_on_a_known_state_is_the_locked_ways_refusal(classic_table, players):
    """A move refused on the state known here may be legal on the newest: the locked way decides, and its refusal
    is the one given."""
    ann, boris, _ = players
    seated_deal(classic_table, [ann, boris])
    waiting = next(p for p in (ann, boris) if p != to_act(classic_table, [ann, boris]))
    version = state_of(classic_table.pk).version
    with pytest.raises(services.DoorError) as refused:
        services.act(classic_table.pk, waiting, {"kind": "bet", "amount": 20}, "b1")
    assert refused.value.code == "not_your_turn"
    assert state_of(classic_table.pk).version == version


def three_pressed_but_one(table, users):
    """Three players seated (400 chips each) have played a first deal (the table's pot account opens in it, the
    locked way), and then pressed New deal, all but the last."""
    seated_deal(table, users, ("9s 8d 7c", "Ah Kh Qh", "6c 6h 6s"))
    for _ in range(2):
        services.act(table.pk, to_act(table, users), {"kind": "fold"})
    for user in users[:-1]:
        services.act(table.pk, user, {"kind": "new_deal"})


def test_the_last_new_deal_starts_the_deal_in_one_statement_with_its_antes_and_rows_S3_S10(
    classic_table, players, settings
):
    """The press that starts a deal: its antes, its events, the deal's row with its commitment and its players'
    rows, the state and the reply, all in the one statement; the deal then ends the locked way, from those rows."""
    ann, boris, vera = players
    three_pressed_but_one(classic_table, players)
    settings.SVARA_DECK_PROVIDER = None  # the fair shuffle, as everywhere but the test settings
    before = Transfer.objects.count()
    ack, sql = statements(services.act, classic_table.pk, vera, {"kind": "new_deal"}, "n3")
    assert len(sql) == 1 and "FOR UPDATE" not in sql[0], sql
    state = state_of(classic_table.pk)
    assert state.phase != "waiting" and state.version == ack.version and state.pot == 30 and state.deal_no == 2
    deal = Deal.objects.get(table=classic_table, number=state.deal_no, svara=0)
    assert deal.commitment == commitment(state.fair.server_seed) and deal.ended_at is None
    stacks = {seat.player: seat.stack + 10 for seat in state.seats if seat.player}  # before the ante
    assert sorted(DealSeat.objects.filter(deal=deal).values_list("seat", "name", "stack", "user_id")) == [
        (0, "Ann", stacks[str(ann.pk)], ann.pk), (1, "Boris", stacks[str(boris.pk)], boris.pk),
        (2, "Vera", stacks[str(vera.pk)], vera.pk)]  # fmt: skip
    antes = Transfer.objects.filter(key__startswith=f"t{classic_table.pk}:v{state.version}:in:")
    assert Transfer.objects.count() == before + 3 and sorted(antes.values_list("amount", flat=True)) == [10, 10, 10]
    assert DealEvent.objects.filter(table=classic_table, deal_number=state.deal_no, version=state.version).exists()
    assert ClientMessage.objects.get(client_id="n3").response == ack.reply
    ledger_matches_engine(classic_table.pk)
    for _ in range(2):  # two folds end it: the deal's row closes with its results, read from the rows written above
        services.act(classic_table.pk, to_act(classic_table, players), {"kind": "fold"})
    deal.refresh_from_db()
    assert deal.ended_at is not None and deal.pot == 30
    results = DealSeat.objects.filter(deal=deal)
    assert sum(row.net for row in results) == -deal.rake and sum(row.put_in for row in results) == 30
    ledger_matches_engine(classic_table.pk)
    audit_clean()


def test_a_deal_start_on_a_stale_state_writes_no_deal_rows_and_the_locked_way_answers(classic_table, players,
                                                                                       settings):  # fmt: skip
    vera = players[2]
    three_pressed_but_one(classic_table, players)
    settings.SVARA_DECK_PROVIDER = None
    stale = services.known.tables[classic_table.pk]
    services.act(classic_table.pk, vera, {"kind": "new_deal"}, "n3")
    number = state_of(classic_table.pk).deal_no
    counts = (Deal.objects.count(), DealSeat.objects.count(), *written_rows())
    services.known.tables[classic_table.pk] = stale  # as the other daphne may know it
    assert services.act_unlocked(classic_table.pk, vera, parse_action({"kind": "new_deal"}), "n4") is None
    assert (Deal.objects.count(), DealSeat.objects.count(), *written_rows()) == counts
    assert Deal.objects.filter(table=classic_table, number=number).count() == 1
    with pytest.raises(services.DoorError) as refused:  # the locked way: the deal runs already
        services.act(classic_table.pk, vera, {"kind": "new_deal"}, "n4")
    assert refused.value.code == "illegal_action"
    ledger_matches_engine(classic_table.pk)
    audit_clean()


def test_a_deal_from_the_test_settings_queued_deck_starts_the_locked_way(classic_table, players):
    """The queued decks are kept on the table's row, which a move without the lock does not read."""
    vera = players[2]
    three_pressed_but_one(classic_table, players)
    services.queue_test_deck(classic_table.pk, ["9s 8d 7c", "Ah Kh Qh", "6c 6h 6s"])
    _, sql = statements(services.act, classic_table.pk, vera, {"kind": "new_deal"}, "n3")
    assert any("FOR UPDATE" in s for s in sql), sql
    state = state_of(classic_table.pk)
    assert state.dealer == 1  # the button moved on: seat 2 is dealt first
    assert [str(ALL_CARDS[card]) for card in state.seats[2].cards] == ["9♠", "8♦", "7♣"]
    assert Table.objects.get(pk=classic_table.pk).test_decks == []


def test_a_move_that_ends_a_deal_reads_its_events_and_closes_it_in_one_statement_S8(classic_table, players):
    """The deal's end: its stored events read (its players' results come from them), then the award, the rake to the
    table's house account, the events, the deal's row closed with its players' results, the state and the reply in
    the one statement: no lock, no transaction around it (it went the locked way: four round trips and a thread)."""
    ann, boris, _ = players
    seated_deal(classic_table, [ann, boris])
    folder = to_act(classic_table, [ann, boris])
    _, sql = statements(services.act, classic_table.pk, folder, {"kind": "fold"}, "f1")
    assert len(sql) == 2 and sql[0].startswith('SELECT "event"') and sql[1].startswith("WITH guard AS"), sql
    assert not any("FOR UPDATE" in s for s in sql), sql
    state = state_of(classic_table.pk)
    assert state.phase == "waiting" and ClientMessage.objects.get(client_id="f1").response["version"] == state.version
    deal = Deal.objects.get(table=classic_table, number=1, svara=0)
    assert deal.ended_at is not None and deal.pot == 20 and deal.server_seed == state.fair.server_seed is not None
    winner = next(p for p in (ann, boris) if p != folder)
    assert [w["seat"] for w in deal.winners] == [[ann, boris].index(winner)]
    rows = {row.user_id: row for row in DealSeat.objects.filter(deal=deal)}
    assert rows[folder.pk].net == -10 and rows[winner.pk].net == 10 - deal.rake and all(r.ended for r in rows.values())
    ledger_matches_engine(classic_table.pk)
    audit_clean()


def test_a_deals_end_on_a_stale_state_leaves_the_deal_open_and_the_locked_way_closes_it_once_S8(classic_table,
                                                                                                    players):  # fmt: skip
    ann, boris, _ = players
    seated_deal(classic_table, [ann, boris])
    folder = to_act(classic_table, [ann, boris])
    other = next(p for p in (ann, boris) if p != folder)
    stale = services.known.tables[classic_table.pk]
    services.act(classic_table.pk, other, {"kind": "open", "card": 0}, "o1")  # a move meanwhile, in "another" process
    services.known.tables[classic_table.pk] = stale
    counts = written_rows()
    assert services.act_unlocked(classic_table.pk, folder, parse_action({"kind": "fold"}), "f1") is None
    deal = Deal.objects.get(table=classic_table, number=1, svara=0)
    assert deal.ended_at is None and written_rows() == counts  # the guard held the deal's close back with the rest
    services.known.tables[classic_table.pk] = stale
    ack = services.act(classic_table.pk, folder, {"kind": "fold"}, "f1")
    deal.refresh_from_db()
    assert deal.ended_at is not None and ack.version == state_of(classic_table.pk).version
    rows = DealSeat.objects.filter(deal=deal)
    assert sorted(r.net for r in rows) == [-10, 10 - deal.rake] and sum(r.put_in for r in rows) == 20
    ledger_matches_engine(classic_table.pk)
    audit_clean()


def test_a_deals_end_is_not_written_with_events_read_before_the_known_state_moved_on_S8(classic_table, players):
    """The events a deal's end is closed with are read between two plans of the move: if the state this process
    knows moves on meanwhile (a group message on the loop, another thread), the second plan would play on a newer
    version than the events were read after, and close the deal without the newer events. It is refused instead."""
    from tables import reads
    from tables.services import optimistic

    ann, boris, _ = players
    seated_deal(classic_table, [ann, boris])
    folder = to_act(classic_table, [ann, boris])
    other = next(p for p in (ann, boris) if p != folder)
    fold = parse_action({"kind": "fold"})
    needs = optimistic.plan(classic_table.pk, folder, fold, "f1")
    assert isinstance(needs, optimistic.NeedsDealEvents) and needs.version == state_of(classic_table.pk).version
    read = optimistic.DealEvents(needs.number, needs.version, reads.deal_events(classic_table.pk, needs.number, svara=0))
    services.act(classic_table.pk, other, {"kind": "open", "card": 0}, "o1")  # known here: the state moved on
    assert services.known.version(classic_table.pk) == needs.version + 1
    assert optimistic.plan(classic_table.pk, folder, fold, "f1", read) is None
    fresh = optimistic.plan(classic_table.pk, folder, fold, "f1")
    assert isinstance(fresh, optimistic.NeedsDealEvents) and fresh.version == needs.version + 1


def played_to_the_end(table, users) -> None:
    """A deal of queued cards at `table`: a bet, a raise, calls, then each Show asked for, to its end."""
    seat_deal = seated_deal(table, users, ("9s 8d 7c", "Ah Kh Qh", "6c 6h 6s"))
    wanted = [{"kind": "bet", "amount": 20}, {"kind": "raise", "amount": 40}]
    for step in range(20):
        state = state_of(table.pk)
        if state.phase == "waiting":
            return
        seat, kinds = next((i, {lg.kind for lg in state.legal_moves(i)}) for i in range(len(users))
                           if {lg.kind for lg in state.legal_moves(i)} & {"show", "bet", "raise", "call", "check"})  # fmt: skip
        move = next((m for m in wanted if m["kind"] in kinds), None)
        if move is not None:
            wanted.remove(move)
        else:
            move = {"kind": next(k for k in ("show", "call", "check") if k in kinds)}
        services.act(table.pk, users[seat], move, f"e{table.pk}-{step}")
    raise AssertionError(f"deal {seat_deal.deal_no} did not end")


def recorded(table) -> tuple:
    deal = Deal.objects.get(table=table, number=1, svara=0)
    results = sorted(DealSeat.objects.filter(deal=deal).values_list(
        "seat", "stack", "put_in", "won", "net", "won_pot", "played", "tied", "svara_won", "ended"))  # fmt: skip
    return deal.pot, deal.rake, deal.winners, bool(deal.server_seed), results


def test_a_deal_ended_without_the_lock_is_recorded_as_the_locked_way_records_it_S8(players, settings):
    """The same deal, the same cards and moves, at two tables: with moves without the lock (its end too) and with
    every move the locked way. The hand histories and the chips are the same."""
    users = players
    unlocked = services.create_table(users[0], "classic", 10, 6, False)
    ended_unlocked = []
    plain = services.act_unlocked

    def counted(*args):
        ack = plain(*args)
        if ack is not None and any(event["type"] == "deal_ended" for event in ack.change.events):
            ended_unlocked.append(ack.version)
        return ack

    with mock.patch("tables.services.door.optimistic.act", counted):
        played_to_the_end(unlocked, users)
    assert len(ended_unlocked) == 1  # the Show that ended it went without the lock
    settings.SVARA_UNLOCKED_MOVES = False
    locked = services.create_table(users[0], "classic", 10, 6, False)
    with CaptureQueriesContext(connection) as captured:
        played_to_the_end(locked, users)
    assert any("FOR UPDATE" in q["sql"] for q in captured.captured_queries)
    assert recorded(unlocked) == recorded(locked)
    pot, rake, winners, _revealed, results = recorded(unlocked)
    assert pot > 60 and rake > 0 and winners and sum(row[4] for row in results) == -rake  # net: the rake went
    assert [s.stack for s in state_of(unlocked.pk).seats] == [s.stack for s in state_of(locked.pk).seats]
    for table in (unlocked, locked):
        ledger_matches_engine(table.pk)
    audit_clean()


def test_a_move_waits_for_a_writer_holding_the_row_and_then_writes_nothing(classic_table, players):
    """Another process's locked action holds the row: the statement waits for its commit, finds the row moved on
    (PostgreSQL re-reads the row's version once the lock is free) and writes nothing; the locked way answers."""
    ann, boris, _ = players
    seated_deal(classic_table, [ann, boris])
    player = to_act(classic_table, [ann, boris])
    other = next(p for p in (ann, boris) if p != player)
    known = services.known.tables[classic_table.pk]
    holding, release, results = threading.Event(), threading.Event(), {}

    def locked_bet():
        try:
            with transaction.atomic():  # the door's own transaction inside it: the locked way
                services.act(classic_table.pk, player, {"kind": "bet", "amount": 20}, "b1")
                holding.set()
                release.wait(10)
        finally:
            close_old_connections()

    def unlocked_open():
        try:
            services.known.tables[classic_table.pk] = known
            results["unlocked"] = services.act_unlocked(classic_table.pk, other, parse_action(
                {"kind": "open", "card": 1}), "o1")  # fmt: skip
        finally:
            close_old_connections()

    first = threading.Thread(target=locked_bet)
    first.start()
    assert holding.wait(10)
    second = threading.Thread(target=unlocked_open)
    second.start()
    second.join(0.5)
    assert second.is_alive(), "the statement waits for the row"
    release.set()
    first.join(10)
    second.join(10)
    assert results["unlocked"] is None
    assert not ClientMessage.objects.filter(client_id="o1").exists()
    services.act(classic_table.pk, other, {"kind": "open", "card": 1}, "o1")
    after = state_of(classic_table.pk)
    assert after.pot == 40 and after.seats[[ann, boris].index(other)].opened == 2
    ledger_matches_engine(classic_table.pk)
    audit_clean()


DECKS = (["9s 8d 7c", "Ah Kh Qh", "6c 6h 6s"], ["Ac Kd 9h", "As 7d 8c", "Qd Jd 10d"],
         ["7s 7h 8s", "Kc Ks 9c", "Jh 10h 9d"])  # fmt: skip
MOVES = ("check", "bet", "call", "raise", "fold", "open", "blind", "dark", "show", "fold_hand", "split",
         "play_on", "buy_in", "decline")  # fmt: skip


def test_random_play_with_stale_and_repeated_messages_keeps_every_chip_S10(staff):
    """Random legal play at three seats over several deals, each message sometimes played on a state this process
    knows from earlier (as the other daphne may) and sometimes sent again with an id already answered: after every
    one, the ledger holds the engine's chips, each id was applied once, and the audit is clean. Both ways were
    taken: moves written without the lock, and moves the statement refused that the locked way then answered; and
    with the fair shuffle (no queued decks), deals started without the lock."""
    tried = {"written": 0, "refused": 0, "deals started": 0}
    plain = services.act_unlocked

    def counted(*args):
        ack = plain(*args)
        if services.known.tables.get(args[0]) is not None and args[2].kind in ("check", "call", "bet", "open"):
            tried["written" if ack is not None else "refused"] += 1
        if ack is not None and any(event["type"] == "deal_started" for event in ack.change.events):
            tried["deals started"] += 1
        return ack

    with mock.patch("tables.services.door.optimistic.act", counted):
        random_play(staff=staff, fair=False)
        random_play(staff=staff, fair=True)
    assert tried["written"] > 20 and tried["refused"] > 5 and tried["deals started"] > 0, tried


@hypothesis_settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def random_play(data, staff, fair: bool):
    from wallet import services as wallet

    services.known.forget()
    users, example = [], Table.objects.count()
    for n in range(3):
        user = make_user(f"p{example}-{n}@example.com", display_name=f"P{example}-{n}")
        wallet.credit(user, 10_000, reason="chips", staff=staff)
        users.append(user)
    table = services.create_table(users[0], "classic", 10, 6, False)
    if not fair:
        for deal in range(30):  # fixed decks: the same draws play the same game (a tie's svara deals one too)
            services.queue_test_deck(table.pk, DECKS[deal % len(DECKS)])
    with override_settings(SVARA_DECK_PROVIDER=None if fair else settings.SVARA_DECK_PROVIDER):
        play_randomly(data, table, users)


def play_randomly(data, table, users):
    for seat, user in enumerate(users):
        services.sit(table.pk, user, 400, seat=seat)
    history, sent = [], []  # the known states seen, (user, id, reply) of every answered message
    for step in range(data.draw(st.integers(20, 60), label="messages")):
        # Six numbers a message, whatever the game: with the fair shuffle the cards, and so the lists they choose
        # from, differ from run to run, and hypothesis wants the same kinds of draws in the same order each time.
        chosen, amount, stale, known, repeat, again = (data.draw(st.integers(0, 1023), label=label) for label in
                                                       ("move", "amount", "stale", "known", "repeat", "again"))
        state = state_of(table.pk)
        if state.phase == "waiting":
            for seat, user in enumerate(users):
                if state.seats[seat].stack < 10:
                    services.act(table.pk, user, {"kind": "add_chips", "amount": 200})
            user = nth([u for i, u in enumerate(users) if not state.seats[i].ready], chosen)
            command = {"kind": "new_deal"}
        else:
            choices = [(u, lg) for i, u in enumerate(users) for lg in state.legal_moves(i) if lg.kind in MOVES]
            user, legal = nth(choices, chosen)
            command = {"kind": legal.kind}
            if legal.kind == "open":
                seat = users.index(user)
                command["card"] = next(k for k in range(3) if not state.seats[seat].opened >> k & 1)
            elif legal.min is not None:
                command["amount"] = legal.min + amount % (legal.max - legal.min + 1)
        if history and stale % 2:
            services.known.tables[table.pk] = nth(history, known)
        if sent and repeat % 5 == 0:
            again_user, again_id, reply = nth(sent, again)
            version = state_of(table.pk).version
            assert services.act(table.pk, again_user, {"kind": "check"}, again_id).reply == reply
            assert state_of(table.pk).version == version
        message_id = f"m{step}"
        try:
            ack = services.act(table.pk, user, command, message_id)
        except services.DoorError as refused:
            assert refused.code in ("illegal_action", "not_your_turn", "out_of_range"), refused
            continue
        sent.append((user, message_id, ack.reply))
        history.append(services.known.tables[table.pk])
        ledger_matches_engine(table.pk)
    assert ClientMessage.objects.filter(table=table).count() == len(sent)
    hand_history_matches_events(table)
    audit_clean()


def hand_history_matches_events(table):
    """Every closed deal's (and svara's) players' results are what its stored events give (history.results), by
    whichever way, and on whichever known state, its end was written."""
    from tables import reads
    from tables.services import history

    for deal in Deal.objects.filter(table=table, ended_at__isnull=False):
        events = reads.deal_events(table.pk, deal.number, svara=deal.svara)
        tied = next((tuple(e["seats"]) for e in reversed(events) if e["type"] == "svara"), ())
        expected = history.results(events, tied)
        for row in DealSeat.objects.filter(deal=deal):
            result = expected.get(row.seat, history.Result())
            assert (row.put_in, row.won, row.net, row.tied) == (result.put_in, result.won,
                                                                 result.won - result.put_in, result.tied), (
                deal.number, deal.svara, row.seat)  # fmt: skip


def nth(items: list, number: int):
    return items[number % len(items)]


def test_a_tie_that_goes_on_to_a_svara_goes_the_locked_way_S7(classic_table, players):
    """A svara's start needs the new deal row's id at once (its players join it): the answer that plays on after a
    tie goes the locked way, and the deal that tied is closed there, tied."""
    ann, boris, _ = players
    seated_deal(classic_table, [ann, boris], ("Ah Kh Qh", "As Ks Qs"))
    answered = []
    for step in range(12):
        state = state_of(classic_table.pk)
        moves = {i: {lg.kind for lg in state.legal_moves(i)} for i in range(2)}
        seat = next((i for i in range(2) if "play_on" in moves[i]), None)
        if seat is not None:
            _, sql = statements(services.act, classic_table.pk, [ann, boris][seat], {"kind": "play_on"}, f"p{step}")
            answered.append(sql)
            if state_of(classic_table.pk).svara_chain:
                break
            continue
        seat, kinds = next((i, k) for i, k in moves.items() if k & {"show", "call", "check", "bet"})
        kind = next(k for k in ("show", "call", "check") if k in kinds) if kinds - {"bet"} else "bet"
        services.act(classic_table.pk, [ann, boris][seat], {"kind": kind, **({"amount": 20} if kind == "bet" else {})})
    assert state_of(classic_table.pk).svara_chain == 1, "the tie went on to a svara"
    assert any("FOR UPDATE" in s for s in answered[-1]), answered[-1]
    assert Deal.objects.get(table=classic_table, number=1, svara=0).ended_at is not None
    assert Deal.objects.filter(table=classic_table, number=1, svara=1, ended_at__isnull=True).exists()
    ledger_matches_engine(classic_table.pk)
    audit_clean()
