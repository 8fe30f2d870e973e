"""Provably fair deals (docs/fair.md): a hand history keeps its deal's commitment, the server seed revealed when
the deal is over, the players' seeds and every deck dealt; stored states of format 6 are rewritten as format 7, each
with a fresh server seed for its coming deal. A table caught mid-deal gets a record whose deck is marked stacked:
it was shuffled before fair deals and proves nothing. A frozen copy of the conversion: a migration must not depend
on the engine as it is today. A row it cannot read stops the migration with the table's id."""

import json
import secrets

from django.db import migrations, models

_SEAT_6 = (
    "player", "name", "bot", "stack", "sitting_out", "ready", "leaving", "in_deal", "cards", "opened", "level", "folded",
    "all_in", "blind", "shown", "unseen", "choice", "deal_me_in", "if_losing", "on_tie",
)
_STATE_6 = (
    "format", "version", "family", "ante", "pot", "rake_taken", "button", "dealer", "deal_no", "phase",
    "turn", "bet_level", "cap", "blind_last", "must_open", "first_move", "pending", "last_caller", "last_checker",
    "antes_only", "best", "svara_chain", "price", "svara_pot", "svara_dealer", "order", "show_queue", "tied",
    "offers", "buyers", "result", "seats",
)


def _format_6_to_7(data: dict, server_seed: str) -> dict:
    if not isinstance(data, dict) or data.get("format") != 6 or tuple(data) != _STATE_6:
        raise ValueError("not a stored state of format 6")
    seats = []
    for row in data["seats"]:
        if row is None:
            seats.append(None)
            continue
        if not isinstance(row, dict) or tuple(row) != _SEAT_6:
            raise ValueError(f"a format 6 seat has the fields {', '.join(_SEAT_6)}")
        seats.append({**row, "seed": None})
    fair = None
    if data["phase"] != "waiting":
        fair = {"deal_no": data["deal_no"], "server_seed": server_seed, "seeds": [],
                "decks": [{"svara": data["svara_chain"], "stacked": True, "dealt": []}]}
    out = {key: data[key] for key in _STATE_6 if key not in ("result", "seats")}
    return {**out, "format": 7, "server_seed": server_seed, "fair": fair, "result": data["result"], "seats": seats}


def forwards(apps, schema_editor):
    Table = apps.get_model("tables", "Table")
    for table in Table.objects.all().only("pk", "state"):
        try:
            data = json.loads(table.state)
        except (TypeError, ValueError):
            continue
        if isinstance(data, dict) and data.get("format") == 6:
            try:
                converted = _format_6_to_7(data, secrets.token_bytes(32).hex())
            except (ValueError, TypeError, KeyError) as error:
                raise RuntimeError(f"table {table.pk}: its stored state of format 6 cannot be read: {error!r}") from None
            table.state = json.dumps(converted, separators=(",", ":"), ensure_ascii=False)
            table.save(update_fields=["state"])


class Migration(migrations.Migration):
    dependencies = [("tables", "0010_deal_seats")]

    operations = [
        migrations.AddField(
            model_name="deal", name="commitment",
            field=models.CharField(blank=True, default="", max_length=64,
                                   help_text="SHA-256 of the server seed, published before the deal"),
        ),
        migrations.AddField(
            model_name="deal", name="server_seed",
            field=models.CharField(blank=True, default="", max_length=64,
                                   help_text="Written when the deal is over, never before"),
        ),
        migrations.AddField(model_name="deal", name="seeds", field=models.JSONField(blank=True, default=list)),
        migrations.AddField(model_name="deal", name="decks", field=models.JSONField(blank=True, default=list)),
        # No way back: the code before this migration cannot read format 7, so undoing it must fail loudly.
        migrations.RunPython(forwards),
    ]
