"""Complete deals of both families over real WebSocket connections to a real server process."""

import pytest

from tables import services
from tables.engine.play import TableState
from tables.models import Table, TableSeat
from wallet.accounts import pot_account, stack_account
from wallet.selectors import balance_of

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

pytestmark = pytest.mark.timeout(120)


def ledger_matches(table_id, users):
    """Each seat's stack account holds the engine's stack; the pot account the engine's pot."""
    state = TableState.loads(Table.objects.get(pk=table_id).state)
    for seat in state.seats:
        if seat.player is not None:
            user = next(u for u in users if str(u.pk) == seat.player)
            assert stack_account(user, table_id).balance == seat.stack
    assert pot_account(table_id).balance == state.pot


def test_a_classic_deal_with_a_blind_round_and_an_all_in_over_real_sockets(live):
    ann, boris = make_players(["Ann", "Boris"])
    table = services.create_table(ann, "classic", 10, 4, False)
    clients = seat_everyone(live, table, [ann, boris], stacks=[400, 200])
    watcher = live.client(table.pk)  # an anonymous spectator
    watcher.until(lambda m: m["type"] == "snapshot")
    # The dealer is seat 0, so Boris (seat 1) is dealt first and acts first.
    new_deal(clients, table, hands=["Kh 9s 7d", "Ah Ad As"])
    act_in_turn(clients, "blind")  # Boris: one ante blind
    act_in_turn(clients, "blind")  # Ann: the double, blind
    act_in_turn(clients, "open", card=0)  # Boris looks at a card...
    act_in_turn(clients, "blind")  # ...and bets the double: the blind round is over (unblinded)
    assert clients[0].state["phase"] == "betting"
    ann_side = to_act(clients)
    assert ann_side is clients[0]
    # Ann raises to all she has; Boris cannot cover it: his call is all-in (D6).
    act_in_turn(clients, "raise", amount=ann_side.legal()["raise"]["max"])
    boris_side = to_act(clients)
    assert boris_side.legal()["call"]["max"] == 190  # 200 less the ante
    act_in_turn(clients, "call")
    state = play_out(clients)
    result = state["last_result"]
    assert [w["player"] for w in result["winners"]] == [str(ann.pk)]
    assert result["pot"] == 400 and result["rake"] == 12
    same_table_for_everyone([*clients, watcher])
    # Everyone, the spectator too, saw both hands at the showdown.
    shown = {s["seat"]: s["cards"] for s in result["shown"]}
    assert shown == {0: ["A♥", "A♦", "A♠"], 1: ["K♥", "9♠", "7♦"]}
    ledger_matches(table.pk, [ann, boris])
    audit_clean()


def test_a_bulgarian_deal_with_dark_bets_over_real_sockets(live):
    ann, boris, vera = make_players(["Ann", "Boris", "Vera"])
    table = services.create_table(ann, "bulgarian", 10, 8, False)
    clients = seat_everyone(live, table, [ann, boris, vera])
    new_deal(clients, table, hands=["Ah Ad As", "Kh 9s 8d", "7c 7h 7s"])
    first = to_act(clients)
    act_in_turn(clients, "dark", amount=first.legal()["dark"]["min"])
    act_in_turn(clients, "dark", amount=to_act(clients).legal()["dark"]["min"])  # the double, in the dark
    third = to_act(clients)
    assert "check" not in third.legal() and "call" not in third.legal()  # bet at least twice the last dark, or fold
    act_in_turn(clients, "open", card=0)
    act_in_turn(clients, "bet", amount=third.legal()["bet"]["min"])
    state = play_out(clients)
    # Three sevens, the top bulgarian hand, dealt to the third player (seat 0).
    assert [w["player"] for w in state["last_result"]["winners"]] == [str(ann.pk)]
    same_table_for_everyone(clients)
    ledger_matches(table.pk, [ann, boris, vera])
    audit_clean()


