"""Who closed a table; and the database itself refuses to delete a table or a deal, or to change or delete a deal's
events (financial records, like transfers: wallet migration 0002).

PostgreSQL only: row triggers (TRUNCATE, which tests use to empty tables, is not a row event). SQLite, the
single-process embedded default, relies on the admin refusing (Django's test flush empties tables with DELETE)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

PG_FORWARD = """
CREATE OR REPLACE FUNCTION tables_record_kept() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION '%% rows are records and are kept', TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER tables_table_kept BEFORE DELETE ON tables_table
    FOR EACH ROW EXECUTE FUNCTION tables_record_kept();
CREATE TRIGGER tables_deal_kept BEFORE DELETE ON tables_deal
    FOR EACH ROW EXECUTE FUNCTION tables_record_kept();
CREATE TRIGGER tables_dealevent_kept BEFORE UPDATE OR DELETE ON tables_dealevent
    FOR EACH ROW EXECUTE FUNCTION tables_record_kept();
"""
PG_BACKWARD = """
DROP TRIGGER IF EXISTS tables_table_kept ON tables_table;
DROP TRIGGER IF EXISTS tables_deal_kept ON tables_deal;
DROP TRIGGER IF EXISTS tables_dealevent_kept ON tables_dealevent;
DROP FUNCTION IF EXISTS tables_record_kept();
"""


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(PG_FORWARD)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(PG_BACKWARD)


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0006_table_kept_open"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="closed_by",
            field=models.ForeignKey(
                blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="tables_closed",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.RunPython(forward, backward),
    ]
