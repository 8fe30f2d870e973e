"""A deal's players: no index of their own on the deal, which leads both their unique constraints' (deal and seat,
deal and player). Only the index goes; the foreign key stays as it is (as in 0013)."""

import django.db.models.deletion
from django.db import migrations, models

INDEX = "tables_dealseat_deal_id_36c1cbdf"


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0013_lean_indexes"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="dealseat",
                    name="deal",
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE,
                                            related_name="players", to="tables.deal"),
                ),
            ],
            database_operations=[
                migrations.RunSQL(f'DROP INDEX IF EXISTS "{INDEX}"',
                                  f'CREATE INDEX "{INDEX}" ON "tables_dealseat" ("deal_id")'),
            ],
        ),
    ]
