"""`wallet.move`: every chip movement of one table action as one batch, in two statements (three on SQLite), all
or nothing."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from wallet import accounts, services
from wallet.audit import audit_ledger
from wallet.models import LedgerAccount, Transfer, TransferKind
from wallet.services import AccountRef, Movement, WalletError, move

from .conftest import _make_user, require_postgresql
from .test_concurrency import ROUNDS, THREADS, run_in_threads

TABLE = 7
ANTE = 10
K = TransferKind


def snapshot():
    """Every account with its balance, and the number of transfers: what a refusal must leave as it was."""
    return sorted(LedgerAccount.objects.values_list("pk", "kind", "user_id", "table_id", "balance")), (
        Transfer.objects.count()
    )


def seated(*players, stack=1000):
    """The players sat at TABLE with `stack` chips each, and the table's pot and the house open."""
    for p in players:
        services.buy_in(p, TABLE, stack, ante=ANTE, key=f"sit-{p.pk}")
    accounts.pot_account(TABLE)
    accounts.house_account(TABLE)


def bet(player, amount, key):
    return Movement(K.BET, AccountRef.stack(player.pk, TABLE), AccountRef.pot(TABLE), amount, key)


def pay_out(player, amount, key):
    return Movement(K.PAY_OUT, AccountRef.pot(TABLE), AccountRef.stack(player.pk, TABLE), amount, key)


def rake(amount, key):
    return Movement(K.RAKE, AccountRef.pot(TABLE), AccountRef.house(TABLE), amount, key, family="classic")


def a_deal(a, b, key="t7:v9"):
    """A call, the rake and the payout: one showdown's chips."""
    return [bet(a, 50, f"{key}:in:a"), bet(b, 50, f"{key}:in:b"), rake(5, f"{key}:rake"), pay_out(b, 95, f"{key}:out")]


@pytest.fixture
def two_seated(funded, other_player, staff):
    services.credit(other_player, 5000, reason="welcome chips", staff=staff)
    seated(funded, other_player)
    return funded, other_player


# --- the statement budget -------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_batch_on_open_accounts_costs_two_statements_whatever_its_length(two_seated):
    """PostgreSQL: the locking SELECT, and one INSERT that updates the balances in its WITH; SQLite: the UPDATE
    separately (no savepoint either way)."""
    a, b = two_seated
    postgres = connection.vendor == "postgresql"
    for batch in (a_deal(a, b, "d1"), a_deal(a, b, "d2") + a_deal(b, a, "d3")):
        with CaptureQueriesContext(connection) as queries:
            transfers = move(batch)
        assert len(queries) == (2 if postgres else 3), [q["sql"] for q in queries]
        select, insert, *update = (q["sql"] for q in queries)
        assert select.startswith("SELECT") and "wallet_ledgeraccount" in select
        if postgres:
            assert insert.startswith('WITH moved AS (UPDATE "wallet_ledgeraccount"')
            assert 'INSERT INTO "wallet_transfer"' in insert
        else:
            assert insert.startswith('INSERT INTO "wallet_transfer"')
            assert update[0].startswith('UPDATE "wallet_ledgeraccount"') and "CASE" in update[0]
        assert len(transfers) == len(batch)
    assert audit_ledger().ok


@pytest.mark.django_db
def test_a_batch_locks_every_account_in_one_statement_in_primary_key_order(two_seated):
    a, b = two_seated
    with CaptureQueriesContext(connection) as queries:
        # The accounts named in another order (b, the pot, a, the house): the lock order is the same.
        move([bet(b, 50, "in:b"), bet(a, 50, "in:a"), pay_out(a, 95, "out"), rake(5, "rake")])
    select = queries[0]["sql"]
    assert select.rstrip().endswith("FOR UPDATE") == (connection.vendor == "postgresql")
    assert 'ORDER BY "id"' in select
    assert sum("wallet_ledgeraccount" in q["sql"] and q["sql"].startswith("SELECT") for q in queries) == 1


@pytest.mark.django_db
def test_an_empty_batch_moves_nothing_and_runs_no_statement(django_assert_num_queries):
    with django_assert_num_queries(0):
        assert move([]) == []


