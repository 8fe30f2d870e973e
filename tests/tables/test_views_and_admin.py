"""What each viewer receives (D1), the test-deck hook's guard, hand histories and the staff admin."""

import threading
import time
from html import escape

import pytest
from asgiref.sync import async_to_sync
from django.db import connection
from django.test import Client

from tables import services
from tables.engine.cards import ALL_CARDS
from tables.models import Deal, Table, TableSeat
from wallet.accounts import stack_account

from .conftest import audit_clean, start_deal, state_of
from .sockets import drain, open_socket, receive, receive_until, session_cookie


@pytest.mark.django_db(transaction=True)
def test_an_opened_card_goes_to_its_owner_only_D1(classic_table, players):
    ann, boris, _ = players
    start_deal(classic_table, [ann, boris], hands=["Kh 9s 7d", "Ah Ad As"])
    cookies = session_cookie(ann), session_cookie(boris)

    async def scenario():
        a, _ = await open_socket(f"/ws/tables/{classic_table.pk}/", cookies[0])
        b, _ = await open_socket(f"/ws/tables/{classic_table.pk}/", cookies[1])
        watcher, _ = await open_socket(f"/ws/tables/{classic_table.pk}/")
        for socket in (a, b, watcher):
            await receive(socket)
        await b.send_json_to({"type": "open", "card": 1, "id": "o1"})
        _, boris_saw = await receive_until(b, lambda m: m["type"] == "snapshot" and m["version"] > 0)
        boris_saw += await drain(b)
        ann_saw, watcher_saw = await drain(a), await drain(watcher)
        # A client that saw a gap asks for a snapshot and gets the whole thing.
        await a.send_json_to({"type": "snapshot"})
        asked = await receive(a)
        for socket in (a, b, watcher):
            await socket.disconnect()
        return boris_saw, ann_saw, watcher_saw, asked

    boris_saw, ann_saw, watcher_saw, asked = async_to_sync(scenario)()
    opened = [e for m in boris_saw if m["type"] == "snapshot" for e in m["events"] if e["type"] == "card_opened"]
    assert opened == [{"type": "card_opened", "seat": 1, "index": 1, "card": "9♠", "private_to": 1}]
    boris_snapshot = [m for m in boris_saw if m["type"] == "snapshot"][-1]
    assert boris_snapshot["state"]["seats"][1]["cards"] == [None, "9♠", None]
    for seen in (ann_saw, watcher_saw):
        assert "9♠" not in repr(seen) and "card_opened" not in repr(seen)
        # They did hear that a card was opened, in the snapshot of that change.
        assert any(e["type"] == "opened" for m in seen if m["type"] == "snapshot" for e in m["events"])
    assert asked["type"] == "snapshot" and asked["seat"] == 0
    assert asked["state"]["seats"][1]["cards"] == [None, None, None]
    assert asked["state"]["seats"][1]["opened"] == 1


def test_fixed_decks_are_refused_outside_the_test_settings(classic_table, settings):
    settings.SVARA_DECK_PROVIDER = None
    with pytest.raises(services.DoorError):
        services.queue_test_deck(classic_table.pk, ["Ah Ad As", "Kh 9s 7d"])
    assert Table.objects.get(pk=classic_table.pk).test_decks == []


def test_a_queued_deck_is_ignored_when_the_setting_is_off(classic_table, players, settings):
    services.queue_test_deck(classic_table.pk, ["Ah Ad As", "Kh 9s 7d"])
    settings.SVARA_DECK_PROVIDER = None
    start_deal(classic_table, players[:2])
    assert Table.objects.get(pk=classic_table.pk).test_decks == [["Ah Ad As", "Kh 9s 7d"]]  # never used


