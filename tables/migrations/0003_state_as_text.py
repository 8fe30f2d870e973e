"""Table.state becomes the engine's stored text (format 4, written by orjson, read and written as is) instead of a
JSON column holding format 3. Stored states of format 3 are rewritten as format 4 here, with a frozen copy of the
format 3 reader: a migration must not depend on the engine as it is today. A row it cannot read stops the
migration with the table's id (nothing is half-converted: the migration runs in one transaction)."""

import json
from binascii import a2b_base64
from struct import error as struct_error
from struct import unpack

from django.db import migrations, models

_FAMILIES = ("classic", "bulgarian")
_PHASES = ("waiting", "betting", "blind_round", "dark_round", "showdown", "split_choice", "svara_buy_in")
_CHOICES = (None, "split", "play_on")
_BOOL_FIELDS = (3, 14, 15, 19)  # has_bot, must_open, first_move, antes_only among format 3's 25 fields


def _format_3_to_4(data: list) -> list:
    packed = data[1]
    raw = a2b_base64(packed[1:])
    size = 4 if packed[0] == "i" else 8
    ints = unpack(f"<{len(raw) // size}{'i' if size == 4 else 'q'}", raw)
    fields = list(ints[:25])
    n = ints[25]
    fields[1] = _FAMILIES[fields[1]]
    fields[9] = _PHASES[fields[9]]
    for k in _BOOL_FIELDS:
        fields[k] = fields[k] == 1
    best = fields[20]
    fields[20] = None if best < 0 else best / 2 if best & 1 else best >> 1
    strings = data[2:]
    seats = []
    for i in range(n):
        player, name = strings[2 * i], strings[2 * i + 1]
        stack, level, flags, cards = ints[26 + 4 * i: 30 + 4 * i]
        if player is None:
            seats.append(None)
            continue
        bits = [bool(flags >> k & 1) for k in range(9)]  # sitting_out ready leaving in_deal folded all_in blind shown unseen
        seats.append([
            player, name, stack, bits[0], bits[1], bits[2], bits[3],
            None if cards < 0 else [cards & 63, cards >> 6 & 63, cards >> 12 & 63],
            flags >> 9 & 7, level, bits[4], bits[5], bits[6], bits[7], bits[8],
            _CHOICES[flags >> 12 & 3],
        ])
    k = 26 + 4 * n
    lists = []
    for _ in range(5):  # order, show_queue, tied, offers, buyers
        length = ints[k]
        lists.append(list(ints[k + 1: k + 1 + length]))
        k += 1 + length
    result = [*ints[k:], *strings[2 * n:]] if k < len(ints) else None
    return [4, *fields, *lists, result, seats]


def forwards(apps, schema_editor):
    Table = apps.get_model("tables", "Table")
    for table in Table.objects.all().only("pk", "state"):
        try:
            data = json.loads(table.state)
        except (TypeError, ValueError):
            continue
        if isinstance(data, list) and data[:1] == [3]:
            try:
                converted = _format_3_to_4(data)
            except (ValueError, IndexError, TypeError, struct_error) as error:  # binascii.Error is a ValueError
                raise RuntimeError(f"table {table.pk}: its stored state of format 3 cannot be read: {error!r}") from None
            table.state = json.dumps(converted, separators=(",", ":"))
            table.save(update_fields=["state"])


class Migration(migrations.Migration):
    dependencies = [("tables", "0002_presence_heartbeat")]

    operations = [
        migrations.AlterField(model_name="table", name="state", field=models.TextField(blank=True, default="")),
        # No way back: the code before this migration cannot read format 4, so undoing it must fail loudly.
        migrations.RunPython(forwards),
    ]
