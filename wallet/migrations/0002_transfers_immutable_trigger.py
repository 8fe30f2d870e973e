"""The database itself refuses to change or delete a transfer (corrections are new transfers).

PostgreSQL: a row trigger on UPDATE and DELETE (TRUNCATE, which tests use to empty tables, is not a row event).
SQLite: UPDATE only, because Django's test flush empties tables with DELETE there.
"""

from django.db import migrations

PG_FORWARD = """
CREATE OR REPLACE FUNCTION wallet_transfer_immutable() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'wallet_transfer rows are immutable; record a correcting transfer instead'
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER wallet_transfer_immutable
    BEFORE UPDATE OR DELETE ON wallet_transfer
    FOR EACH ROW EXECUTE FUNCTION wallet_transfer_immutable();
"""
PG_BACKWARD = """
DROP TRIGGER IF EXISTS wallet_transfer_immutable ON wallet_transfer;
DROP FUNCTION IF EXISTS wallet_transfer_immutable();
"""
SQLITE_FORWARD = """
CREATE TRIGGER wallet_transfer_immutable BEFORE UPDATE ON wallet_transfer
BEGIN
    SELECT RAISE(ABORT, 'wallet_transfer rows are immutable; record a correcting transfer instead');
END;
"""
SQLITE_BACKWARD = "DROP TRIGGER IF EXISTS wallet_transfer_immutable;"


def forward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(PG_FORWARD)
    elif vendor == "sqlite":
        schema_editor.execute(SQLITE_FORWARD)


def backward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(PG_BACKWARD)
    elif vendor == "sqlite":
        schema_editor.execute(SQLITE_BACKWARD)


class Migration(migrations.Migration):
    dependencies = [("wallet", "0001_initial")]

    operations = [migrations.RunPython(forward, backward)]
