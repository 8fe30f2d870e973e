"""A finished deal as text, one line per step, in the style of poker rooms' hand histories: a header (the deal,
the table, the family, the ante, when), the steps as its viewer could see them (tables/replay.py: the same
visibility), then the summary (pot, rake, each player's result) and the deal's fairness block (tables/fair_record.py)."""

from __future__ import annotations

from .fair_record import fair_lines
from .replay import Replay


def lines(replay: Replay) -> list[str]:
    deal = replay.deal
    table = deal.table
    when = deal.started_at.strftime("%Y-%m-%d %H:%M:%S UTC")
    kind = f"Svara {deal.svara} of deal {deal.number}" if deal.svara else f"Deal {deal.number}"
    out = [f"Svara hand #{deal.pk}: {kind} at table {table.pk} - {table.family}, ante {table.ante} - {when}"]
    if deal.previous_id:
        out.append(f"Comes from hand #{deal.previous_id} (a tie: its pot of {deal.previous.pot} carries over)")
    out.append("Seats: " + ", ".join(f"seat {s.seat + 1}: {s.name} ({s.stack} in chips)" for s in replay.seats))
    for number, step in enumerate(replay.steps, 1):
        out.append(f"{number:>3}. {step.line}")
    out.append("*** SUMMARY ***")
    out.append(f"Pot {deal.pot} | Rake {deal.rake}")
    for s in replay.seats:
        result = "tied: on to the svara" if s.tied else "won" if s.won_pot else "lost"
        out.append(f"Seat {s.seat + 1}: {s.name} put in {s.put_in}, took {s.won} (net {s.net:+d}): {result}")
    next_deal = next_in_chain(deal)
    if next_deal is not None:
        out.append(f"Continues in hand #{next_deal.pk} (svara {next_deal.svara})")
    # The provably-fair block closes the export (docs/fair.md: docs/verify_deal.py and /fair/ read it back).
    out += fair_lines(deal)
    return out


def next_in_chain(deal):
    """The svara this deal's tie led to, or None."""
    from .models import Deal

    try:
        return deal.next_in_chain
    except Deal.DoesNotExist:
        return None


def text(replay: Replay) -> str:
    return "\n".join(lines(replay)) + "\n"
