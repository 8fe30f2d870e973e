"""The statistics pages with many stored deals: the leaderboard and a busy player's profile, and beat's tally.

    python -m bench standings [--deals 100000] [--players 2000] [--requests 100]

Fills a throwaway database (PostgreSQL with DATABASE_URL, else SQLite) with `--deals` ended hand histories (each
with 2–6 players, `tables.DealSeat`, over the last 90 days, both families, a tenth of the players bots), runs
beat's tally over all of them (stats/tally.py; deals tallied per second), then asks each page `--requests` times
through Django's test client (the whole request: middleware, session, query, template) and prints p50/p99 against
a baseline page in the same run (`/count/`, a template with no query of its own). Target: every page's p99 within
200 ms; exits 1 when one is not.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from datetime import UTC, datetime, timedelta

from bench.throwaway_db import throwaway_database

TARGET_MS = 200.0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench standings")
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--requests", type=int, default=100)
    args = parser.parse_args(argv)
    if args.deals < 1 or args.players < 6 or args.requests < 1:
        parser.error("--deals and --requests must be positive, --players at least 6")

    with throwaway_database():
        from django.conf import settings
        from django.db import connection
        from django.test import Client

        from stats.tally import tally_deals

        settings.DEBUG = False
        settings.ALLOWED_HOSTS = ["*"]
        settings.SVARA_LEADERBOARD_MIN_DEALS = 20
        started = time.perf_counter()
        busiest = fill(args.deals, args.players)
        print(f"filled {args.deals:,} deals ({connection.vendor}) in {time.perf_counter() - started:.0f} s")
        started = time.perf_counter()
        tallied = tally_deals()
        took = time.perf_counter() - started
        print(f"beat's tally: {tallied:,} deals in {took:.1f} s = {tallied / took:,.0f} deals/s")

        client = Client()
        client.force_login(busiest)
        pages = {
            "baseline /count/": "/count/",
            "/leaderboard/ classic, this week": "/leaderboard/?family=classic&period=week",
            "/leaderboard/ classic, all time": "/leaderboard/?family=classic&period=all",
            "/leaderboard/ bulgarian, all time": "/leaderboard/?family=bulgarian&period=all",
            "/profile/ of the busiest player": "/profile/",
        }
        figures = {}
        for name, url in pages.items():
            assert client.get(url).status_code == 200, url
            times = []
            for _ in range(args.requests):
                start = time.perf_counter()
                client.get(url)
                times.append((time.perf_counter() - start) * 1000)
            times.sort()
            figures[name] = (statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.99))])
        base = figures["baseline /count/"][0]
        print(f"{'page':<38} {'p50 ms':>8} {'p99 ms':>8} {'p50 ÷ baseline':>15}")
        for name, (p50, p99) in figures.items():
            print(f"{name:<38} {p50:8.1f} {p99:8.1f} {p50 / base:15.2f}")
        missed = [name for name, (_, p99) in figures.items() if p99 > TARGET_MS]
        print(f"target: p99 within {TARGET_MS:.0f} ms: {'met' if not missed else 'MISSED by ' + ', '.join(missed)}")
        return 1 if missed else 0


def fill(deals: int, players: int):
    """Ended deals with their players, written in bulk; returns the player with the most deals."""
    from django.contrib.auth import get_user_model

    from tables.models import Deal, DealSeat, Table

    rng = random.Random(7)
    User = get_user_model()
    User.objects.bulk_create([
        User(username=f"p{i}@bench", email=f"p{i}@bench", display_name=f"Player {i}", is_bot=i % 10 == 0)
        for i in range(players)
    ], batch_size=2000)
    users = list(User.objects.order_by("pk"))
    tables = [Table.objects.create(family=("classic", "bulgarian")[i % 2], ante=10, seats=6) for i in range(20)]
    now = datetime.now(UTC)
    counts = dict.fromkeys(range(len(users)), 0)
    for start in range(0, deals, 5000):
        rows, seats = [], []
        for n in range(start, min(deals, start + 5000)):
            table = tables[n % len(tables)]
            ended = now - timedelta(seconds=rng.randrange(90 * 86400))
            rows.append(Deal(table=table, number=n // len(tables) + 1, started_at=ended - timedelta(seconds=40),
                             ended_at=ended, pot=0))
        Deal.objects.bulk_create(rows, batch_size=5000)
        for deal in rows:
            who = rng.sample(range(len(users)), rng.randint(2, 6))
            winner = rng.choice(who)
            pot = 0
            for seat, index in enumerate(who):
                put = 10 * rng.randint(1, 8)
                pot += put
                counts[index] += 1
                seats.append(DealSeat(deal=deal, user=users[index], table_id=deal.table_id, family=deal.table.family,
                                      started_at=deal.started_at, seat=seat, name=users[index].display_name,
                                      bot=users[index].is_bot, stack=1000, ended=True, put_in=put,
                                      played=put > 10))
            for row in seats[-len(who):]:
                if who[row.seat] == winner:
                    row.won, row.won_pot = pot, True
                row.net = row.won - row.put_in
        DealSeat.objects.bulk_create(seats, batch_size=5000)
    return users[max(counts, key=counts.get)]
