"""Fewer indexes on the ledger's transfers, which every chip movement writes (docs/benchmarks.md, session 25).

- The key stays unique, now by a constraint of the model's rather than the field's `unique`, which on PostgreSQL
  also built a LIKE (`varchar_pattern_ops`) index that no query uses: that index goes. The unique constraint itself
  is left as it is (PostgreSQL named it `wallet_transfer_key_key`, the constraint's name here; on SQLite the table's
  own UNIQUE keeps enforcing it), since rebuilding it would read every transfer.
- The staff member who made a credit or debit: indexed only where there is one (partial), not on every player's
  bet's NULL. Building that index reads every transfer once and holds back new ones meanwhile (a plain CREATE
  INDEX): on a large ledger, run this migration in a quiet hour.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

LIKE_INDEX = "wallet_transfer_key_27325295_like"
ACTOR_INDEX = "wallet_transfer_actor_id_7ca87169"


def drop_like_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f'DROP INDEX IF EXISTS "{LIKE_INDEX}"')


def restore_like_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f'CREATE INDEX "{LIKE_INDEX}" ON "wallet_transfer" ("key" varchar_pattern_ops)')


class Migration(migrations.Migration):
    dependencies = [
        ("wallet", "0005_house_per_table"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(model_name="transfer", name="key", field=models.CharField(max_length=200)),
                migrations.AddConstraint(
                    model_name="transfer",
                    constraint=models.UniqueConstraint(fields=("key",), name="wallet_transfer_key_key"),
                ),
            ],
            database_operations=[migrations.RunPython(drop_like_index, restore_like_index)],
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="transfer",
                    name="actor",
                    field=models.ForeignKey(
                        blank=True, db_index=False, help_text="The staff member who made a credit or debit.",
                        null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            database_operations=[
                migrations.RunSQL(f'DROP INDEX IF EXISTS "{ACTOR_INDEX}"',
                                  f'CREATE INDEX "{ACTOR_INDEX}" ON "wallet_transfer" ("actor_id")'),
            ],
        ),
        migrations.AddIndex(
            model_name="transfer",
            index=models.Index(condition=models.Q(("actor__isnull", False)), fields=["actor"],
                               name="wallet_transfer_actor"),
        ),
    ]
