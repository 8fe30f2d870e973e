"""Actions per second through the table server's door vs the bare engine, same process, same deals.

    python -m bench door [--deals 200] [--threads 4] [--seats 2]

Door: `tables.services.act` for every action of N classic deals of `--seats` players (New deal from each, a bet, a
fold from each of the others, chips topped up), called as a consumer calls it (each message with an id; its group
messages collected for the consumer's event loop, which sends them after the door returned): each one a transaction
that locks the table row, loads the state, applies the action, moves its chips in one ledger batch, appends the hand
history and writes the state. Two figures: one thread at one table (each action waits for the one before), and
`--threads` threads each at its own table, as a daphne process runs the door (SVARA_DOOR_THREADS). Baseline: the
same actions on the engine alone, with the state decoded from and written to its stored text around each action
(what the door does minus the database). The ratio is the price of durability and the ledger. The statements per
action are printed too. A throwaway test database is created and dropped (SQLite by default; PostgreSQL with
DATABASE_URL).
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from contextlib import nullcontext as _nothing

from bench.throwaway_db import throwaway_database
from tables.engine.rules import SEATS_BY_FAMILY


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench door")
    parser.add_argument("--deals", type=int, default=200, help="deals per table")
    parser.add_argument("--threads", type=int, default=4,
                        help="door threads (and tables) for the second figure, as a daphne process runs it")
    low, high = SEATS_BY_FAMILY["classic"]
    parser.add_argument("--seats", type=int, default=2, choices=range(low, high + 1), metavar=f"{{{low}..{high}}}",
                        help="players at each classic table (default 2; the live load seats 4)")
    args = parser.parse_args(argv)
    seats = range(args.seats)

    with throwaway_database():
        import threading

        from django.conf import settings
        from django.contrib.auth import get_user_model
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        from tables import services
        from tables.engine.play import Action, TableState
        from tables.services import notify
        from wallet.services import credit

        settings.DEBUG = False  # as in production: no query log
        settings.SVARA_DECK_PROVIDER = None  # … and the fair shuffle (the test settings' queued decks deal the locked way)
        ids = itertools.count()  # message ids, unique in the run (next() is atomic under the GIL)
        staff = get_user_model().objects.create_user(email="bench-staff@example.com", is_staff=True)

        def seated_table(n: int):
            users = [get_user_model().objects.create_user(email=f"p{n}-{k}@example.com") for k in seats]
            for user in users:
                credit(user, 10_000_000, reason="bench", staff=staff)
            table = services.create_table(users[0], "classic", 10, args.seats, False)
            for seat in seats:
                ack = services.sit(table.pk, users[seat], 1000, seat=seat)
            return table, users, ack.change.state

        def deal_actions():
            """New deal from every player, then whoever is to act bets 10 and the others fold in turn."""
            for seat in seats:
                yield seat, {"kind": "new_deal"}
            yield None, {"kind": "bet", "amount": 10}
            for _ in seats[1:]:
                yield None, {"kind": "fold"}

        def play(table, users, state, deals, counts=None):
            """The deals through the door as a consumer calls it: every message with an id, the group messages
            collected for the consumer's event loop to send (notify.collecting), whose turn read from the answer."""
            actions = 0
            with notify.collecting() as outbox:
                for _ in range(deals):
                    for seat, action in deal_actions():
                        seat = state.turn if seat is None else seat
                        with CaptureQueriesContext(connection) if counts is not None else _nothing() as captured:
                            ack = services.act(table.pk, users[seat], action, f"m{next(ids)}")
                        if counts is not None:
                            counts.append(sum(q["sql"] not in ("BEGIN", "COMMIT") for q in captured.captured_queries))
                        state, actions = ack.change.state, actions + 1
                        outbox.clear()
                    for seat in seats:  # keep every stack playable
                        room = 1000 - state.seats[seat].stack
                        if room > 0:
                            ack = services.act(table.pk, users[seat], {"kind": "add_chips", "amount": room},
                                               f"m{next(ids)}")
                            state, actions = ack.change.state, actions + 1
                            outbox.clear()
            return actions, state

        # One thread, one table: every action waits for the one before it.
        table, users, state = seated_table(0)
        started, cpu = time.perf_counter(), time.process_time()
        actions, state = play(table, users, state, args.deals)
        door_rate = actions / (time.perf_counter() - started)
        door_cpu = (time.process_time() - cpu) / max(actions, 1)
        # Statements per door action (besides BEGIN and COMMIT), counted on one more deal (not timed).
        counts = []
        play(table, users, state, 1, counts)
        statements = sum(counts) / len(counts)

        # As a daphne process runs the door: several threads, each at its own table.
        tables = [seated_table(n) for n in range(1, args.threads + 1)]
        done = []

        def run(seated):
            done.append(play(*seated, args.deals)[0])
            connection.close()

        threads = [threading.Thread(target=run, args=(seated,)) for seated in tables]
        started, cpu = time.perf_counter(), time.process_time()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        threaded_rate = sum(done) / (time.perf_counter() - started)
        threaded_cpu = (time.process_time() - cpu) / max(sum(done), 1)

        state = TableState.new("classic", 10, args.seats)
        stored = state.dumps()
        for seat in seats:
            state = TableState.loads(stored)
            player = str(seat + 1)
            state.apply(Action("sit", seat=seat, player=player, name=player, amount=1000))
            stored = state.dumps()
        base_actions = 0
        started = time.perf_counter()
        for _ in range(args.deals):
            for seat, action in deal_actions():
                state = TableState.loads(stored)
                seat = state.turn if seat is None else seat
                state.apply(Action(action["kind"], seat=seat, amount=action.get("amount")))
                stored = state.dumps()
                base_actions += 1
            for seat in seats:
                state = TableState.loads(stored)
                room = 1000 - state.seats[seat].stack
                if room > 0:
                    state.apply(Action("add_chips", seat=seat, amount=room))
                    stored = state.dumps()
                    base_actions += 1
        engine_rate = base_actions / (time.perf_counter() - started)

    ratio = door_rate / engine_rate
    print(f"database: {connection.vendor}, {args.deals} deals of {args.seats} players")
    print(f"door actions/s, 1 thread:  {door_rate:10.0f}")
    print(f"door actions/s, {args.threads} threads: {threaded_rate:10.0f}")
    print(f"this process's CPU per door action, 1 thread: {door_cpu * 1000:.2f} ms, "
          f"{args.threads} threads: {threaded_cpu * 1000:.2f} ms (the GIL bounds the threads at 1 / that)")
    print(f"engine+JSON actions/s:     {engine_rate:10.0f}")
    print(f"ratio door / engine:       {ratio:10.4f}")
    print(f"statements per action:     {statements:10.1f}")
    print(json.dumps({"bench": "door", "door_per_s": round(door_rate), "door_per_s_threads": round(threaded_rate),
                      "threads": args.threads, "seats": args.seats,
                      "cpu_ms_per_action": round(door_cpu * 1000, 3),
                      "cpu_ms_per_action_threads": round(threaded_cpu * 1000, 3), "engine_per_s": round(engine_rate),
                      "ratio": round(ratio, 5), "statements_per_action": statements,
                      "statements_per_action_of_one_deal": counts, "database": connection.vendor}))
    return 0


if __name__ == "__main__":
    import sys

    raise SystemExit(main(sys.argv[1:]))
