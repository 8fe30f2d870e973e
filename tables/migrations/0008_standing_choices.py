"""Stored states of format 5 are rewritten as format 6: each seated player's seat gains his standing choices
(`deal_me_in`, `if_losing`, `on_tie`: docs/engine.md "Standing choices"), none of them set, which is how every
player played before them. A frozen copy of the conversion: a migration must not depend on the engine as it is
today. A row it cannot read stops the migration with the table's id (it runs in one transaction)."""

import json

from django.db import migrations

_SEAT_5 = (
    "player", "name", "bot", "stack", "sitting_out", "ready", "leaving", "in_deal", "cards", "opened", "level", "folded",
    "all_in", "blind", "shown", "unseen", "choice",
)


def _format_5_to_6(data: dict) -> dict:
    if not isinstance(data, dict) or data.get("format") != 5 or not isinstance(data.get("seats"), list):
        raise ValueError("not a stored state of format 5")
    seats = []
    for row in data["seats"]:
        if row is None:
            seats.append(None)
            continue
        if not isinstance(row, dict) or tuple(row) != _SEAT_5:
            raise ValueError(f"a format 5 seat has the fields {', '.join(_SEAT_5)}")
        seats.append({**row, "deal_me_in": False, "if_losing": None, "on_tie": None})
    return {**data, "format": 6, "seats": seats}


def forwards(apps, schema_editor):
    Table = apps.get_model("tables", "Table")
    for table in Table.objects.all().only("pk", "state"):
        try:
            data = json.loads(table.state)
        except (TypeError, ValueError):
            continue
        if isinstance(data, dict) and data.get("format") == 5:
            try:
                converted = _format_5_to_6(data)
            except (ValueError, TypeError) as error:
                raise RuntimeError(f"table {table.pk}: its stored state of format 5 cannot be read: {error!r}") from None
            table.state = json.dumps(converted, separators=(",", ":"), ensure_ascii=False)
            table.save(update_fields=["state"])


class Migration(migrations.Migration):
    dependencies = [("tables", "0007_table_closed_by_records_kept")]

    # No way back: the code before this migration cannot read format 6, so undoing it must fail loudly.
    operations = [migrations.RunPython(forwards)]
