"""The load tool's players press New deal only once their table's players all sit (bench/live_client.py `choose`):
at a sweep step's start the first two seated had started a deal alone, and the other two's presses, on the snapshot
they sat down with, were refused "a deal is being played" (14 in a 50-table step, session 26)."""

import random

from bench.live_client import choose


def waiting(seated: int) -> dict:
    seats = [{"stack": 1000} if i < seated else None for i in range(4)]
    return {"type": "snapshot", "version": 9, "seat": 0, "state": {"phase": "waiting", "seats": seats},
            "legal": [{"kind": "new_deal"}]}  # fmt: skip


def test_new_deal_waits_for_the_tables_players():
    rng = random.Random(1)
    assert choose(waiting(2), rng, False, 10, players=4) is None
    assert choose(waiting(3), rng, False, 10, players=4) is None
    assert choose(waiting(4), rng, False, 10, players=4) == ("new_deal", {})


def test_without_a_count_one_seated_player_presses_as_before():
    assert choose(waiting(1), random.Random(1), False, 10) == ("new_deal", {})
