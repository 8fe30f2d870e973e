"""The lean door: one transaction of few statements per action, pinned per action kind; replies stored only for
messages with an id and pruned after SVARA_REPLY_SECONDS; hand histories appended, never rewritten."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tables import services
from tables.models import ClientMessage, Deal, DealEvent
from wallet.accounts import house_account, house_takings

from .conftest import audit_clean, ledger_matches_engine, state_of

# The door's own transaction is outermost here (as in production), so no test savepoint is counted.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def the_locked_way(settings):
    """This file pins the locked way's statements; a move without the lock has its own (test_unlocked_moves.py)."""
    settings.SVARA_UNLOCKED_MOVES = False


def statements(fn, *args, **kwargs) -> list[str]:
    """The statements the call ran, without BEGIN and COMMIT (SQLite's driver logs them, psycopg's does not)."""
    with CaptureQueriesContext(connection) as captured:
        fn(*args, **kwargs)
    return [q["sql"] for q in captured.captured_queries if q["sql"] not in ("BEGIN", "COMMIT")]


def seated_deal(table, users):
    for index, user in enumerate(users):
        services.sit(table.pk, user, 400, seat=index)
    services.queue_test_deck(table.pk, ["9s 8d 7c", "Ah Kh Qh"])
    for user in users:
        services.act(table.pk, user, {"kind": "new_deal"})
    return state_of(table.pk)


def whose_turn(table, users):
    return users[state_of(table.pk).turn]


# Statements of each kind of action in the door's transaction, besides its BEGIN and COMMIT.
ON_POSTGRESQL = connection.vendor == "postgresql"
# The lock (the stored reply looked up in the same statement), then the events, the state and the reply: one
# statement on PostgreSQL (data-modifying WITHs), one each on SQLite.
MOVE_WITHOUT_CHIPS = 2 if ON_POSTGRESQL else 4
# The same + the ledger batch: on PostgreSQL its transfers and balances go in the same statement as the events and
# the state (the pot and the stacks come locked with the table's row); on SQLite the transfers, the balances.
MOVE_WITH_CHIPS = 2 if ON_POSTGRESQL else 7


def test_a_move_without_chips_takes_two_statements_on_postgresql(classic_table, players):
    ann, boris, _ = players
    seated_deal(classic_table, [ann, boris])
    player = whose_turn(classic_table, [ann, boris])
    sql = statements(services.act, classic_table.pk, player, {"kind": "open", "card": 0}, "m-open")
    assert len(sql) == MOVE_WITHOUT_CHIPS, sql
    sql = statements(services.act, classic_table.pk, player, {"kind": "check"}, "m-check")
    assert len(sql) == MOVE_WITHOUT_CHIPS, sql


def test_a_bet_moves_its_chips_in_one_ledger_batch(classic_table, players):
    ann, boris, _ = players
    seated_deal(classic_table, [ann, boris])
    player = whose_turn(classic_table, [ann, boris])
    sql = statements(services.act, classic_table.pk, player, {"kind": "bet", "amount": 20}, "m-bet")
    assert len(sql) == MOVE_WITH_CHIPS, sql
    assert sum('INSERT INTO "wallet_transfer"' in s for s in sql) == 1
    other = whose_turn(classic_table, [ann, boris])
    sql = statements(services.act, classic_table.pk, other, {"kind": "call"}, "m-call")
    assert sum('INSERT INTO "wallet_transfer"' in s for s in sql) == 1, sql
    ledger_matches_engine(classic_table.pk)
    audit_clean()


def test_a_move_whose_transfer_key_is_taken_is_refused_whole_and_changes_nothing(classic_table, players, staff):
    """No chip moves twice: the bet's transfer key already names another transfer (it cannot happen in play, where a
    key holds the table's new version), so its write is refused (PostgreSQL: fewer transfers went in than the batch
    holds) and the action's transaction rolls back whole: no state, no event, no balance, no stored reply."""
    from wallet import services as wallet
    from wallet.models import LedgerAccount, Transfer

    ann, boris, _ = players
    seated_deal(classic_table, [ann, boris])
    player = whose_turn(classic_table, [ann, boris])
    before = state_of(classic_table.pk)
    wallet.credit(player, 1, reason="a key taken", staff=staff, key=f"t{classic_table.pk}:v{before.version + 1}:in:{player.pk}")
    balances = dict(LedgerAccount.objects.values_list("pk", "balance"))
    counts = (Transfer.objects.count(), DealEvent.objects.count(), ClientMessage.objects.count())
    with pytest.raises(services.DoorError) as refused:
        services.act(classic_table.pk, player, {"kind": "bet", "amount": 20}, "m-bet")
    assert refused.value.code == "wallet" and "already used" in str(refused.value.message)
    assert state_of(classic_table.pk).version == before.version
    assert dict(LedgerAccount.objects.values_list("pk", "balance")) == balances
    assert (Transfer.objects.count(), DealEvent.objects.count(), ClientMessage.objects.count()) == counts
    audit_clean()


