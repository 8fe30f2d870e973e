"""The indexes a chip movement writes: every one is read by something (docs/benchmarks.md, session 25)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from .conftest import require_postgresql


def _indexes(table: str) -> dict[str, str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = %s", [table])
        return dict(cursor.fetchall())


def _lean(indexes: dict[str, str]) -> bool:
    """No LIKE index, and the staff member's only index the partial one."""
    like = [sql for sql in indexes.values() if "pattern_ops" in sql]
    actor = [sql for sql in indexes.values() if "(actor_id)" in sql]
    partial = indexes.get("wallet_transfer_actor", "")
    return not like and actor == [partial] and "WHERE (actor_id IS NOT NULL)" in partial


@pytest.mark.django_db
def test_a_transfer_writes_no_like_index_and_no_index_entry_for_a_missing_staff_member():
    require_postgresql()
    assert _lean(_indexes("wallet_transfer")), _indexes("wallet_transfer")


@pytest.mark.django_db
def test_the_transfer_key_is_unique_by_a_constraint_of_that_name():
    """What the model's state says (a later RemoveConstraint drops it by name), not an index of the same name."""
    require_postgresql()
    with connection.cursor() as cursor:
        cursor.execute("SELECT contype FROM pg_constraint WHERE conname = 'wallet_transfer_key_key'")
        assert cursor.fetchall() == [("u",)]


@pytest.mark.django_db(transaction=True)
def test_the_lean_index_migrations_go_back_to_the_old_indexes_and_forward_again():
    require_postgresql()
    executor = MigrationExecutor(connection)
    executor.migrate([("wallet", "0005_house_per_table"), ("tables", "0013_lean_indexes")])
    old_transfer, old_seats = _indexes("wallet_transfer"), _indexes("tables_dealseat")
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())  # the tests after this one use the whole schema
    assert "varchar_pattern_ops" in old_transfer["wallet_transfer_key_27325295_like"]
    assert old_transfer["wallet_transfer_actor_id_7ca87169"].endswith("(actor_id)")
    assert "wallet_transfer_actor" not in old_transfer
    assert old_seats["tables_dealseat_deal_id_36c1cbdf"].endswith("(deal_id)")
    assert _lean(_indexes("wallet_transfer"))
    assert "tables_dealseat_deal_id_36c1cbdf" not in _indexes("tables_dealseat")