@pytest.mark.django_db
def test_a_batch_whose_changes_cancel_out_skips_the_balance_update(two_seated):
    a, _ = two_seated
    with CaptureQueriesContext(connection) as queries:
        move([bet(a, 10, "in"), pay_out(a, 10, "out")])
    assert len(queries) == 2
    assert accounts.stack_account(a, TABLE).balance == 1000 and Transfer.objects.filter(key="in").exists()


@pytest.mark.django_db
def test_a_first_sit_opens_the_stack_in_the_same_batch(funded):
    """The only path with more statements: the lock finds no stack, a savepoint, one insert of the missing
    accounts, the lock again, the insert of the transfers, the update (on SQLite; PostgreSQL's insert does it), the
    release: six on PostgreSQL, seven on SQLite."""
    batch = [Movement(K.BUY_IN, AccountRef.balance(funded.pk), AccountRef.stack(funded.pk, TABLE), 500, "sit")]
    with CaptureQueriesContext(connection) as queries:
        (t,) = move(batch)
    assert len(queries) == (6 if connection.vendor == "postgresql" else 7), [q["sql"] for q in queries]
    assert t.destination == accounts.stack_account(funded, TABLE) and t.destination.balance == 500
    assert audit_ledger().ok


# --- never below zero -----------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_batch_never_takes_a_stack_below_zero_even_midway(two_seated):
    """Net zero at the end is not enough: the bet comes first and the stack cannot pay it."""
    a, b = two_seated
    services.pay_in(a, TABLE, 970, key="all-but-30")
    before = snapshot()
    with pytest.raises(WalletError, match=rf"Not enough chips: stack of .+ at table {TABLE} holds 30, 50 needed\."):
        move([bet(b, 10, "x:in:b"), bet(a, 50, "x:in:a"), pay_out(a, 50, "x:out:a")])
    assert snapshot() == before


@pytest.mark.django_db
def test_batch_never_pays_out_of_a_pot_before_the_chips_are_in(two_seated):
    a, b = two_seated
    before = snapshot()
    with pytest.raises(WalletError, match=rf"Not enough chips: pot of table {TABLE} holds 0, 20 needed"):
        move([pay_out(a, 20, "x:out"), bet(b, 20, "x:in")])
    assert snapshot() == before
    move([bet(b, 20, "x:in"), pay_out(a, 20, "x:out")])  # the same chips the right way round
    assert accounts.stack_account(a, TABLE).balance == 1020


@pytest.mark.django_db
def test_a_refused_batch_leaves_the_callers_transaction_usable(two_seated):
    a, b = two_seated
    with transaction.atomic():
        with pytest.raises(WalletError):
            move([bet(a, 5000, "too-much")])
        move(a_deal(a, b))
    assert accounts.pot_account(TABLE).balance == 0 and audit_ledger().ok


@pytest.mark.django_db
def test_a_batch_refused_after_opening_accounts_takes_them_back(funded, other_player):
    """Boris has no chips: his first sit is refused, and his stack and balance accounts are not left open."""
    before = snapshot()
    with pytest.raises(WalletError, match="Not enough chips"):
        move(
            [
                Movement(K.BUY_IN, AccountRef.balance(funded.pk), AccountRef.stack(funded.pk, TABLE), 500, "a"),
                Movement(
                    K.BUY_IN, AccountRef.balance(other_player.pk), AccountRef.stack(other_player.pk, TABLE), 500, "b"
                ),
            ]
        )
    assert snapshot() == before


@pytest.mark.django_db
def test_the_treasury_alone_may_go_below_zero_in_a_batch(player, other_player, staff):
    credits = [
        Movement(K.CREDIT, AccountRef.treasury(), AccountRef.balance(p.pk), 700, f"c{p.pk}", memo="x", actor_id=staff.pk)
        for p in (player, other_player)
    ]
    move(credits)
    assert accounts.treasury_account().balance == -1400
    with pytest.raises(WalletError, match="Not enough chips: balance of"):
        move([Movement(K.DEBIT, AccountRef.balance(player.pk), AccountRef.treasury(), 701, "d", memo="x",
                       actor_id=staff.pk)])