def test_a_message_without_an_id_stores_no_reply(classic_table, players):
    ann, boris, _ = players
    seated_deal(classic_table, [ann, boris])
    player = whose_turn(classic_table, [ann, boris])
    sql = statements(services.act, classic_table.pk, player, {"kind": "open", "card": 1})
    assert len(sql) == (MOVE_WITHOUT_CHIPS if ON_POSTGRESQL else MOVE_WITHOUT_CHIPS - 1), sql
    assert not any("tables_clientmessage" in s for s in sql)


def test_a_repeated_id_is_answered_from_the_locking_statement_alone(classic_table, players):
    ann = players[0]
    first = services.sit(classic_table.pk, ann, 400, client_id="s1")
    sql = statements(services.sit, classic_table.pk, ann, 400, client_id="s1")
    assert len(sql) == 1, sql
    assert services.sit(classic_table.pk, ann, 400, client_id="s1").reply == first.reply


def test_the_hand_history_is_appended_one_insert_per_action(classic_table, players):
    ann, boris, _ = players
    seated_deal(classic_table, [ann, boris])
    sql = statements(services.act, classic_table.pk, whose_turn(classic_table, [ann, boris]), {"kind": "check"})
    assert sum('INSERT INTO "tables_dealevent"' in s for s in sql) == 1
    assert not any(s.startswith('UPDATE "tables_deal"') for s in sql)  # the deal row is not rewritten
    services.act(classic_table.pk, whose_turn(classic_table, [ann, boris]), {"kind": "fold"})
    deal = Deal.objects.get(table=classic_table)
    kinds = [e["type"] for e in deal.events]
    assert kinds[0] == "deal_started" and kinds[-1] == "deal_ended"
    assert "check" in kinds and "fold" in kinds
    assert deal.ended_at is not None and deal.pot > 0 and deal.winners
    # In the order they happened: version by version, and within a version as the engine emitted them.
    places = list(DealEvent.objects.filter(table=classic_table).values_list("version", "index"))
    assert places == sorted(places)


def test_stored_replies_are_pruned_after_their_time(classic_table, players, settings):
    ann = players[0]
    services.sit(classic_table.pk, ann, 400, client_id="old")
    settings.SVARA_REPLY_SECONDS = 60
    ClientMessage.objects.filter(client_id="old").update(created_at=timezone.now() - timedelta(seconds=61))
    services.stand(classic_table.pk, ann, client_id="new")
    assert services.prune_replies() == 1
    assert list(ClientMessage.objects.values_list("client_id", flat=True)) == ["new"]


def test_table_actions_commit_asynchronously_and_staff_credits_durably(players, staff):
    """A table action need not wait for the disk (lost only whole, with its chips, on a PostgreSQL crash); a staff
    credit always does."""
    if connection.vendor != "postgresql":
        pytest.skip("synchronous_commit is PostgreSQL's: set DATABASE_URL")
    from wallet.services import credit

    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        assert cursor.fetchone()[0] == "off"
    sql = statements(credit, players[0], 5, reason="a prize", staff=staff)
    assert sql[0] == "SET LOCAL synchronous_commit TO on", sql


