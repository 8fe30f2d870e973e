"""Stored states of format 4 (one positional JSON array) are rewritten as format 5 (one JSON object with named
fields, cards by name: tables/engine/storage.py, docs/engine.md "Storage"), with frozen copies of the format 4
reader and the format 5 writer: a migration must not depend on the engine as it is today. A row it cannot read
stops the migration with the table's id (nothing is half-converted: the migration runs in one transaction).

Format 4 kept one `has_bot` for the table, which the door set before every action from the users seated; format 5
keeps `bot` on each seat (the engine derives `has_bot` from the seats), so each seated player's `bot` is read from
his user row here: the same flag the door would have set, for the same reason (RULES §8)."""

import json

from django.conf import settings
from django.db import migrations

# Format 4: [4, *_FIELDS_4, *_LISTS_4, result, seats]; a seat is a row of _SEAT_4, or null.
_FIELDS_4 = (
    "version", "family", "ante", "has_bot", "pot", "rake_taken", "button", "dealer", "deal_no", "phase", "turn",
    "bet_level", "cap", "blind_last", "must_open", "first_move", "pending", "last_caller", "last_checker",
    "antes_only", "best", "svara_chain", "price", "svara_pot", "svara_dealer",
)
_LISTS_4 = ("order", "show_queue", "tied", "offers", "buyers")
_SEAT_4 = (
    "player", "name", "stack", "sitting_out", "ready", "leaving", "in_deal", "cards", "opened", "level", "folded",
    "all_in", "blind", "shown", "unseen", "choice",
)
_RANKS = ("6", "7", "8", "9", "T", "J", "Q", "K", "A")
_SUITS = ("s", "h", "d", "c")  # ♠ ♥ ♦ ♣: a card's index is suit * 9 + rank - 6
_KINDS = ("win", "split")
_REASONS = ("all others folded", "best hand", "split", "all checked (D17)")


def _name(index: int) -> str:
    if not 0 <= index < 36:
        raise ValueError(f"no card has index {index}")
    return _RANKS[index % 9] + _SUITS[index // 9]


def _result_4_to_5(result: list) -> dict:
    deal_no, kind, rake, pot, reason, n = result[:6]
    k = 6 + 2 * n
    paid = result[6:k]
    shown = result[k + 1: k + 1 + 2 * result[k]]
    players = result[-n:]
    return {
        "deal_no": deal_no, "kind": _KINDS[kind], "rake": rake, "pot": pot, "reason": _REASONS[reason],
        "winners": [{"seat": seat, "player": player, "amount": amount}
                    for seat, amount, player in zip(paid[0::2], paid[1::2], players, strict=True)],
        "shown": [{"seat": seat, "cards": [_name(packed & 63), _name(packed >> 6 & 63), _name(packed >> 12 & 63)]}
                  for seat, packed in zip(shown[0::2], shown[1::2], strict=True)],
    }


def _format_4_to_5(data: list, bots=frozenset()) -> dict:
    """`bots`: the player ids (user ids as text) of the bots among the seated."""
    if len(data) != 1 + len(_FIELDS_4) + len(_LISTS_4) + 2:
        raise ValueError(f"a format 4 state has {1 + len(_FIELDS_4) + len(_LISTS_4) + 2} entries, not {len(data)}")
    converted = {"format": 5}
    converted.update(zip(_FIELDS_4 + _LISTS_4, data[1:-2], strict=True))
    del converted["has_bot"]  # derived from the seats in format 5
    result, rows = data[-2], data[-1]
    converted["result"] = None if result is None else _result_4_to_5(result)
    seats = []
    for row in rows:
        if row is None:
            seats.append(None)
            continue
        if len(row) != len(_SEAT_4):
            raise ValueError(f"a format 4 seat has {len(_SEAT_4)} fields, not {len(row)}")
        values = dict(zip(_SEAT_4, row, strict=True))
        seat = {"player": values.pop("player"), "name": values.pop("name"), "bot": row[0] in bots, **values}
        if seat["cards"] is not None:
            seat["cards"] = [_name(card) for card in seat["cards"]]
        seats.append(seat)
    converted["seats"] = seats
    return converted


def forwards(apps, schema_editor):
    Table = apps.get_model("tables", "Table")
    User = apps.get_model(settings.AUTH_USER_MODEL)
    bots = {str(pk) for pk in User.objects.filter(is_bot=True).values_list("pk", flat=True)}
    for table in Table.objects.all().only("pk", "state"):
        try:
            data = json.loads(table.state)
        except (TypeError, ValueError):
            continue
        if isinstance(data, list) and data[:1] == [4]:
            try:
                converted = _format_4_to_5(data, bots)
            except (ValueError, IndexError, TypeError, KeyError) as error:
                raise RuntimeError(f"table {table.pk}: its stored state of format 4 cannot be read: {error!r}") from None
            table.state = json.dumps(converted, separators=(",", ":"), ensure_ascii=False)
            table.save(update_fields=["state"])


class Migration(migrations.Migration):
    dependencies = [("tables", "0003_state_as_text"), migrations.swappable_dependency(settings.AUTH_USER_MODEL)]

    # No way back: the code before this migration cannot read format 5, so undoing it must fail loudly.
    operations = [migrations.RunPython(forwards)]