@pytest.mark.django_db
def test_a_buy_in_into_a_stack_that_holds_chips_is_refused_in_a_batch(two_seated):
    a, _ = two_seated
    before = snapshot()
    sit_again = Movement(K.BUY_IN, AccountRef.balance(a.pk), AccountRef.stack(a.pk, TABLE), 300, "sit-again")
    with pytest.raises(WalletError, match="already has 1000 chips at table 7; add chips instead"):
        move([sit_again])
    # Emptied earlier in the same batch, the stack takes a buy-in.
    stand = Movement(K.CASH_OUT, AccountRef.stack(a.pk, TABLE), AccountRef.balance(a.pk), 1000, "stand")
    assert snapshot() == before
    move([stand, sit_again])
    assert accounts.stack_account(a, TABLE).balance == 300


# --- keyed and idempotent -------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_replay_of_the_same_batch_returns_its_transfers_and_moves_nothing(two_seated):
    a, b = two_seated
    first = move(a_deal(a, b))
    before = snapshot()
    with CaptureQueriesContext(connection) as queries:
        again = move(a_deal(a, b))
    assert [t.pk for t in again] == [t.pk for t in first]
    assert snapshot() == before
    # The lock, the insert that inserts nothing, (PostgreSQL: whether its WITH moved a balance all the same,) the
    # look-up of the first transfers.
    assert len(queries) == (4 if connection.vendor == "postgresql" else 3)


@pytest.mark.django_db
def test_a_replay_is_answered_even_when_the_balances_would_now_refuse_it(two_seated):
    a, _ = two_seated
    first = move([bet(a, 1000, "all-in")])
    before = snapshot()
    assert move([bet(a, 1000, "all-in")])[0].pk == first[0].pk  # the stack is empty now: a retry, not a new bet
    assert snapshot() == before


@pytest.mark.django_db
def test_a_batch_prepared_without_replays_refuses_stored_keys_on_every_path(two_seated):
    """The door's batches (`prepare(replay=False)`): a stored key is a fault, never a replay answered with the first
    transfers, whether the balances still allow the batch or would refuse it."""
    from wallet.batch import prepare

    a, b = two_seated
    move(a_deal(a, b))
    move([bet(a, 900, "most")])
    before = snapshot()
    with transaction.atomic():
        with pytest.raises(WalletError, match="already used"):
            batch = prepare(a_deal(a, b), replay=False)
            batch.write()
            batch.written(0) if batch.pending else None
    with transaction.atomic(), pytest.raises(WalletError, match="Not enough chips"):
        prepare([bet(a, 900, "most")], replay=False)  # 100 left: refused, not answered as a replay
    assert snapshot() == before


@pytest.mark.django_db
def test_a_key_reused_for_a_different_movement_refuses_the_whole_batch(two_seated):
    a, b = two_seated
    move(a_deal(a, b))
    before = snapshot()
    changed = a_deal(a, b)
    changed[3] = pay_out(a, 95, changed[3].key)  # the same key, paid to somebody else
    with pytest.raises(WalletError, match="The key 't7:v9:out' was already used for a different transfer"):
        move(changed)
    with pytest.raises(WalletError, match="The key 't7:v9:rake' was already used for a different transfer"):
        move([rake(6, "t7:v9:rake")])
    assert snapshot() == before


@pytest.mark.django_db
def test_a_batch_is_replayed_whole_or_not_at_all(two_seated):
    a, b = two_seated
    move([bet(a, 10, "in")])
    before = snapshot()
    with pytest.raises(WalletError, match="The key 'in' was already used, but 'new' of the same batch was not"):
        move([bet(a, 10, "in"), bet(b, 10, "new")])
    assert snapshot() == before


@pytest.mark.django_db
def test_the_same_key_twice_in_one_batch_is_refused(two_seated):
    a, b = two_seated
    with pytest.raises(WalletError, match="used twice in one batch"):
        move([bet(a, 10, "k"), bet(b, 10, "k")])
    assert not Transfer.objects.filter(key="k").exists()


# --- what move checks itself ----------------------------------------------------------------------------------