# One deal played through, statement by statement (the door's transaction and its after-commit work, without
# BEGIN and COMMIT): PostgreSQL, where a move's writes (its transfers and balances, events, state and reply) are one
# statement, then SQLite, where they are one each. A player's first sit-down at a table opens his stack's ledger
# account (a savepoint, an insert and the batch's own statements more; the table's pot and house account opened
# with the table); a seat change re-reads the
# lobby's entry of the table once for every lobby socket. A sit-down and chips added look up the player's own
# limits row under a lock (one statement more; wallet/limits.py); the moves do not.
PER_KIND = [  # (who, action, PostgreSQL, SQLite)
    (0, {"kind": "sit", "amount": 400, "seat": 0}, 18, 20),
    (1, {"kind": "sit", "amount": 400, "seat": 1}, 18, 20),
    (0, {"kind": "new_deal"}, 2, 3),  # ready: lock, state and reply (SQLite: one each)
    (1, {"kind": "new_deal"}, 4, 10),  # the deal starts: antes into the pot, the deal's row and its players'
    # rows (one statement; SQLite: two), its events
    ("turn", {"kind": "open", "card": 0}, 2, 4),
    ("turn", {"kind": "check"}, 2, 4),
    ("turn", {"kind": "bet", "amount": 20}, 2, 7),
    ("turn", {"kind": "raise", "amount": 40}, 2, 7),
    ("turn", {"kind": "call"}, 2, 7),
    # The deal ends: the award, the rake to the house account, the deal's events read, the deal closed with its
    # players' results (one statement; SQLite: two).
    ("turn", {"kind": "show"}, 4, 10),
    (0, {"kind": "add_chips", "amount": 50}, 4, 7),
    (0, {"kind": "sit_out"}, 2, 3),
    (0, {"kind": "back"}, 2, 3),
    (1, {"kind": "stand"}, 7, 10),
]


def test_a_deal_that_pays_the_house_locks_no_ledger_account_of_its_own_S8(classic_table, players):
    """The rake goes to the table's own house account, which comes locked with the table's row like its pot
    (session 16; it opens with the table): the locked way's move that ends a deal, rake and all, takes no lock of its
    own. It used to lock the one house account of every table in a statement of its own, so every deal ending
    anywhere queued on that row until its transaction committed."""
    ann, boris, _ = players
    users = [ann, boris]
    for index, user in enumerate(users):
        services.sit(classic_table.pk, user, 400, seat=index)
    moves = [{"kind": "new_deal"}, {"kind": "new_deal"}, {"kind": "bet", "amount": 20}, {"kind": "call"},
             {"kind": "show"}]  # fmt: skip
    ends = []
    for deal in range(2):
        services.queue_test_deck(classic_table.pk, ["9s 8d 7c", "Ah Kh Qh"])
        for index, move in enumerate(moves):
            user = users[index] if move["kind"] == "new_deal" else whose_turn(classic_table, users)
            sql = statements(services.act, classic_table.pk, user, move, f"d{deal}m{index}")
        ends.append(sql)
    assert state_of(classic_table.pk).phase == "waiting"
    house = house_account(classic_table.pk)
    assert house.balance == house_takings() == 2  # 3 % of each deal's pot of 60, rounded down (S8)
    locking = [q for q in ends[1] if "wallet_ledgeraccount" in q and "FOR UPDATE" in q and "WITH locked" not in q]
    if ON_POSTGRESQL:
        assert locking == [], ends[1]
        # The lock, the deal's events read, the deal closed with its players' results, and the move's writes.
        assert len(ends[1]) == 4, ends[1]
    ledger_matches_engine(classic_table.pk)
    audit_clean()


def test_every_kind_of_action_runs_its_pinned_number_of_statements(classic_table, players):
    ann, boris, _ = players
    users = [ann, boris]
    services.queue_test_deck(classic_table.pk, ["9s 8d 7c", "Ah Kh Qh"])
    postgres = connection.vendor == "postgresql"
    seen = []
    for index, (who, action, on_postgres, on_sqlite) in enumerate(PER_KIND):
        user = whose_turn(classic_table, users) if who == "turn" else users[who]
        sql = statements(services.act, classic_table.pk, user, action, f"m{index}")
        seen.append((action["kind"], len(sql), on_postgres if postgres else on_sqlite))
    assert [(kind, got) for kind, got, _ in seen] == [(kind, want) for kind, _, want in seen], str(seen)
    with_id = statements(services.chat, classic_table.pk, ann, "gl", "c1")
    assert len(with_id) == 3  # lock, the line kept (a page opened later starts with it), reply; sent after commit
    ledger_matches_engine(classic_table.pk)
    audit_clean()


