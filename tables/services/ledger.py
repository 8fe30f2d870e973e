"""The bridge from the engine to the ledger: every chip an action moved at the table, as one batch of transfers.

The engine keeps the chips of a table (stacks, pot, rake taken); the ledger keeps them as accounts. Comparing where
the chips lay before and after one action gives the movements: buy-in and added chips (balance or bots' pool →
stack), paying in (stack → pot), the rake (pot → house), winnings (pot → stack) and the cash-out of a vacated seat
(stack → balance or bots' pool). Each is keyed by table, version and seat, so it can only ever happen once.
"""

from __future__ import annotations

from wallet.batch import lock as lock_ledger
from wallet.models import TransferKind
from wallet.services import AccountRef, Movement

from ..engine import play
from ..engine.events import SeatVacated
from ..state_io import Chips


def movements(
    table_id: int, family: str, version: int, action: play.Action, before: Chips, after: Chips, events, bots
) -> list[Movement]:
    """The ledger movements of one applied action, in order (pay-ins first, so the pot never dips below zero).
    `bots` holds the player ids of the bots among them."""
    key = f"t{table_id}:v{version}"
    if action.kind == "sit":
        player = str(action.player)
        source = AccountRef.bots_pool() if player in bots else AccountRef.balance(int(player))
        kind = TransferKind.BOT_BUY_IN if player in bots else TransferKind.BUY_IN
        return [_move(kind, source, _stack(player, table_id), after.stacks[player], f"{key}:buy_in:{player}",
                      table_id)]  # fmt: skip
    if action.kind == "add_chips":
        player = _player_at(before, action.seat)
        added = after.stacks[player] - before.stacks[player]
        return [_move(TransferKind.ADD_CHIPS, AccountRef.balance(int(player)), _stack(player, table_id), added,
                      f"{key}:add:{player}", table_id)]  # fmt: skip

    vacated = {event.player: event.stack for event in events if isinstance(event, SeatVacated)}
    final = dict(after.stacks)
    for player in before.stacks:
        if player not in after.stacks:
            final[player] = vacated.get(player, before.stacks[player])
    if sum(final.values()) + after.pot + after.rake_taken != before.total:
        raise RuntimeError(f"table {table_id}: chips not conserved by {action.kind} ({before} -> {after}, {events})")

    moves = []
    pot = AccountRef.pot(table_id)
    for player in sorted(before.stacks):
        paid = before.stacks[player] - final[player]
        if paid > 0:
            moves.append(_move(TransferKind.BET, _stack(player, table_id), pot, paid, f"{key}:in:{player}", table_id))
    rake = after.rake_taken - before.rake_taken
    if rake:
        moves.append(_move(TransferKind.RAKE, pot, AccountRef.house(table_id), rake, f"{key}:rake", table_id, family))
    for player in sorted(before.stacks):
        won = final[player] - before.stacks[player]
        if won > 0:
            moves.append(_move(TransferKind.PAY_OUT, pot, _stack(player, table_id), won, f"{key}:out:{player}",
                               table_id))  # fmt: skip
    for player in sorted(set(before.stacks) - set(after.stacks)):
        if final[player]:
            bot = player in bots
            moves.append(_move(
                TransferKind.BOT_CASH_OUT if bot else TransferKind.CASH_OUT, _stack(player, table_id),
                AccountRef.bots_pool() if bot else AccountRef.balance(int(player)), final[player],
                f"{key}:cash_out:{player}", table_id,
            ))  # fmt: skip
    return moves


def _stack(player: str, table_id: int) -> AccountRef:
    return AccountRef.stack(int(player), table_id)


def _move(kind, source, destination, amount, key, table_id, family="") -> Movement:
    return Movement(kind=kind, source=source, destination=destination, amount=amount, key=key,
                    table_id=table_id, family=family)  # fmt: skip


def _player_at(chips: Chips, seat) -> str:
    for player, index in chips.seats.items():
        if index == seat:
            return player
    raise RuntimeError(f"nobody sits at seat {seat}")


def lock_accounts(table_id: int, players) -> None:
    """Lock (in one statement, primary-key order) every account the table's chips can move between: its pot, its
    house account, the bots' pool, and each seated player's stack and balance (the pot, house account and stacks,
    held since the row's lock on PostgreSQL, again: a no-op). For a change made of several batches."""
    refs = [AccountRef.pot(table_id), AccountRef.house(table_id), AccountRef.bots_pool()]
    for player in players:
        refs += [_stack(player, table_id), AccountRef.balance(int(player))]
    lock_ledger(refs)
