"""The indexes a chip movement writes: every one is read by something (docs/benchmarks.md, session 25)."""

import pytest
from django.db import IntegrityError, connection, transaction

from wallet import services
from wallet.models import Transfer

from .conftest import require_postgresql

pytestmark = pytest.mark.django_db


def _indexes(table: str) -> dict[str, str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = %s", [table])
        return dict(cursor.fetchall())


def test_a_transfer_writes_no_like_index_and_no_index_entry_for_a_missing_staff_member():
    require_postgresql()
    indexes = _indexes("wallet_transfer")
    assert not [name for name, sql in indexes.items() if "pattern_ops" in sql], indexes
    actor = [sql for sql in indexes.values() if "(actor_id)" in sql]
    assert len(actor) == 1 and "WHERE (actor_id IS NOT NULL)" in actor[0], indexes
    assert "UNIQUE" in indexes["wallet_transfer_key_key"]


def test_a_deals_players_have_no_index_on_the_deal_alone():
    require_postgresql()
    indexes = _indexes("tables_dealseat")
    assert not [sql for sql in indexes.values() if sql.endswith("(deal_id)")], indexes
    assert [sql for sql in indexes.values() if "UNIQUE" in sql and "(deal_id, seat)" in sql], indexes


def test_a_transfer_key_moves_chips_once_under_its_unique_constraint(funded, staff):
    key = Transfer.objects.get().key
    with pytest.raises(IntegrityError), transaction.atomic():
        Transfer.objects.create(key=key, kind="credit", source=Transfer.objects.get().source,
                                destination=Transfer.objects.get().destination, amount=1, actor=staff, memo="again")  # fmt: skip
    services.credit(funded, 1, reason="another", staff=staff)
    assert Transfer.objects.count() == 2
