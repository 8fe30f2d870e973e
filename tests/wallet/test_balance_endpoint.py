"""The signed-in player's balance as JSON (the table page refreshes the top bar with it after a buy-in or cash-out)."""

import pytest
from django.urls import reverse

from wallet import services

pytestmark = pytest.mark.django_db


def test_balance_endpoint_needs_a_login(client, player):
    response = client.get(reverse("wallet:balance"))
    assert response.status_code == 401
    assert "error" in response.json()


def test_balance_endpoint_gives_the_players_own_balance(client, player, other_player, staff):
    services.credit(player, 1234, reason="welcome chips", staff=staff)
    services.credit(other_player, 99, reason="welcome chips", staff=staff)
    client.force_login(player)
    assert reverse("wallet:balance") == "/wallet/balance/"
    assert client.get("/wallet/balance/").json() == {"balance": 1234}


def test_the_balance_address_of_the_table_pages_before_the_move_redirects(client, player):
    client.force_login(player)
    response = client.get("/tables/balance/")
    assert response.status_code == 301
    assert response["Location"] == "/wallet/balance/"
    assert client.get("/tables/balance/", follow=True).json() == {"balance": 0}


def test_the_table_page_asks_the_wallet_for_the_balance(client, player):
    from tables.services import create_table

    table = create_table(player, "classic", 10, 6)
    html = client.get(reverse("tables:table", kwargs={"table_id": table.pk})).content.decode()
    assert 'data-balance-url="/wallet/balance/"' in html