def test_a_buy_in_under_a_cap_locks_the_limits_row_then_reads_the_ledger(classic_table, players):
    """Issue 14: with a cap the check is two statements, the lock and then the day's sum (a fresh snapshot, so a
    buy-in another tab committed meanwhile counts)."""
    from wallet import limits

    ann, boris, _ = players
    limits.set_limits(ann, daily_buy_in_cap=1_000)
    services.sit(classic_table.pk, boris, 400, seat=1)
    plain = statements(services.act, classic_table.pk, boris, {"kind": "stand"})
    assert plain  # warm: every account is open
    services.sit(classic_table.pk, boris, 400, seat=1)
    services.sit(classic_table.pk, ann, 400, seat=0)
    services.stand(classic_table.pk, ann)
    sql = statements(services.act, classic_table.pk, ann, {"kind": "sit", "amount": 400, "seat": 0})
    without = statements(services.act, classic_table.pk, boris, {"kind": "add_chips", "amount": 100})
    with_cap = statements(services.act, classic_table.pk, ann, {"kind": "add_chips", "amount": 100})
    assert len(with_cap) == len(without) + 1, (with_cap, without)
    locked = [s for s in sql if "wallet_playerlimits" in s]
    assert len(locked) == 1 and (not ON_POSTGRESQL or "FOR UPDATE" in locked[0])
    first_sum = next(i for i, s in enumerate(sql) if 'SUM("wallet_transfer"."amount")' in s)
    assert sql.index(locked[0]) < first_sum


@pytest.mark.skipif(not ON_POSTGRESQL, reason="prepared statements are PostgreSQL's (CI runs on PostgreSQL)")
def test_the_doors_statements_are_prepared_but_the_ledgers_key_probe_is_planned_with_its_keys(classic_table, players):
    """DB_PREPARED: a statement run twice on a connection is prepared there (PostgreSQL may then plan it once for
    all runs): the row lock, and a move's one write with its transfers, which probes no key (the count of rows
    inserted decides). The ledger's own insert (`move`: a wallet service, or a batch that opens an account) probes
    its keys and is planned with them every run: its generic plan, made while the transfers were few, stayed a
    sequential scan as they grew."""
    ann, boris, _ = players
    seated_deal(classic_table, [ann, boris])
    # A bet and a call: the door's write of one transfer with both balances, twice; the row lock with them. The
    # buy-ins opened the stacks, so their batches ran the ledger's own insert.
    services.act(classic_table.pk, whose_turn(classic_table, [ann, boris]), {"kind": "bet", "amount": 20}, "m-bet")
    services.act(classic_table.pk, whose_turn(classic_table, [ann, boris]), {"kind": "call"}, "m-call")
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements")
        prepared = cursor.fetchall()
        cursor.execute("SELECT count(*) FROM wallet_transfer WHERE table_id = %s", [classic_table.pk])
        moved = cursor.fetchone()[0]
    lock = [row for row in prepared if 'FOR UPDATE OF "tables_table"' in row[0]]
    writes = [row for row in prepared if 'INSERT INTO "wallet_transfer"' in row[0]]
    assert lock and lock[0][1] + lock[0][2] >= 1, prepared
    assert moved >= 4 and writes and all('"tables_table"' in row[0] for row in writes), writes
    assert not any("NOT EXISTS" in row[0] for row in writes), writes


@pytest.mark.skipif(not ON_POSTGRESQL, reason="row locks are PostgreSQL's (CI runs on PostgreSQL)")
def test_the_tables_lock_holds_its_pot_and_seated_stacks_but_no_other_account(classic_table, players):
    """The door's first statement locks the table's row and, after it, the ledger accounts of its pot, its house
    account and its seated players' stacks, with their balances (wallet.batch.held): a bet then takes no lock
    statement of its own. Another transaction finds exactly those accounts locked, and a player's balance free."""
    import psycopg
    from django.db import transaction

    from tables.services import door
    from wallet.models import AccountKind, LedgerAccount

    ann, boris, _ = players
    seated_deal(classic_table, [ann, boris])
    accounts = LedgerAccount.objects.filter(table_id=classic_table.pk)
    expected = {(a.kind, a.user_id): a.balance for a in accounts}
    assert {kind for kind, _ in expected} == {AccountKind.POT, AccountKind.HOUSE, AccountKind.STACK}
    assert len(expected) == 4  # the pot and house account opened with the table, two stacks
    balance = LedgerAccount.objects.get(kind=AccountKind.BALANCE, user=ann)
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params, autocommit=True) as other:

        def locked(account_id: int) -> bool:
            try:
                other.execute(f"SELECT 1 FROM wallet_ledgeraccount WHERE id = {account_id} FOR UPDATE NOWAIT")
            except psycopg.errors.LockNotAvailable:
                return True
            return False

        with transaction.atomic():
            table = door.lock(classic_table.pk)
            held = {(ref.kind, ref.user_id): account.balance for ref, account in table.ledger_accounts.items()}
            assert held == expected
            assert all(locked(a.pk) for a in accounts)
            assert not locked(balance.pk)