def test_staff_see_tables_and_hand_histories_and_close_a_table_in_the_admin(classic_table, players, staff):
    ann, boris, _ = players
    start_deal(classic_table, [ann, boris])
    staff.is_superuser = True
    staff.save()
    client = Client()
    client.force_login(staff)
    assert client.get("/admin/tables/table/").status_code == 200
    page = client.get(f"/admin/tables/table/{classic_table.pk}/change/")
    assert page.status_code == 200
    # Staff see the play as a spectator does: the phase and stacks, no card that is not open to everyone.
    state = state_of(classic_table.pk)
    text = page.content.decode()
    assert "&quot;phase&quot;: &quot;betting&quot;" in text
    assert state.dumps() not in text and escape(state.dumps()) not in text
    for seat in state.seats:
        for card in seat.cards or []:
            assert f"&quot;{ALL_CARDS[card]}&quot;" not in text
    deal = Deal.objects.get(table=classic_table)
    page = client.get(f"/admin/tables/deal/{deal.pk}/change/")
    # The running deal's commitment, never its server seed (docs/fair.md): that would give every card away.
    assert page.status_code == 200 and deal.commitment in page.content.decode()
    assert state.server_seed not in page.content.decode() and state.server_seed not in text
    response = client.post(
        "/admin/tables/table/", {"action": "close_tables", "_selected_action": [classic_table.pk]}, follow=True
    )
    assert response.status_code == 200
    table = Table.objects.get(pk=classic_table.pk)
    assert table.status == "closed"
    assert not TableSeat.objects.filter(table=table).exists()
    # Over now: the hand history reveals the seed it was dealt from.
    assert f"Server seed: {state.server_seed}" in client.get(f"/admin/tables/deal/{deal.pk}/change/").content.decode()
    audit_clean()


@pytest.mark.django_db(transaction=True)
def test_the_same_message_id_sent_twice_at_once_is_applied_once(classic_table, players):
    """Two processes (here threads) handling the same id at the same moment: the table's row lock serialises them."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (row locks, concurrent connections): set DATABASE_URL")
    ann = players[0]
    services.sit(classic_table.pk, ann, 400)
    answers, barrier = [], threading.Barrier(4)

    def send():
        barrier.wait()
        try:
            answers.append(services.act(classic_table.pk, ann, {"kind": "add_chips", "amount": 100}, "same-id"))
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(answers) == 4 and all(answer.reply == answers[0].reply for answer in answers)
    assert sum(answer.change is not None for answer in answers) == 1  # applied once, answered four times
    assert stack_account(ann, classic_table.pk).balance == 500
    audit_clean()


@pytest.mark.django_db(transaction=True)
def test_a_move_resent_while_the_first_waits_for_the_lock_gets_the_first_answer(classic_table, players):
    """Two handlers of one id wait on the table's lock; the first checks, and for the second a check is no longer
    the player's turn: it must still get the first one's ack, never "not your turn"."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (row locks, concurrent connections): set DATABASE_URL")
    from django.db import transaction

    ann, boris, _ = players
    start_deal(classic_table, [ann, boris])
    player = [ann, boris][state_of(classic_table.pk).turn]
    version = Table.objects.get(pk=classic_table.pk).version
    answers, held, release = [], threading.Event(), threading.Event()

    def hold_the_lock():
        try:
            with transaction.atomic():
                Table.objects.select_for_update().get(pk=classic_table.pk)
                held.set()
                release.wait(5)
        finally:
            connection.close()

    def send():
        try:
            answers.append(services.act(classic_table.pk, player, {"kind": "check"}, "resent-1"))
        except services.DoorError as refused:
            answers.append(refused)
        finally:
            connection.close()

    holder = threading.Thread(target=hold_the_lock)
    holder.start()
    held.wait(5)
    senders = [threading.Thread(target=send) for _ in range(2)]
    for sender in senders:
        sender.start()
    time.sleep(0.5)  # both wait on the lock, their statements' snapshots taken
    release.set()
    for thread in [holder, *senders]:
        thread.join()
    assert all(isinstance(a, services.Ack) for a in answers), answers
    assert answers[0].reply == answers[1].reply and answers[0].version == version + 1
    assert Table.objects.get(pk=classic_table.pk).version == version + 1
