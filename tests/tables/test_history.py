"""A page opened (or reloaded) later tells the same story (docs/protocol.md "history"): its first snapshot carries
the last chat lines and the running deal's log, never a card the viewer may not see (D1), and the names of
the deal's players, those who have left since included."""

import json

import pytest
from asgiref.sync import async_to_sync

from tables import selectors, services
from tables.engine.cards import ALL_CARDS
from tables.models import Table

from .conftest import state_of
from .sockets import open_socket, receive, receive_until, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


def first_messages(table_id, user=None):
    """The first snapshot a socket opened now gets, and the history it carries."""

    cookie = session_cookie(user) if user else None

    async def scenario():
        socket, connected = await open_socket(f"/ws/tables/{table_id}/", cookie)
        assert connected
        snapshot = await receive(socket)
        await socket.disconnect()
        return snapshot, snapshot["history"]

    return async_to_sync(scenario)()


def hidden_cards(table_id, seat):
    """Every card dealt that `seat` (None: a spectator) may not see now."""
    state = state_of(table_id)
    view = state.view(seat)
    hidden = set()
    for index, s in enumerate(state.seats):
        if s.cards is None:
            continue
        visible = set(view["seats"][index]["cards"] or [])
        hidden |= {str(ALL_CARDS[c]) for c in s.cards} - visible
    return hidden


def test_the_last_chat_lines_come_after_the_first_snapshot(classic_table, players):
    ann, boris, _ = players
    services.sit(classic_table.pk, ann, 400, seat=0)
    services.chat(classic_table.pk, ann, "good luck")
    services.chat(classic_table.pk, ann, "<b>have fun</b>")
    snapshot, history = first_messages(classic_table.pk, boris)
    assert snapshot["type"] == "snapshot"
    assert [(line["user"], line["text"]) for line in history["chat"]] == [("Ann", "good luck"), ("Ann", "<b>have fun</b>")]


def test_only_the_last_30_chat_lines_are_sent(classic_table, players):
    ann = players[0]
    for n in range(selectors.CHAT_HISTORY_LINES + 5):
        services.chat(classic_table.pk, ann, f"line {n}")
    _, history = first_messages(classic_table.pk)
    texts = [line["text"] for line in history["chat"]]
    assert len(texts) == selectors.CHAT_HISTORY_LINES and texts[-1] == f"line {selectors.CHAT_HISTORY_LINES + 4}"


def test_the_deal_log_holds_public_events_and_the_viewers_own_cards_only_D1(classic_table, players):
    ann, boris, vera = players
    services.sit(classic_table.pk, ann, 400, seat=0)
    services.sit(classic_table.pk, boris, 400, seat=1)
    for user in (ann, boris):
        services.act(classic_table.pk, user, {"kind": "new_deal"})
    services.act(classic_table.pk, ann, {"kind": "open", "card": 0})
    services.act(classic_table.pk, boris, {"kind": "open", "card": 2})
    services.act(classic_table.pk, boris, {"kind": "check"})
    for user, seat in ((ann, 0), (boris, 1), (vera, None), (None, None)):
        snapshot, history = first_messages(classic_table.pk, user)
        sent = json.dumps([snapshot, history], ensure_ascii=False)
        assert not any(card in sent for card in hidden_cards(classic_table.pk, seat)), user
        types = [event["type"] for event in history["log"]]
        assert types[0] == "deal_started" and "check" in types and types.count("opened") == 2
        opened = [event["seat"] for event in history["log"] if event["type"] == "card_opened"]
        assert opened == ([] if seat is None else [seat])
        assert "standing" not in json.dumps(history)


def test_between_deals_the_log_is_public_only_D1(classic_table, players):
    ann, boris, _ = players
    services.sit(classic_table.pk, ann, 400, seat=0)
    services.sit(classic_table.pk, boris, 400, seat=1)
    for user in (ann, boris):
        services.act(classic_table.pk, user, {"kind": "new_deal"})
    services.act(classic_table.pk, ann, {"kind": "open", "card": 0})
    services.act(classic_table.pk, boris, {"kind": "fold"})  # the deal is over: its seats may change hands now
    _, history = first_messages(classic_table.pk, ann)
    types = [event["type"] for event in history["log"]]
    assert "pot_awarded" in types and "card_opened" not in types
    assert "private_to" not in json.dumps(history)


def test_the_log_names_a_player_who_has_left_since(classic_table, players):
    ann, boris, vera = players
    services.sit(classic_table.pk, ann, 400, seat=0)
    services.sit(classic_table.pk, boris, 400, seat=1)
    for user in (ann, boris):
        services.act(classic_table.pk, user, {"kind": "new_deal"})
    services.stand(classic_table.pk, boris)  # mid-deal: he folds, and his seat frees when the deal is over
    assert state_of(classic_table.pk).seats[1].player is None
    _, history = first_messages(classic_table.pk, vera)
    assert history["names"] == {"0": "Ann", "1": "Boris"}
    started = history["log"][0]
    assert started["type"] == "deal_started" and started["names"] == ["Boris", "Ann"]  # in the order of play


def test_a_seated_player_without_a_connection_shows_offline_S9(classic_table, players):
    ann, boris, _ = players
    services.sit(classic_table.pk, ann, 400, seat=0)
    services.sit(classic_table.pk, boris, 400, seat=1)
    cookies = session_cookie(ann), session_cookie(boris)

    async def scenario():
        anns, _ = await open_socket(f"/ws/tables/{classic_table.pk}/", cookies[0])
        await receive(anns)
        boriss, _ = await open_socket(f"/ws/tables/{classic_table.pk}/", cookies[1])
        history = (await receive_until(boriss, lambda m: m["type"] == "snapshot"))[0]["history"]
        await anns.disconnect()
        told, _ = await receive_until(boriss, lambda m: m["type"] == "presence" and m["offline"])
        await boriss.disconnect()
        return history, told

    history, told = async_to_sync(scenario)()
    assert history["offline"] == []  # both here when Boris arrived
    assert told == {"type": "presence", "offline": [str(ann.pk)]}


def test_the_log_tells_what_the_snapshots_version_knew_not_a_later_change_D1(classic_table, players):
    """The history is read after the committed state it goes with: a change committed in between (here the
    showdown) must not be in it (the fault drill's frame audit found such logs on reconnects under load)."""
    ann, boris, _ = players
    services.sit(classic_table.pk, ann, 400, seat=0)
    services.sit(classic_table.pk, boris, 400, seat=1)
    for user in (ann, boris):
        services.act(classic_table.pk, user, {"kind": "new_deal"})
    services.act(classic_table.pk, boris, {"kind": "check"})
    committed = selectors.Committed.of_table(Table.objects.get(pk=classic_table.pk))
    services.act(classic_table.pk, ann, {"kind": "check"})  # the showdown: both hands shown
    assert "showdown_shown" in {event["type"] for event in selectors.history(committed_now(classic_table), None).log}
    log = selectors.history(committed, None).log
    assert [event["type"] for event in log][-1] == "check"
    assert "showdown_shown" not in {event["type"] for event in log}


def committed_now(table):
    return selectors.Committed.of_table(Table.objects.get(pk=table.pk))
