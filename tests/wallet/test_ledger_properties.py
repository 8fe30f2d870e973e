"""Property tests: random sequences of chip movements, valid and invalid, against a model of the ledger.

Whatever the sequence: a refused movement changes nothing, the same key never moves chips twice, no balance
but the treasury's goes below zero, and all balances sum to zero."""

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wallet import accounts, services
from wallet.audit import audit_ledger
from wallet.models import LedgerAccount, Transfer
from wallet.services import WalletError

ANTE = 10
OPS = ["credit", "debit", "buy_in", "add_chips", "cash_out", "pay_in", "pay_out", "rake"]

operation = st.tuples(
    st.sampled_from(OPS),  # boundary amounts below: the 20 and 100 antes limits, whole stacks
    st.integers(0, 1),  # player
    st.integers(1, 2),  # table
    st.one_of(st.integers(-2, 1200), st.sampled_from([0, 199, 200, 800, 1000, 1001, 3000])),
    st.integers(0, 12),  # key: few, so they collide often
)


class LedgerModel:
    """What the ledger should hold, worked out independently of the wallet code."""

    def __init__(self):
        self.bal = {}
        self.keys = {}

    def get(self, label):
        return self.bal.get(label, 0)

    def predict(self, op, p, table, amount, key):
        """(source, destination, amount, kind) to move; "noop"; or "refused"."""
        if amount < 0:
            return "refused"
        zero_is_noop = op in ("cash_out", "pay_in", "pay_out", "rake")
        if amount == 0:
            return "noop" if zero_is_noop else "refused"
        balance, stack, pot = ("balance", p), ("stack", p, table), ("pot", table)
        src, dst, kind = {
            "credit": (("treasury",), balance, "credit"),
            "debit": (balance, ("treasury",), "debit"),
            "buy_in": (balance, stack, "buy_in"),
            "add_chips": (balance, stack, "add_chips"),
            "cash_out": (stack, balance, "cash_out"),
            "pay_in": (stack, pot, "bet"),
            "pay_out": (pot, stack, "pay_out"),
            "rake": (pot, ("house", table), "rake"),
        }[op]
        if op == "buy_in" and not 20 * ANTE <= amount <= 100 * ANTE:
            return "refused"
        if op == "add_chips" and self.get(stack) + amount > 100 * ANTE:
            return "refused"
        if key in self.keys:
            return "noop" if self.keys[key] == (src, dst, amount, kind) else "refused"
        if op == "buy_in" and self.get(stack) > 0:
            return "refused"
        if src != ("treasury",) and self.get(src) < amount:
            return "refused"
        return src, dst, amount, kind

    def apply(self, move, key):
        src, dst, amount, kind = move
        self.bal[src] = self.get(src) - amount
        self.bal[dst] = self.get(dst) + amount
        self.keys[key] = move


def label_of(account: LedgerAccount):
    if account.kind == "balance":
        return ("balance", account.user_id)
    if account.kind == "stack":
        return ("stack", account.user_id, account.table_id)
    if account.kind in ("pot", "house"):
        return (account.kind, account.table_id)
    return (account.kind,)


def ledger_state():
    return {
        label_of(a): a.balance for a in LedgerAccount.objects.all() if a.balance
    }, Transfer.objects.count()


def run(op, player, table, amount, key, staff):
    key = f"k{key}"
    match op:
        case "credit":
            return services.credit(player, amount, reason="test", staff=staff, key=key)
        case "debit":
            return services.debit(player, amount, reason="test", staff=staff, key=key)
        case "buy_in":
            return services.buy_in(player, table, amount, ante=ANTE, key=key)
        case "add_chips":
            stack = accounts.stack_account(player, table).balance
            return services.add_chips(player, table, amount, ante=ANTE, stack=stack, key=key)
        case "cash_out":
            return services.cash_out(player, table, amount, key=key)
        case "pay_in":
            return services.pay_in(player, table, amount, key=key)
        case "pay_out":
            return services.pay_out(player, table, amount, key=key)
        case "rake":
            return services.take_rake(table, amount, family="classic", key=key)


@pytest.mark.django_db
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(operation, min_size=1, max_size=20))
def test_random_movements_keep_the_ledger_exact_and_never_negative(ops, make_user):
    with transaction.atomic():  # each example starts from an empty ledger and is rolled back
        staff = make_user("staff@example.com", is_staff=True)
        players = [make_user("p0@example.com"), make_user("p1@example.com")]
        model = LedgerModel()
        for p, player in enumerate(players):  # start with chips, so that table moves mostly can happen
            move = model.predict("credit", player.pk, 1, 3000, f"start-{p}")
            model.apply(move, f"start-{p}")
            services.credit(player, 3000, reason="start", staff=staff, key=f"start-{p}")
        for op, p, table, amount, key in ops:
            player = players[p]
            move = model.predict(op, player.pk, table, amount, f"k{key}")
            before = ledger_state()
            if move == "refused":
                with pytest.raises(WalletError):
                    run(op, player, table, amount, key, staff)
                assert ledger_state() == before, f"refused {op} changed the ledger"
                continue
            run(op, player, table, amount, key, staff)
            if move == "noop":
                assert ledger_state() == before, f"{op} with key k{key} moved chips twice"
                continue
            model.apply(move, f"k{key}")
            expected = {label: b for label, b in model.bal.items() if b}
            assert ledger_state()[0] == expected
            balances = LedgerAccount.objects.values_list("kind", "balance")
            assert sum(b for _, b in balances) == 0
            assert all(b >= 0 for kind, b in balances if kind != "treasury")
        report = audit_ledger()
        assert report.ok, report.problems
        transaction.set_rollback(True)
