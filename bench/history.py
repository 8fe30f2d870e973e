"""The hand history pages with 100,000 stored deals: /history/ (a player's deals, newest first, filtered,
paginated), /history/<id>/ (the replay) and /history/<id>.txt, against a bare page, same process, same database.

    python -m bench history [--deals 100000] [--players 2000] [--requests 60]

A throwaway PostgreSQL database (DATABASE_URL) is filled by COPY with `--deals` finished deals at 200 tables of
both families, 2–4 players each from `--players` users (one "regular" sits in about 5 % of them), and every deal's
events, taken from deals the engine played at random (bench/deals.py's player). Then Django's test client (the
whole stack: middleware, session, view, template) asks each page `--requests` times as a logged-in player and
prints p50/p99 in ms, and the ratio to the bare page (the "Count the hand" page: a template, no query). Exit
status 1 when a history page's p99 misses the 200 ms target.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from datetime import UTC, datetime, timedelta

from bench.throwaway_db import throwaway_database

TARGET_MS = 200
TABLES = 200


def template_deals(count: int, seed: int) -> dict[int, list[list[dict]]]:
    """Deals the engine played at random, by number of seats: each a list of (version, events) per action."""
    from bench.deals import random_action
    from tables.engine.events import DealEnded, DealStarted
    from tables.engine.play import Action, TableState

    rng = random.Random(seed)
    by_seats: dict[int, list] = {}
    for seats in (2, 3, 4):
        state = TableState.new("classic", 10, seats)
        for seat in range(seats):
            state.apply(Action("sit", seat=seat, player=f"p{seat}", name=f"P{seat}", amount=1000))
        found, running = [], None
        while len(found) < count:
            events = state.apply(random_action(state, rng, 10))
            for event in events:
                if isinstance(event, DealStarted):
                    running = []
                if running is not None:
                    running.append((state.version, event.to_json()))
                if isinstance(event, DealEnded) and running is not None:
                    found.append(running)
                    running = None
        by_seats[seats] = found
    return by_seats


def copy_rows(cursor, table: str, columns: list[str], rows) -> None:
    """COPY rows (tuples; None is NULL) into a table: the bulk insert PostgreSQL does fastest."""
    with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


def fairness(rng: random.Random, seats: int) -> tuple[str, str, str, str]:
    """A fairness record of a real one's size (tables/fair_record.py): the pages carry it, so its bytes count."""
    cards = rng.sample([f"{rank}{suit}" for rank in ("6", "7", "8", "9", "10", "J", "Q", "K", "A") for suit in "♠♥♦♣"],
                       3 * seats)  # fmt: skip
    dealt = [[seat, *cards[3 * seat : 3 * seat + 3]] for seat in range(seats)]
    return (rng.randbytes(32).hex(), rng.randbytes(32).hex(),
            json.dumps([[seat, rng.randbytes(16).hex()] for seat in range(seats)]),
            json.dumps([{"svara": 0, "stacked": False, "dealt": dealt}]))  # fmt: skip