def test_a_svara_with_a_buy_in_and_an_offer_running_out_over_real_sockets_S7(live):
    ann, boris, vera, dan = make_players(["Ann", "Boris", "Vera", "Dan"])
    table = services.create_table(ann, "classic", 10, 4, False)
    clients = seat_everyone(live, table, [ann, boris, vera, dan], stacks=[1000] * 4)
    services.queue_test_deck(table.pk, ["6c 7h 8d"] * 0 + ["Ah Kh Qh", "As Ks Qs", "7d 8c 9h", "7h 8d 9c"])
    for client in clients:
        client.act("new_deal")
    in_step(clients)
    act_in_turn(clients, "bet", amount=40)  # Boris
    act_in_turn(clients, "call")  # Vera
    act_in_turn(clients, "fold")  # Dan
    act_in_turn(clients, "fold")  # Ann
    in_step(clients)
    assert clients[0].state["phase"] == "split_choice"
    clients[1].act("play_on")  # one who wants to play on is enough: a svara
    bought = declined_by_clock = False
    for _ in range(4):
        in_step(clients)
        if clients[0].state["phase"] != "svara_buy_in":
            break
        offered = to_act(clients)
        if offered is clients[0]:
            offered.act("buy_in")
            bought = True
        else:
            version = offered.snapshot["version"]
            # Dan does not answer: after 10 s (2 s here) the offer counts as declined.
            offered.until(lambda m, v=version: m["type"] == "snapshot" and m["version"] > v, timeout=8)
            declined_by_clock = True
    assert bought and declined_by_clock
    state = clients[0].state
    assert state["svara_chain"] >= 1
    in_deal = {s["seat"] for s in state["seats"] if s and s["in_deal"]}
    assert in_deal == {0, 1, 2}
    state = play_out(clients)
    assert state["phase"] == "waiting"
    same_table_for_everyone(clients)
    ledger_matches(table.pk, [ann, boris, vera, dan])
    audit_clean()


def test_a_split_with_show_and_split_clocks_running_out_S7_S9(live):
    ann, boris, vera = make_players(["Ann", "Boris", "Vera"])
    table = services.create_table(ann, "classic", 10, 3, False)
    clients = seat_everyone(live, table, [ann, boris, vera])
    new_deal(clients, table, hands=["Ah Kh Qh", "As Ks Qs", "7d 8c 9h"])
    for _ in range(3):
        act_in_turn(clients, "check")
    # Ann's weaker hand: Show or Fold; she does not answer, so after 3 s (0.6 s here) it folds unseen.
    state = clients[0].state_where(lambda s: s["state"]["phase"] == "split_choice", timeout=8)["state"]
    assert state["seats"][0]["cards"] == [None, None, None]
    clients[1].act("split")
    # Vera does not answer: after 10 s (2 s here) the pot is split.
    state = clients[0].state_where(lambda s: s["state"]["phase"] == "waiting", timeout=8)["state"]
    result = state["last_result"]
    assert result["kind"] == "split" and result["rake"] == 0  # only antes: no rake (S8)
    assert sorted(w["amount"] for w in result["winners"]) == [15, 15]
    same_table_for_everyone(clients)
    # Nobody ever learns the hand folded unseen.
    for client in clients:
        for message in client.received:
            if message["type"] == "snapshot":
                seat = message["state"]["seats"][0]
                assert seat is None or seat["cards"] in ([None, None, None], []) or client is clients[0]
    ledger_matches(table.pk, [ann, boris, vera])
    audit_clean()


def test_move_and_new_deal_clocks_run_out_on_the_server_S9(live):
    ann, boris = make_players(["Ann", "Boris"])
    table = services.create_table(ann, "classic", 10, 2, False)
    clients = seat_everyone(live, table, [ann, boris])
    new_deal(clients, table, hands=["Kh 9s 7d", "Ah Ad As"])
    act_in_turn(clients, "bet", amount=20)  # Boris bets; Ann owes chips and does not answer: she folds (4 s here)
    state = clients[0].state_where(lambda s: s["state"]["phase"] == "waiting", timeout=10)["state"]
    assert state["last_result"]["winners"][0]["player"] == str(boris.pk)
    assert any(e.get("type") == "timeout" for m in clients[0].received if m["type"] == "snapshot" for e in m["events"])
    # Nobody presses New deal: after 30 s (6 s here) both sit out.
    clients[0].state_where(
        lambda s: all(seat["status"] == "sitting_out" for seat in s["state"]["seats"] if seat), timeout=12
    )
    # A first mover who owes nothing checks when his clock runs out.
    clients[0].act("back"), clients[1].act("back")
    in_step(clients)
    if clients[0].state["phase"] == "waiting":
        new_deal([c for c in clients if "new_deal" in c.legal()], table)
    version = in_step(clients)
    first = clients[0].state["turn"]
    state = clients[0].state_where(lambda s: s["version"] > version, timeout=10)["state"]
    assert state["seats"][first]["status"] == "playing" and state["turn"] != first
    ledger_matches(table.pk, [ann, boris])
    audit_clean()


