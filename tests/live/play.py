"""Playing deals over real sockets: seating players, waiting for everyone to see a version, acting in turn."""

from django.contrib.auth import get_user_model
from django.core.management import call_command

from tables import services
from tests.tables.sockets import session_cookie
from wallet import services as wallet


def make_players(names, chips=10_000):
    staff = get_user_model().objects.create_user(email="staff@example.com", password="pw-1-staff", is_staff=True)
    people = []
    for name in names:
        user = get_user_model().objects.create_user(
            email=f"{name.lower()}@example.com", password="pw-for-tests-1", display_name=name
        )
        wallet.credit(user, chips, reason="welcome chips", staff=staff)
        people.append(user)
    return people


def seat_everyone(live, table, users, stacks=None, ports=None):
    """One socket per player (on `ports` in turn, if given), each sitting at the seat of his index."""
    clients = []
    for index, user in enumerate(users):
        port = ports[index % len(ports)] if ports else None
        client = live.client(table.pk, session_cookie(user), port=port)
        client.until(lambda m: m["type"] == "snapshot")
        client.act("sit", amount=(stacks or [400] * len(users))[index], seat=index)
        clients.append(client)
    return clients


def in_step(clients, timeout=10):
    """Wait until every client saw the newest version any of them saw; return that snapshot version."""
    newest = max(c.latest_version for c in clients)
    for client in clients:
        client.at_version(newest, timeout)
    return newest


def to_act(clients):
    in_step(clients)
    turn = clients[0].state["turn"]
    for client in clients:
        if client.snapshot["seat"] == turn and turn is not None:
            return client
    raise AssertionError(f"nobody here is to act (turn {turn}, phase {clients[0].state['phase']})")


def act_in_turn(clients, kind, **fields):
    client = to_act(clients)
    assert kind in client.legal(), f"{kind} is not legal for seat {client.snapshot['seat']}: {client.legal()}"
    answer = client.act(kind, **fields)
    for other in clients:
        other.at_version(answer["version"])
    return client, answer


def new_deal(clients, table=None, hands=None):
    if hands:
        services.queue_test_deck(table.pk, hands)
    for client in clients:
        client.act("new_deal")
    in_step(clients)
    assert clients[0].state["phase"] != "waiting", clients[0].state


def play_out(clients, timeout=20):
    """Play the running deal to its end the simplest way: check or call, show, split, decline a svara offer."""
    for _ in range(200):
        in_step(clients)
        state = clients[0].state
        if state["phase"] == "waiting":
            return state
        acted = False
        for client in clients:
            legal = client.legal()
            for kind in ("check", "call", "show", "split", "decline"):
                if kind in legal:
                    answer = client.request(kind)
                    # A short clock (Show/Fold) may have run out first: then the state moved on without us.
                    assert answer["type"] != "error" or answer["code"] in ("not_your_turn", "illegal_action"), answer
                    acted = True
                    break
            if acted:
                break
        if not acted:
            raise AssertionError(f"nobody can move on: {state}")
    raise AssertionError("the deal did not end")


def same_table_for_everyone(clients):
    """Every viewer sees the same version and the same public state (pot, stacks, turn, result)."""
    version = in_step(clients)
    views = [c.state for c in clients]
    for view in views:
        assert view["version"] == version
        public = ("pot", "turn", "phase", "dealer", "deal_no", "bet_level", "last_result")
        assert {k: view[k] for k in public} == {k: views[0][k] for k in public}
        assert [s and (s["player"], s["stack"], s["level"]) for s in view["seats"]] == [
            s and (s["player"], s["stack"], s["level"]) for s in views[0]["seats"]
        ]


def audit_clean():
    call_command("audit_ledger")
