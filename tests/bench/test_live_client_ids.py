"""A sweep of the load tool re-uses its players at the same tables, step after step. Their message ids used to
start again at every step ("<player>-1", "<player>-2", …), so the door answered most New deal presses of a later
step with the stored reply of an earlier one and applied nothing (an id is answered once): the tool counted those
acks as actions (up to 17 New deal acks a deal where a deal needs 4) and the sweep's figures at 30 and 50 tables
could not be trusted."""

import asyncio

import orjson

from bench.live_client import Player, Run
from tables.protocol import CLIENT_ID_MAX


class Socket:
    def __init__(self):
        self.sent = []

    async def send(self, text):
        self.sent.append(orjson.loads(text)["id"])


def ids_of_one_step(presses: int) -> list[str]:
    player = Player(Run(10.0), {"ante": 10}, {"mode": "full"}, index=3)
    player.ws = Socket()

    async def press():
        for _ in range(presses):
            await player.send("new_deal", {})

    asyncio.run(press())
    return player.ws.sent


def test_the_same_player_at_the_next_step_of_a_sweep_sends_ids_the_door_has_not_answered():
    first, second = ids_of_one_step(3), ids_of_one_step(3)
    assert len(set(first)) == len(set(second)) == 3
    assert not set(first) & set(second)
    assert all(len(message_id) <= CLIENT_ID_MAX for message_id in first + second)