def test_reconnecting_gives_a_full_snapshot_and_repeated_or_out_of_turn_messages_change_nothing(live):
    ann, boris, vera = make_players(["Ann", "Boris", "Vera"])
    table = services.create_table(ann, "classic", 10, 3, False)
    clients = seat_everyone(live, table, [ann, boris, vera])
    new_deal(clients, table, hands=["Ah Kd 7s", "9h 9d 8c", "Qs Js 10s"])
    boris_client = clients[1]
    boris_client.act("open", card=2)
    version = in_step(clients)
    assert boris_client.state["seats"][1]["cards"] == [None, None, "7♠"]
    # Boris's connection drops; he comes back and gets everything he may see, nothing more.
    boris_client.close()
    from tests.tables.sockets import session_cookie

    boris_client = live.client(table.pk, session_cookie(boris))
    snapshot = boris_client.until(lambda m: m["type"] == "snapshot")
    assert snapshot["version"] == version and snapshot["seat"] == 1
    assert snapshot["state"]["seats"][1]["cards"] == [None, None, "7♠"]
    clients[1] = boris_client
    # Out of turn: Ann (seat 0) is not to act.
    refused = clients[0].request("check")
    assert refused["type"] == "error" and refused["code"] == "not_your_turn"
    # A repeated id is answered again, with the version it was applied at, and applied once.
    first = boris_client.request("bet", amount=20, id="bet-once")
    again = boris_client.request("bet", amount=20, id="bet-once")
    assert first["type"] == "snapshot" and again == {"type": "ack", "id": "bet-once", "version": first["version"]}
    assert in_step(clients) == first["version"]
    assert clients[0].state["seats"][1]["level"] == 20
    ledger_matches(table.pk, [ann, boris, vera])
    audit_clean()


def test_leaving_mid_deal_folds_at_once_and_the_chips_return_when_it_is_over_S10(live):
    ann, boris, vera = make_players(["Ann", "Boris", "Vera"])
    table = services.create_table(ann, "classic", 10, 3, False)
    clients = seat_everyone(live, table, [ann, boris, vera])
    new_deal(clients, table)
    clients[2].act("stand")  # Vera leaves during the deal
    in_step(clients)
    assert clients[0].state["seats"][2]["status"] == "leaving"
    assert TableSeat.objects.filter(table=table, user=vera).exists()
    play_out(clients[:2] + [clients[2]])
    in_step(clients)
    assert clients[0].state["seats"][2] is None
    assert balance_of(vera) == 10_000 - 10  # her ante stayed in the pot, the rest came back
    ledger_matches(table.pk, [ann, boris, vera])
    audit_clean()


def test_the_lobby_socket_follows_tables_live(live):
    (ann,) = make_players(["Ann"])
    # Created in this test process: with the in-memory channel layer only the server's own changes reach its
    # sockets, so the list on connect shows the table and a sit-down through the server updates it.
    table = services.create_table(ann, "bulgarian", 5, 8, True)
    lobby = live.client(None)
    row = lobby.until(lambda m: m["type"] == "lobby")["tables"][0]
    assert (row["id"], row["family"], row["ante"], row["seats_taken"], row["bots_allowed"]) == (
        table.pk, "bulgarian", 5, 0, True,
    )
    seat_everyone(live, table, [ann], stacks=[100])
    row = lobby.until(lambda m: m["type"] == "lobby_table" and m["table"]["seats_taken"] == 1)["table"]
    assert row["players"] == [{"seat": 0, "name": "Ann", "is_bot": False}]


def test_a_foreign_origin_is_refused_by_the_real_server(live):
    from websockets.exceptions import InvalidStatus

    with pytest.raises(InvalidStatus):
        live.client(None, origin="https://evil.example")
