"""The players of each deal (`DealSeat`: seat, name, results, for the history and statistics), and svaras as deals
of their own linked to the deal before them (`Deal.svara`, `Deal.previous`; `DealEvent.svara`).

Existing deals get no players: their events name the seats but not who held them (only a winner's player id is
kept), and matching names to users would give a deal to the wrong user where names repeat or have changed. They stay
visible to staff; existing svaras stay part of their deal's row (svara 0)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.models import Q

# A deal's players are records like the deal (migration 0007's function refuses): never deleted, only their
# results written once, at the deal's end.
PG_FORWARD = """
CREATE TRIGGER tables_dealseat_kept BEFORE DELETE ON tables_dealseat
    FOR EACH ROW EXECUTE FUNCTION tables_record_kept();
"""
PG_BACKWARD = "DROP TRIGGER IF EXISTS tables_dealseat_kept ON tables_dealseat;"


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(PG_FORWARD)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(PG_BACKWARD)


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0009_chat_lines"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="deal", name="tables_one_deal_number"),
        migrations.AddField(
            model_name="deal", name="svara", field=models.PositiveSmallIntegerField(default=0)
        ),
        migrations.AddField(
            model_name="deal",
            name="previous",
            field=models.OneToOneField(
                blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="next_in_chain",
                to="tables.deal",
            ),
        ),
        migrations.AlterModelOptions(name="deal", options={"ordering": ["table_id", "number", "svara"]}),
        migrations.AddConstraint(
            model_name="deal",
            constraint=models.UniqueConstraint(fields=("table", "number", "svara"), name="tables_one_deal_number"),
        ),
        migrations.AddField(
            model_name="dealevent", name="svara", field=models.PositiveSmallIntegerField(default=0)
        ),
        migrations.CreateModel(
            name="DealSeat",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("family", models.CharField(choices=[("classic", "classic (36 cards, shakha 6♣)"),
                                                     ("bulgarian", "bulgarian (32 cards, wild 7♣)")], max_length=16)),
                ("started_at", models.DateTimeField()),
                ("seat", models.PositiveSmallIntegerField()),
                ("name", models.CharField(max_length=150)),
                ("bot", models.BooleanField(default=False)),
                ("stack", models.PositiveIntegerField(default=0)),
                ("ended", models.BooleanField(default=False)),
                ("put_in", models.PositiveIntegerField(default=0)),
                ("won", models.PositiveIntegerField(default=0)),
                ("net", models.IntegerField(default=0)),
                ("won_pot", models.BooleanField(default=False)),
                ("played", models.BooleanField(default=False)),
                ("tied", models.BooleanField(default=False)),
                ("svara_won", models.BooleanField(default=False)),
                ("deal", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="players",
                                           to="tables.deal")),
                ("table", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="+",
                                            to="tables.table")),
                ("user", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="deal_seats",
                                           to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "ordering": ["deal_id", "seat"],
                "indexes": [
                    models.Index(fields=["user", "-started_at", "-deal"], name="tables_dealseat_user_newest",
                         condition=Q(ended=True)),
                    models.Index(fields=["user", "family", "-started_at", "-deal"],
                                 name="tables_dealseat_user_family", condition=Q(ended=True)),
                    models.Index(fields=["user", "table", "-started_at", "-deal"], name="tables_dealseat_user_table",
                         condition=Q(ended=True)),
                    models.Index(fields=["family", "started_at"], name="tables_dealseat_family_week"),
                ],
                "constraints": [
                    models.UniqueConstraint(fields=("deal", "seat"), name="tables_one_player_per_deal_seat"),
                    models.UniqueConstraint(fields=("deal", "user"), name="tables_one_deal_seat_per_player"),
                ],
            },
        ),
        migrations.RunPython(forward, backward),
    ]
