"""Bots at your own table (POST /tables/<id>/bots/): the creator (or staff) seats one or more at once, through the
door; anybody else, a table without bots, or a bad level or count is refused with the reason, and nothing sits."""

import pytest
from django.test import Client

from bots.services import fund_bots
from tables import services
from tables.models import TableSeat


def post(user, table, **data):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client.post(f"/tables/{table.pk}/bots/", data)


@pytest.fixture
def bot_table(players):
    fund_bots(100_000, key="test:seat-bots-view")
    return services.create_table(players[0], "classic", 10, 4, True)


def test_the_creator_seats_two_bots_with_one_request(bot_table, players):
    answer = post(players[0], bot_table, level="easy", count="2")
    assert answer.status_code == 200 and len(answer.json()["seated"]) == 2
    assert TableSeat.objects.filter(table=bot_table, user__is_bot=True).count() == 2


def test_staff_may_seat_a_bot_at_anybodys_table(bot_table, staff):
    assert post(staff, bot_table).status_code == 200
    assert TableSeat.objects.filter(table=bot_table, user__is_bot=True).count() == 1


@pytest.mark.parametrize("data, code, why", [
    ({"level": "grandmaster"}, 400, "No such bot level"),
    ({"count": "0"}, 400, "Seat 1 to 7"),
    ({"count": "many"}, 400, "Seat 1 to 7"),
])
def test_a_bad_request_says_why_and_seats_nobody(bot_table, players, data, code, why):
    answer = post(players[0], bot_table, **data)
    assert answer.status_code == code and why in answer.json()["error"]
    assert not TableSeat.objects.filter(table=bot_table).exists()


def test_only_the_creator_or_staff_and_only_where_bots_may_sit(bot_table, players):
    assert "creator or staff" in post(players[1], bot_table).json()["error"]
    assert post(None, bot_table).status_code == 403
    no_bots = services.create_table(players[0], "classic", 10, 4, False)
    assert "without bots" in post(players[0], no_bots).json()["error"]
    assert not TableSeat.objects.exists()


def test_more_bots_than_free_seats_seats_what_fits_and_says_so(bot_table, players):
    answer = post(players[0], bot_table, count="5").json()
    assert len(answer["seated"]) == 4 and "taken" in answer["error"]


def test_the_table_page_offers_the_bots_to_the_creator_only(bot_table, players):
    mine, theirs = Client(), Client()
    mine.force_login(players[0])
    theirs.force_login(players[1])
    assert b'id="bot-tools"' in mine.get(f"/tables/{bot_table.pk}/").content
    assert b'id="bot-tools"' not in theirs.get(f"/tables/{bot_table.pk}/").content
