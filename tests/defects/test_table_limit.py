"""Issue 11, defect 6: a player cannot create tables without limit (12 in seconds before): at most
SVARA_OPEN_TABLES_PER_PLAYER open ones of his own; staff and the house's bots are not counted."""

import pytest
from django.test import Client

from tables import services
from tables.models import Table


def test_a_player_has_at_most_three_open_tables_of_his_own(players, staff, settings):
    ann = players[0]
    assert settings.SVARA_OPEN_TABLES_PER_PLAYER == 3
    first = [services.create_table(ann, "classic", 10, 6) for _ in range(3)]
    with pytest.raises(services.DoorError) as refused:
        services.create_table(ann, "classic", 10, 6)
    assert refused.value.code == "limit_reached"
    assert Table.objects.filter(created_by=ann).count() == 3
    services.create_table(players[1], "classic", 10, 6)  # another player's count is his own
    services.close_table(first[0].pk, staff=staff)
    services.create_table(ann, "bulgarian", 5, 8)  # a closed one no longer counts
    for _ in range(5):
        services.create_table(staff, "classic", 10, 6)


def test_the_lobby_form_says_why_and_creates_nothing(players):
    ann = players[0]
    for _ in range(3):
        services.create_table(ann, "classic", 10, 6)
    client = Client()
    client.force_login(ann)
    response = client.post("/create/", {"family": "classic", "ante": 10, "seats": 6})
    assert response.status_code == 400
    assert "3 open tables of your own" in response.content.decode()
    assert Table.objects.filter(created_by=ann).count() == 3
