"""Hand histories are appended, not rewritten: each deal's events move from one growing JSON list (rewritten on
every action) to `DealEvent` rows, one insert per action. Stored client replies get an index for their pruning."""

import django.db.models.deletion
from django.db import migrations, models


def events_to_rows(apps, schema_editor):
    Deal = apps.get_model("tables", "Deal")
    DealEvent = apps.get_model("tables", "DealEvent")
    rows = []
    for deal in Deal.objects.all().iterator():
        # Older histories do not say which version each event came with: they keep their order under version 0.
        rows.extend(
            DealEvent(table_id=deal.table_id, deal_number=deal.number, version=0, index=i, event=event)
            for i, event in enumerate(deal.events or [])
        )
        if len(rows) >= 5000:
            DealEvent.objects.bulk_create(rows)
            rows = []
    DealEvent.objects.bulk_create(rows)


def rows_to_events(apps, schema_editor):
    Deal = apps.get_model("tables", "Deal")
    DealEvent = apps.get_model("tables", "DealEvent")
    for deal in Deal.objects.all().iterator():
        deal.events = list(
            DealEvent.objects.filter(table_id=deal.table_id, deal_number=deal.number)
            .order_by("version", "index")
            .values_list("event", flat=True)
        )
        deal.save(update_fields=["events"])


class Migration(migrations.Migration):
    dependencies = [("tables", "0004_state_keyed")]

    operations = [
        migrations.CreateModel(
            name="DealEvent",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("deal_number", models.PositiveIntegerField()),
                ("version", models.PositiveIntegerField()),
                ("index", models.PositiveSmallIntegerField()),
                ("event", models.JSONField()),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="deal_events", to="tables.table"
                    ),
                ),
            ],
            options={"ordering": ["table_id", "deal_number", "version", "index"]},
        ),
        migrations.AddConstraint(
            model_name="dealevent",
            constraint=models.UniqueConstraint(
                fields=("table", "deal_number", "version", "index"), name="tables_one_deal_event_per_place"
            ),
        ),
        migrations.RunPython(events_to_rows, rows_to_events),
        migrations.RemoveField(model_name="deal", name="events"),
        migrations.AddField(
            model_name="table",
            name="fault",
            field=models.CharField(blank=True, default="", max_length=500),
        ),
        migrations.AlterField(
            model_name="clientmessage",
            name="created_at",
            field=models.DateTimeField(auto_now_add=True, db_index=True),
        ),
    ]
