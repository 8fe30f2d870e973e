"""Past one process: two daphne processes, a Celery worker and beat, PostgreSQL and Redis serve one table together."""

import os

import pytest
from django.db import connection

from tables import services

from .conftest import Servers, server_env
from .play import (
    act_in_turn,
    audit_clean,
    in_step,
    make_players,
    new_deal,
    play_out,
    same_table_for_everyone,
    seat_everyone,
    to_act,
)
from .test_live_deals import ledger_matches

pytestmark = [pytest.mark.multiprocess, pytest.mark.timeout(180)]


@pytest.fixture
def cluster(transactional_db):
    if connection.vendor != "postgresql" or not os.environ.get("REDIS_URL", "").startswith("redis"):
        pytest.skip("needs PostgreSQL and Redis: set DATABASE_URL=postgres://… and REDIS_URL=redis://…")
    servers = Servers()
    env = server_env()
    try:
        servers.start_web(env, embedded_celery=False)
        servers.start_web(env, embedded_celery=False)
        servers.start_celery(env)
        yield servers
    finally:
        servers.stop()


def test_players_on_two_server_processes_play_one_deal_and_see_the_same_table(cluster):
    port_a, port_b = cluster.ports
    ann, boris, vera = make_players(["Ann", "Boris", "Vera"])
    table = services.create_table(ann, "classic", 10, 3, False)
    lobby = cluster.client(None, port=port_b)
    lobby.until(lambda m: m["type"] == "lobby")
    # Ann and Vera on process A, Boris on process B; a spectator on B.
    clients = seat_everyone(cluster, table, [ann, boris, vera], ports=[port_a, port_b])
    assert [c.port for c in clients] == [port_a, port_b, port_a]
    # A sit-down served by process A reaches the lobby socket on process B (through Redis).
    lobby.until(lambda m: m["type"] == "lobby_table" and m["table"] and m["table"]["seats_taken"] == 3)
    watcher = cluster.client(table.pk, port=port_b)
    watcher.until(lambda m: m["type"] == "snapshot")
    everyone = [*clients, watcher]

    # Dealt from seat 1 (after the dealer, seat 0): Boris, Vera, Ann.
    new_deal(clients, table, hands=["9s 8d 7c", "6c 6h 6s", "Ah Kh Qh"])
    same_table_for_everyone(everyone)
    act_in_turn(clients, "bet", amount=30)  # Boris (seat 1), served by B
    same_table_for_everyone(everyone)
    act_in_turn(clients, "call")  # Vera (seat 2), served by A
    same_table_for_everyone(everyone)
    # Ann (seat 0) does not move: the worker's clock (4 s here) folds her, whichever process serves her.
    version = in_step(clients)
    assert to_act(clients) is clients[0]
    clients[0].state_where(lambda s: s["version"] > version, timeout=15)
    state = play_out(clients)
    winners = [w["player"] for w in state["last_result"]["winners"]]
    assert winners == [str(vera.pk)]  # three sixes, the top hand
    same_table_for_everyone(everyone)
    # The same versions, seen from both processes; the spectator still sees no hidden card (checked on receipt).
    assert {c.snapshot["version"] for c in everyone} == {state["version"]}
    ledger_matches(table.pk, [ann, boris, vera])
    audit_clean()