def _malformed(a, b, staff):
    stack_a, pot = AccountRef.stack(a.pk, TABLE), AccountRef.pot(TABLE)
    return {
        "amount": [bet(a, amount, "k") for amount in (0, -5, True, 1.5, "10", None, 2**63)],
        "idempotency key": [bet(a, 10, ""), bet(a, 10, "  "), bet(a, 10, None), bet(a, 10, "k" * 201)],
        "two different accounts": [Movement(K.BET, pot, pot, 10, "k")],
        "goes from a stack at a table to a table pot": [
            Movement(K.BET, AccountRef.balance(a.pk), pot, 10, "k"),
            Movement(K.BET, AccountRef.stack(a.pk, TABLE), AccountRef.house(TABLE), 10, "k"),
        ],
        "stays with one player": [
            Movement(K.CASH_OUT, stack_a, AccountRef.balance(b.pk), 10, "k"),
        ],
        "stays at one table": [
            Movement(K.BET, stack_a, AccountRef.pot(TABLE + 1), 10, "k"),
            Movement(K.RAKE, pot, AccountRef.house(TABLE + 1), 1, "k", family="classic"),  # its own table's house
        ],
        "names table": [Movement(K.BET, stack_a, pot, 10, "k", table_id=TABLE + 1)],
        "rule family": [
            Movement(K.RAKE, pot, AccountRef.house(TABLE), 1, "k"),
            Movement(K.RAKE, pot, AccountRef.house(TABLE), 1, "k", family="x" * 17),
        ],
        "staff member who made it": [
            Movement(K.CREDIT, AccountRef.treasury(), AccountRef.balance(a.pk), 10, "k", memo="gift"),
            Movement(K.CREDIT, AccountRef.treasury(), AccountRef.balance(a.pk), 10, "k", actor_id=staff.pk),
        ],
        "memo": [Movement(K.BOT_SEED, AccountRef.treasury(), AccountRef.bots_pool(), 10, "k", memo="m" * 256)],
        "Unknown transfer kind": [Movement("steal", stack_a, pot, 10, "k")],
    }


@pytest.mark.django_db
def test_malformed_movements_are_refused_before_any_statement(two_seated, staff):
    a, b = two_seated
    for reason, movements in _malformed(a, b, staff).items():
        for m in movements:
            with CaptureQueriesContext(connection) as queries, pytest.raises(WalletError, match=reason):
                move([bet(b, 10, "fine"), m])
            assert len(queries) == 0, (reason, m)


@pytest.mark.parametrize(
    "make",
    [
        lambda: AccountRef.stack(None, TABLE),
        lambda: AccountRef.stack(1, 0),
        lambda: AccountRef.pot(True),
        lambda: AccountRef("house", user_id=1),
        lambda: AccountRef("house"),  # the house keeps its rake at a table
        lambda: AccountRef.house(None),
        lambda: AccountRef("balance", user_id=1, table_id=3),
        lambda: AccountRef("wallet"),
    ],
)
def test_an_account_ref_names_exactly_the_owners_its_kind_has(make):
    with pytest.raises(WalletError):
        make()


@pytest.mark.django_db(transaction=True)
def test_move_runs_inside_the_callers_transaction():
    """The door calls it in its own atomic block, right after applying the action; alone it would commit half."""
    with pytest.raises(AssertionError, match="inside the caller's atomic block"):
        move([rake(1, "k")])


@pytest.mark.django_db
def test_a_batch_returns_saved_transfers_with_their_table_family_and_time(two_seated):
    a, b = two_seated
    transfers = move(a_deal(a, b))
    stored = {t.pk: t for t in Transfer.objects.filter(pk__in=[t.pk for t in transfers])}
    assert len(stored) == 4
    for t in transfers:
        s = stored[t.pk]
        assert (s.key, s.kind, s.source_id, s.destination_id, s.amount, s.table_id, s.family, s.created_at) == (
            t.key, t.kind, t.source_id, t.destination_id, t.amount, t.table_id, t.family, t.created_at
        )
        assert s.table_id == TABLE and s.created_at is not None
    assert stored[transfers[2].pk].family == "classic" and stored[transfers[0].pk].family == ""
    with pytest.raises(Exception, match="immutable"):
        transfers[0].save()


