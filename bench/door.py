"""Actions per second through the table server's door vs the bare engine, same process, same deals.

    python -m bench door [--deals 200]

Door: `tables.services.act` for every action of N two-player classic deals (New deal ×2, bet, fold): each one a
transaction that locks the table row, loads the state, applies the action, writes the state, the seats mirror,
the hand history and every chip movement to the ledger (one batch). Baseline: the same actions on the engine alone,
with the state decoded from and written to its stored text around each action (what the door does minus the
database). The ratio is the price of durability and the ledger. The statements per action are printed too. A
throwaway test database is created and dropped (SQLite by default; PostgreSQL with DATABASE_URL).
"""

from __future__ import annotations

import argparse
import json
import time

from bench.throwaway_db import throwaway_database


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench door")
    parser.add_argument("--deals", type=int, default=200)
    args = parser.parse_args(argv)

    with throwaway_database():
        from django.contrib.auth import get_user_model
        from django.db import connection

        from tables import services
        from tables.engine.play import Action, TableState
        from tables.models import Table
        from tables.selectors import load_state
        from wallet.services import credit

        staff = get_user_model().objects.create_user(email="bench-staff@example.com", is_staff=True)
        ann = get_user_model().objects.create_user(email="ann@example.com")
        boris = get_user_model().objects.create_user(email="boris@example.com")
        for user in (ann, boris):
            credit(user, 1_000_000, reason="bench", staff=staff)
        table = services.create_table(ann, "classic", 10, 2, False)
        services.sit(table.pk, ann, 1000, seat=0)
        services.sit(table.pk, boris, 1000, seat=1)
        users = [ann, boris]

        def deal_actions(state):
            """New deal for both, then whoever is to act bets 10 and the other folds."""
            yield 0, {"kind": "new_deal"}
            yield 1, {"kind": "new_deal"}
            yield None, {"kind": "bet", "amount": 10}
            yield None, {"kind": "fold"}

        from django.test.utils import CaptureQueriesContext

        actions = 0
        started = time.perf_counter()
        for _ in range(args.deals):
            for seat, action in deal_actions(None):
                if seat is None:
                    seat = load_state(Table.objects.get(pk=table.pk)).turn
                services.act(table.pk, users[seat], action)
                actions += 1
            for seat in (0, 1):  # keep both stacks playable
                state = load_state(Table.objects.get(pk=table.pk))
                room = 1000 - state.seats[seat].stack
                if room > 0:
                    services.act(table.pk, users[seat], {"kind": "add_chips", "amount": room})
                    actions += 1
        door_rate = actions / (time.perf_counter() - started)
        # Statements per door action, counted on one more deal (not timed: capturing costs time).
        counts = []
        for seat, action in deal_actions(None):
            if seat is None:
                seat = load_state(Table.objects.get(pk=table.pk)).turn
            with CaptureQueriesContext(connection) as captured:
                services.act(table.pk, users[seat], action)
            counts.append(len(captured.captured_queries))
        statements = sum(counts) / len(counts)

        state = TableState.new("classic", 10, 2)
        stored = state.dumps()
        for seat, player in ((0, "1"), (1, "2")):
            state = TableState.loads(stored)
            state.apply(Action("sit", seat=seat, player=player, name=player, amount=1000))
            stored = state.dumps()
        base_actions = 0
        started = time.perf_counter()
        for _ in range(args.deals):
            for seat, action in deal_actions(None):
                state = TableState.loads(stored)
                seat = state.turn if seat is None else seat
                state.apply(Action(action["kind"], seat=seat, amount=action.get("amount")))
                stored = state.dumps()
                base_actions += 1
            for seat in (0, 1):
                state = TableState.loads(stored)
                room = 1000 - state.seats[seat].stack
                if room > 0:
                    state.apply(Action("add_chips", seat=seat, amount=room))
                    stored = state.dumps()
                    base_actions += 1
        engine_rate = base_actions / (time.perf_counter() - started)

    ratio = door_rate / engine_rate
    print(f"database: {connection.vendor}, {args.deals} deals")
    print(f"door actions/s:            {door_rate:10.0f}")
    print(f"engine+JSON actions/s:     {engine_rate:10.0f}")
    print(f"ratio door / engine:       {ratio:10.4f}")
    print(f"statements per action:     {statements:10.1f}")
    print(json.dumps({"bench": "door", "door_per_s": round(door_rate), "engine_per_s": round(engine_rate),
                      "ratio": round(ratio, 5), "statements_per_action": statements, "statements_new_deal_new_deal_bet_fold": counts,
                      "database": connection.vendor}))
    return 0


if __name__ == "__main__":
    import sys

    raise SystemExit(main(sys.argv[1:]))
