"""Fewer indexes on the rows every action writes (docs/benchmarks.md, session 16).

- The table's row: no index on a column an action writes (the clock's deadline), so its update can be heap-only
  (HOT) and writes no index; the status keeps one plain index (not a second one for LIKE).
- A deal's events and the stored replies: no index of their own on the table, which leads their unique
  constraint's. Only the index goes (its foreign key stays as it is: re-adding it would scan every row).
"""

import django.db.models.deletion
from django.db import migrations, models


def _drop_table_index(model: str, related_name: str, index: str) -> migrations.SeparateDatabaseAndState:
    """The model's foreign key to its table without an index of its own: the index dropped, the key left alone."""
    return migrations.SeparateDatabaseAndState(
        state_operations=[
            migrations.AlterField(
                model_name=model,
                name="table",
                field=models.ForeignKey(
                    db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name=related_name,
                    to="tables.table",
                ),
            ),
        ],
        database_operations=[
            migrations.RunSQL(f'DROP INDEX IF EXISTS "{index}"', f'CREATE INDEX "{index}" ON "tables_{model}" ("table_id")'),
        ],
    )


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0012_private_tables"),
    ]

    operations = [
        _drop_table_index("clientmessage", "client_messages", "tables_clientmessage_table_id_5f6509bf"),
        _drop_table_index("dealevent", "deal_events", "tables_dealevent_table_id_4364c87a"),
        migrations.AlterField(
            model_name="table",
            name="clock_deadline",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name="table",
            name="status",
            field=models.CharField(
                choices=[("open", "open"), ("closed", "closed")], default="open", max_length=8
            ),
        ),
        migrations.AddIndex(
            model_name="table",
            index=models.Index(fields=["status"], name="tables_table_status"),
        ),
    ]