@pytest.mark.django_db
def test_keys_and_memos_are_stored_exactly_whatever_their_characters(two_seated, staff):
    """They travel in one array per column on PostgreSQL: commas, quotes, braces and NULL stay text."""
    a, b = two_seated
    keys = ["a,b", 'q"uote', "{x}", "back\\slash", "NULL", "ünï ☘", " lead"]
    move([bet(a, 1, key) for key in keys])
    memo = 'NULL, {"a"}\\'
    move([Movement(K.CREDIT, AccountRef.treasury(), AccountRef.balance(b.pk), 1, "c", memo=memo, actor_id=staff.pk)])
    assert set(Transfer.objects.filter(kind=K.BET).values_list("key", flat=True)) == set(keys)
    assert Transfer.objects.get(key="c").memo == memo
    assert move([bet(a, 1, key) for key in keys])[0].key == "a,b"  # and a replay finds them


# --- concurrency (PostgreSQL) ---------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_crossed_batches_over_the_same_accounts_never_deadlock_and_keep_the_audit_clean():
    """Half the threads move chips a→pot→b at two tables, the other half b→pot→a, naming the accounts in
    opposite orders: one locking SELECT in primary-key order never waits in a cycle."""
    require_postgresql()
    staff = _make_user("staff@example.com", is_staff=True)
    a, b = _make_user("a@example.com"), _make_user("b@example.com")
    for p in (a, b):
        services.credit(p, 5000, reason="start", staff=staff)
        for table in (1, 2):
            services.buy_in(p, table, 1000, ante=ANTE, key=f"sit-{p.pk}-{table}")
            services.pay_in(p, table, 1, key=f"open-pot-{p.pk}-{table}")

    def stack(p, t):
        return AccountRef.stack(p.pk, t)

    def work(i):
        first, second = (a, b) if i % 2 else (b, a)
        for r in range(ROUNDS):
            batch = [
                Movement(K.BET, stack(first, 1), AccountRef.pot(1), 3, f"{i}-{r}-1"),
                Movement(K.PAY_OUT, AccountRef.pot(1), stack(second, 1), 3, f"{i}-{r}-2"),
                Movement(K.BET, stack(second, 2), AccountRef.pot(2), 3, f"{i}-{r}-3"),
                Movement(K.PAY_OUT, AccountRef.pot(2), stack(first, 2), 3, f"{i}-{r}-4"),
            ]
            with transaction.atomic():
                move(batch if i % 2 else batch[::-1][1::2] + batch[::-1][0::2])

    run_in_threads(work)
    assert Transfer.objects.filter(kind__in=[K.BET, K.PAY_OUT]).count() == 4 + THREADS * ROUNDS * 4
    assert accounts.pot_account(1).balance == accounts.pot_account(2).balance == 2
    report = audit_ledger()
    assert report.ok, report.problems


@pytest.mark.django_db(transaction=True)
def test_the_same_batch_from_many_threads_moves_chips_once():
    require_postgresql()
    staff = _make_user("staff@example.com", is_staff=True)
    a, b = _make_user("a@example.com"), _make_user("b@example.com")
    for p in (a, b):
        services.credit(p, 5000, reason="start", staff=staff)
        services.buy_in(p, TABLE, 1000, ante=ANTE, key=f"sit-{p.pk}")

    def work(i):
        with transaction.atomic():
            return tuple(t.pk for t in move(a_deal(a, b)))

    results = run_in_threads(work)
    assert len(set(results)) == 1
    assert accounts.stack_account(a, TABLE).balance == 950
    assert accounts.stack_account(b, TABLE).balance == 1045
    assert audit_ledger().ok


# --- property: random batches keep the ledger exact -----------------------------------------------------------

OPS = ["credit", "debit", "buy_in", "add_chips", "cash_out", "bet", "pay_out", "rake"]
movement = st.tuples(
    st.sampled_from(OPS),
    st.integers(0, 1),  # player
    # Mostly amounts that can move, some that cannot (0, -1, whole balances and more).
    st.one_of(st.integers(1, 150), st.integers(1, 150), st.sampled_from([-1, 0, 1000, 2500, 3001])),
    st.integers(0, 40),  # key: few enough that they collide
)


def _label(ref: AccountRef):
    return (ref.kind, ref.user_id, ref.table_id)


