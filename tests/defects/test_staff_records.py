"""Issue 11, defect 8: tables and deals are records staff cannot delete, a closed table is read-only, the hand
history shows staff no opened card while its deal runs (D1: a staff member may sit there too), a closing records
its staff member, and the seats show the stack as it is now."""

import re

import pytest
from django.db import IntegrityError, transaction
from django.test import Client

from tables import services
from tables.models import Deal, DealEvent, Table
from tests.tables.conftest import audit_clean, start_deal, state_of


@pytest.fixture
def admin_client(staff):
    staff.is_superuser = True
    staff.save()
    client = Client()
    client.force_login(staff)
    return client


def test_staff_cannot_delete_a_table_or_a_deal_in_the_admin(classic_table, players, admin_client):
    start_deal(classic_table, players[:2])
    deal = Deal.objects.get(table=classic_table)
    assert admin_client.get(f"/admin/tables/table/{classic_table.pk}/delete/").status_code == 403
    assert admin_client.post(f"/admin/tables/table/{classic_table.pk}/delete/", {"post": "yes"}).status_code == 403
    assert admin_client.post(f"/admin/tables/deal/{deal.pk}/delete/", {"post": "yes"}).status_code == 403
    for path, pk in (("table", classic_table.pk), ("deal", deal.pk)):
        listing = admin_client.get(f"/admin/tables/{path}/").content.decode()
        assert "delete_selected" not in listing
        admin_client.post(f"/admin/tables/{path}/", {"action": "delete_selected", "_selected_action": [pk],
                                                     "post": "yes"})  # fmt: skip
    assert Table.objects.filter(pk=classic_table.pk).exists() and Deal.objects.filter(pk=deal.pk).exists()


def test_the_database_itself_keeps_tables_deals_and_their_events(classic_table, players, settings):
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("the triggers are PostgreSQL's")
    start_deal(classic_table, players[:2])
    for rows in (DealEvent.objects.filter(table=classic_table), Deal.objects.filter(table=classic_table),
                 Table.objects.filter(pk=classic_table.pk)):  # fmt: skip
        with pytest.raises(IntegrityError), transaction.atomic():
            rows.delete()
    with pytest.raises(IntegrityError), transaction.atomic():
        DealEvent.objects.filter(table=classic_table).update(event={"type": "rewritten"})


def test_a_closed_table_is_read_only_in_the_admin_and_records_who_closed_it(classic_table, players, staff, admin_client):
    services.sit(classic_table.pk, players[0], 400)
    services.close_table(classic_table.pk, staff=staff)
    table = Table.objects.get(pk=classic_table.pk)
    assert table.closed_by == staff
    response = admin_client.post(f"/admin/tables/table/{table.pk}/change/", {"bots_allowed": "on"})
    assert response.status_code == 403
    assert Table.objects.get(pk=table.pk).bots_allowed is False
    audit_clean()


def test_an_idle_closing_records_no_staff_member_and_a_player_cannot_close(classic_table, players):
    with pytest.raises(services.DoorError):
        services.close_table(classic_table.pk, staff=players[1])
    assert Table.objects.get(pk=classic_table.pk).is_open
    services.close_table(classic_table.pk)
    assert Table.objects.get(pk=classic_table.pk).closed_by is None


def test_the_hand_history_hides_an_opened_card_from_staff_while_the_deal_runs_D1(classic_table, players, admin_client):
    start_deal(classic_table, players[:2], ["Ah Kh Qh", "7s 8d 9c"])
    state = state_of(classic_table.pk)
    seat = state.clock.seats[0]
    services.act(classic_table.pk, players[seat], {"kind": "open", "card": 0})
    opened = DealEvent.objects.get(table=classic_table, event__type="card_opened").event["card"]
    deal = Deal.objects.get(table=classic_table)
    page = admin_client.get(f"/admin/tables/deal/{deal.pk}/change/").content.decode()
    assert "card_opened" not in page and opened not in page
    assert "deal_started" in page  # the public events are there
    services.act(classic_table.pk, players[seat], {"kind": "fold"})
    deal.refresh_from_db()
    assert deal.ended_at is not None
    assert "card_opened" in admin_client.get(f"/admin/tables/deal/{deal.pk}/change/").content.decode()


def test_the_admin_shows_each_seat_s_stack_as_it_is_now(classic_table, players, admin_client):
    start_deal(classic_table, players[:2])
    state = state_of(classic_table.pk)
    stacks = sorted(seat.stack for seat in state.seats if seat.player is not None)
    assert stacks != [400, 400]  # the antes are in the pot
    page = admin_client.get(f"/admin/tables/table/{classic_table.pk}/change/").content.decode()
    shown = re.findall(r'field-stack_now">\s*<p>(\d+)</p>', page)
    assert sorted(int(x) for x in shown) == stacks