def fill(deals: int, players: int, seed: int) -> int:
    """Users, tables, deals, their players and events; returns the regular player's id."""
    from django.contrib.auth import get_user_model
    from django.db import connection

    rng = random.Random(seed)
    templates = template_deals(40, seed)
    User = get_user_model()
    users = User.objects.bulk_create(
        [User(email=f"h{k}@example.com", username=f"h{k}", display_name=f"H{k}", password="!") for k in range(players)]
    )
    regular = users[0].pk
    ids = [u.pk for u in users]
    start = datetime(2026, 1, 1, tzinfo=UTC)
    raw = connection.connection  # psycopg 3: COPY
    with raw.cursor() as cursor:
        copy_rows(cursor, "tables_table", ["id", "family", "ante", "seats", "bots_allowed", "kept_open", "status",
                                           "created_at", "state", "version", "clock_kind", "clock_seats", "fault",
                                           "test_decks", "private", "invite_token"],  # fmt: skip
                  ((t, "classic" if t % 2 else "bulgarian", 10, 4, False, False, "open", start, "", 0, "", "[]", "",
                    "[]", False, "") for t in range(1, TABLES + 1)))  # fmt: skip
        deal_rows, seat_rows, event_rows = [], [], []
        numbers = dict.fromkeys(range(1, TABLES + 1), 0)
        for deal_id in range(1, deals + 1):
            table = rng.randint(1, TABLES)
            numbers[table] += 1
            number = numbers[table]
            seats = rng.choice((2, 3, 4))
            template = rng.choice(templates[seats])
            when = start + timedelta(seconds=deal_id * 30)
            winners = [e for _, e in template if e["type"] in ("pot_awarded", "split")]
            pot = max((w["pot"] for w in winners), default=0)
            rake = sum(w["rake"] for w in winners)
            sitters = rng.sample(ids[1:], seats)
            deal_rows.append((deal_id, table, number, 0, None, when, when + timedelta(seconds=25), pot, rake,
                              json.dumps([w for e in winners for w in e["winners"]]),
                              *fairness(rng, seats)))  # fmt: skip
            if rng.random() < 0.05:
                sitters[0] = regular
            family = "classic" if table % 2 else "bulgarian"
            for seat, user in enumerate(sitters):
                net = rng.randint(-200, 200)
                seat_rows.append((deal_id, user, table, family, when, seat, f"H{user}", False, 1000, True,
                                  max(-net, 10), max(net, 0), net, net > 0, True, False, False))  # fmt: skip
            first = template[0][0]  # versions as a table's would run: the deal's own span, one table's deals apart
            for index, (version, event) in enumerate(template):
                event_rows.append((table, number, 0, number * 1000 + version - first, index, json.dumps(event)))
        copy_rows(cursor, "tables_deal", ["id", "table_id", "number", "svara", "previous_id", "started_at",
                                          "ended_at", "pot", "rake", "winners", "commitment", "server_seed", "seeds",
                                          "decks"], deal_rows)  # fmt: skip
        copy_rows(cursor, "tables_dealseat", ["deal_id", "user_id", "table_id", "family", "started_at", "seat",
                                              "name", "bot", "stack", "ended", "put_in", "won", "net", "won_pot",
                                              "played", "tied", "svara_won"], seat_rows)  # fmt: skip
        copy_rows(cursor, "tables_dealevent", ["table_id", "deal_number", "svara", "version", "index", "event"],
                  event_rows)
        for table in ("tables_table", "tables_deal"):
            cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))")
    raw.commit()
    with connection.cursor() as cursor:  # as autovacuum leaves a table in use: statistics and the visibility map
        cursor.execute("VACUUM ANALYZE")
    print(f"filled: {deals:,} deals, {len(seat_rows):,} deal seats, {len(event_rows):,} events, {players:,} players "
          f"(the regular in {sum(1 for r in seat_rows if r[1] == regular):,} deals)")
    return regular


def timed(client, path: str, requests: int) -> tuple[float, float]:
    times = []
    for _ in range(3):  # warm: templates compiled, connection open
        client.get(path)
    for _ in range(requests):
        started = time.perf_counter()
        response = client.get(path)
        times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, (path, response.status_code)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.99))]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench history")
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--requests", type=int, default=60, help="requests per page")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.deals < 1 or args.players < 5 or args.requests < 1:
        parser.error("--deals and --requests must be at least 1, --players at least 5")

    with throwaway_database():
        from django.conf import settings
        from django.contrib.auth import get_user_model
        from django.db import connection
        from django.test import Client

        from tables.models import DealSeat

        if connection.vendor != "postgresql":
            print("bench history needs PostgreSQL: set DATABASE_URL")
            return 2
        settings.DEBUG = False
        started = time.perf_counter()
        regular = fill(args.deals, args.players, args.seed)
        print(f"fill took {time.perf_counter() - started:.1f} s")
        client = Client()
        client.force_login(get_user_model().objects.get(pk=regular))
        deal = DealSeat.objects.filter(user_id=regular).order_by("-started_at").values_list("deal_id", flat=True)[50]
        table = DealSeat.objects.filter(user_id=regular).values_list("table_id", flat=True).first()
        from tables.history_views import HISTORY_PAGE_SIZE

        deep = min(40, -(-DealSeat.objects.filter(user_id=regular).count() // HISTORY_PAGE_SIZE))
        pages = {
            "bare page (/count/)": "/count/",
            "/history/": "/history/",
            f"/history/?page={deep}": f"/history/?page={deep}",
            "/history/?family=bulgarian": "/history/?family=bulgarian",
            f"/history/?table={table}": f"/history/?table={table}",
            "/history/<id>/": f"/history/{deal}/",
            "/history/<id>.txt": f"/history/{deal}.txt",
        }
        results = {}
        for name, path in pages.items():
            results[name] = timed(client, path, args.requests)
        base = results["bare page (/count/)"][0]
        print(f"database: {connection.vendor}, {args.deals:,} deals, {args.requests} requests a page")
        print(f"{'page':<32} {'p50 ms':>8} {'p99 ms':>8} {'p50 / bare':>11}")
        for name, (p50, p99) in results.items():
            print(f"{name:<32} {p50:8.1f} {p99:8.1f} {p50 / base:11.2f}")
        worst = max(p99 for name, (_, p99) in results.items() if name.startswith("/history"))
        print(json.dumps({"bench": "history", "deals": args.deals,
                          "pages": {k: {"p50_ms": round(a, 1), "p99_ms": round(b, 1)} for k, (a, b) in results.items()},
                          "target_ms": TARGET_MS, "worst_p99_ms": round(worst, 1)}))  # fmt: skip
        return 0 if worst <= TARGET_MS else 1


if __name__ == "__main__":
    import sys

    raise SystemExit(main(sys.argv[1:]))