def _movement(op, player, amount, key, staff) -> Movement:
    balance, stack, pot = AccountRef.balance(player.pk), AccountRef.stack(player.pk, 1), AccountRef.pot(1)
    staff_note = {"memo": "test", "actor_id": staff.pk}
    return {
        "credit": lambda: Movement(K.CREDIT, AccountRef.treasury(), balance, amount, key, **staff_note),
        "debit": lambda: Movement(K.DEBIT, balance, AccountRef.treasury(), amount, key, **staff_note),
        "buy_in": lambda: Movement(K.BUY_IN, balance, stack, amount, key),
        "add_chips": lambda: Movement(K.ADD_CHIPS, balance, stack, amount, key),
        "cash_out": lambda: Movement(K.CASH_OUT, stack, balance, amount, key),
        "bet": lambda: Movement(K.BET, stack, pot, amount, key),
        "pay_out": lambda: Movement(K.PAY_OUT, pot, stack, amount, key),
        "rake": lambda: Movement(K.RAKE, pot, AccountRef.house(1), amount, key, family="classic"),
    }[op]()


class BatchModel:
    """What the ledger should hold after each batch, worked out without the wallet's code."""

    def __init__(self):
        self.bal, self.keys = {}, {}

    def predict(self, batch):
        """The new balances; "noop"; or "refused"."""
        if not batch:
            return "noop"
        keys = [m.key for m in batch]
        if any(m.amount <= 0 for m in batch) or len(set(keys)) < len(keys):
            return "refused"
        seen = [self.keys.get(m.key) for m in batch]
        if any(seen):
            same = all(s == (_label(m.source), _label(m.destination), m.amount, m.kind) for s, m in zip(seen, batch, strict=True))
            return "noop" if same else "refused"
        bal = dict(self.bal)
        for m in batch:
            src, dst = _label(m.source), _label(m.destination)
            if m.kind == K.BUY_IN and bal.get(dst, 0):
                return "refused"
            if m.source.kind != "treasury" and bal.get(src, 0) < m.amount:
                return "refused"
            bal[src] = bal.get(src, 0) - m.amount
            bal[dst] = bal.get(dst, 0) + m.amount
        return bal

    def apply(self, bal, batch):
        self.bal = bal
        for m in batch:
            self.keys[m.key] = (_label(m.source), _label(m.destination), m.amount, m.kind)


def _balances():
    return {
        (a.kind, a.user_id if a.kind in ("balance", "stack") else None, a.table_id): a.balance
        for a in LedgerAccount.objects.all()
        if a.balance
    }


@pytest.mark.django_db
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batches=st.lists(st.lists(movement, max_size=4), min_size=1, max_size=12))
def test_random_batches_keep_the_ledger_exact_and_refused_batches_change_nothing(batches, make_user):
    with transaction.atomic():  # each example starts from an empty ledger and is rolled back
        staff = make_user("staff@example.com", is_staff=True)
        players = [make_user("p0@example.com"), make_user("p1@example.com")]
        model = BatchModel()
        # Both seated with chips in the pot, so that most table movements can happen.
        start = [
            m
            for p in players
            for m in (
                _movement("credit", p, 3000, f"credit-{p.pk}", staff),
                _movement("buy_in", p, 1000, f"sit-{p.pk}", staff),
                _movement("bet", p, 100, f"ante-{p.pk}", staff),
            )
        ]
        model.apply(model.predict(start), start)
        move(start)
        for spec in batches:
            batch = [_movement(op, players[p], amount, f"k{key}", staff) for op, p, amount, key in spec]
            expected = model.predict(batch)
            event(expected if isinstance(expected, str) else "applied")
            before = snapshot()
            if expected == "refused":
                with pytest.raises(WalletError):
                    move(batch)
                assert snapshot() == before, f"refused batch {spec} changed the ledger"
                continue
            transfers = move(batch)
            assert [t.key for t in transfers] == [m.key for m in batch]
            if expected == "noop":
                assert snapshot() == before, f"replayed batch {spec} moved chips again"
                continue
            model.apply(expected, batch)
            assert _balances() == {label: b for label, b in model.bal.items() if b}
        report = audit_ledger()
        assert report.ok, report.problems
        transaction.set_rollback(True)
