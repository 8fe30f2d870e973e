"""Issue 11, defect 7: the rule a client relies on for versions is exact (docs/protocol.md, "Versions"): snapshot
versions only rise; a change's events come in its snapshot, never in a frame of their own; an applied message is
answered by the snapshot of its change, and an `ack` (a repeated id, or a newer snapshot already sent) is covered by
a snapshot of its version or newer, already sent or next. So a gap never needs a request."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from tables import services
from tests.tables.conftest import state_of
from tests.tables.sockets import drain, open_socket, receive_until, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


def check_the_rule(messages):
    last = -1
    for index, message in enumerate(messages):
        if message["type"] == "snapshot":
            assert message["version"] > last, f"snapshot versions fall at {index}"
            last = message["version"]
        else:
            assert "events" not in message, index
        if message["type"] == "ack":
            later = [m["version"] for m in messages[index:] if m["type"] == "snapshot"][:1]
            assert last >= message["version"] or (later and later[0] >= message["version"]), index


def test_versions_follow_the_exact_rule_through_whole_deals_for_players_and_a_spectator(classic_table, players):
    ann, boris, vera = players
    for index, user in enumerate((ann, boris)):
        services.sit(classic_table.pk, user, 400, seat=index)

    cookies = {user: session_cookie(user) for user in (ann, boris)}

    async def scenario():
        sockets = {}
        for user in (ann, boris, None):
            socket, _ = await open_socket(f"/ws/tables/{classic_table.pk}/", cookies.get(user))
            sockets[user.pk if user else None] = socket
        seen = {key: [] for key in sockets}
        for deal in range(3):
            for user in (ann, boris):
                await sockets[user.pk].send_json_to({"type": "new_deal", "id": f"n{deal}-{user.pk}"})
                _, got = await receive_until(sockets[user.pk], lambda m, d=deal, u=user: m.get("id") == f"n{d}-{u.pk}")
                seen[user.pk] += got
            for step in range(40):
                state = await database_sync_to_async(state_of)(classic_table.pk)
                if state.phase == "waiting" or state.clock is None:
                    break
                seat = state.clock.seats[0]
                user = (ann, boris)[seat]
                kinds = [e.kind for e in state.legal_moves(seat)]
                kind = next(k for k in ("open", "check", "call", "show", "split", "fold") if k in kinds)
                message = {"type": kind, "id": f"d{deal}s{step}"}
                if kind == "open":
                    message["card"] = next(e.min for e in state.legal_moves(seat) if e.kind == "open")
                await sockets[user.pk].send_json_to(message)
                _, got = await receive_until(sockets[user.pk], lambda m, i=message["id"]: m.get("id") == i)
                seen[user.pk] += got
        for key, socket in sockets.items():
            seen[key] += await drain(socket)
            await socket.disconnect()
        return seen

    seen = async_to_sync(scenario)()
    for key, messages in seen.items():
        assert any(m["type"] == "snapshot" and m["events"] for m in messages), key
        check_the_rule(messages)