@pytest.mark.skipif(not ON_POSTGRESQL, reason="plans are PostgreSQL's (CI runs on PostgreSQL)")
def test_the_tables_lock_finds_its_pot_and_stacks_through_their_indexes_whatever_the_ledgers_size(classic_table):
    """The first form of the statement filtered the table's stacks with an `IN` under an `OR`: no index could serve
    it, and every door action scanned every stack account ever opened (182 ms with 200,000). Each account is now
    named through the unique partial index that holds it: the plan reaches them by those, even when scanning is
    cheap (this test database is tiny, so the planner is told to avoid a sequential scan if it can)."""
    from django.db import transaction

    from tables.services import statements

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN " + statements._lock_sql("postgresql", False), [classic_table.pk])
        plan = "\n".join(row[0] for row in cursor.fetchall())
    stacks = plan.split("wallet_one_stack_per_seat", 1)[-1].split("\n")[1]
    assert "wallet_one_pot_per_table" in plan and "user_id = ANY" in stacks, plan  # the stacks by their players


@pytest.mark.skipif(not ON_POSTGRESQL, reason="one statement each on PostgreSQL only (CI runs on PostgreSQL)")
def test_a_deals_rows_open_and_close_in_one_statement_text_of_few_parameters_at_a_table_of_any_size(bulgarian_table):
    """A deal's players (as it opens) and their results (as it closes) travel as one JSON text: each statement has the
    same text for 2 players as for 8, and no more parameters than psycopg keeps the conversion of (a statement of
    more is parsed afresh at each call: four players' 76 parameters took 0.2 ms of CPU each time). Every player's
    row is written as given; a player without a result gets the empty one."""
    from psycopg._queries import MAX_CACHED_STATEMENT_PARAMS

    from tables.models import DealSeat
    from tables.services import statements as door_statements

    from .conftest import make_user

    users = [make_user(f"p{k}@example.com") for k in range(8)]
    now = timezone.now()
    empty = (0, 0, 0, False, False, False, False)
    sent = []

    def spy(execute, sql, params, many, context):
        sent.append((sql, len(params)))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(spy):
        for number, count in ((1, 2), (2, 8)):
            players = [
                DealSeat(user=user, table=bulgarian_table, family="bulgarian", started_at=now, seat=seat,
                         name=f"Player {seat}", stack=400 + seat)
                for seat, user in enumerate(users[:count])
            ]  # fmt: skip
            door_statements.open_deal(door_statements.Opening(Deal(table=bulgarian_table, number=number,
                                                                   started_at=now), players))  # fmt: skip
            results = {seat: (10, 0, -10, False, False, False, False) for seat in range(1, count - 1)}
            results[0] = (10, 10 * (count - 1), 10 * (count - 2), True, True, False, False)
            closed = {"ended_at": now, "pot": 10 * (count - 1), "rake": 0, "winners": [{"seat": 0}]}
            door_statements.close_deal(bulgarian_table.pk, door_statements.Closing(number, 0, closed, results, empty))
    opened, closed = sent[0::2], sent[1::2]
    assert len(sent) == 4 and opened[0][0] == opened[1][0] and closed[0][0] == closed[1][0], sent
    assert max(count for _, count in sent) <= MAX_CACHED_STATEMENT_PARAMS, sent
    rows = list(DealSeat.objects.filter(deal__number=2).order_by("seat").values_list(
        "seat", "user_id", "name", "stack", "ended", "put_in", "won", "net", "won_pot", "played", "tied", "svara_won"))  # fmt: skip
    assert rows == [
        (0, users[0].pk, "Player 0", 400, True, 10, 70, 60, True, True, False, False),
        *((seat, users[seat].pk, f"Player {seat}", 400 + seat, True, 10, 0, -10, False, False, False, False)
          for seat in range(1, 7)),
        (7, users[7].pk, "Player 7", 407, True, *empty),
    ]  # fmt: skip
    assert Deal.objects.get(number=2).pot == 70


def test_a_deals_players_have_no_index_on_the_deal_alone():
    """Both their unique constraints lead with the deal (tables migration 0014): a deal's start writes one index less
    a player."""
    if connection.vendor != "postgresql":
        pytest.skip("the indexes are PostgreSQL's: set DATABASE_URL")
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE tablename = 'tables_dealseat'")
        indexes = [sql for (sql,) in cursor.fetchall()]
    assert not [sql for sql in indexes if sql.endswith("(deal_id)")], indexes
    assert [sql for sql in indexes if "UNIQUE" in sql and "(deal_id, seat)" in sql], indexes
