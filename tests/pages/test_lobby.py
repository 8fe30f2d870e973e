"""The lobby's pages: creating a table (RULES §10: family, ante, 2–6 / 2–8 seats), quick seat, the table page."""

import pytest
from django.urls import reverse

from tables.models import Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user(email="p@example.com", password="x-Pass-4711", display_name="Pia")


def test_lobby_lists_open_tables_for_anyone(client, player):
    from tables.services import create_table

    table = create_table(player, "bulgarian", 5, 8)
    response = client.get(reverse("lobby:lobby"))
    assert response.status_code == 200
    assert [t["id"] for t in response.context["tables"]] == [table.pk]


def test_create_table_makes_it_and_goes_to_it(client, player):
    client.force_login(player)
    response = client.post(reverse("lobby:create"), {"family": "classic", "ante": 10, "seats": 4})
    table = Table.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/tables/{table.pk}/#sit"
    assert (table.family, table.ante, table.seats, table.bots_allowed) == ("classic", 10, 4, False)


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"family": "classic", "ante": 10, "seats": 7}, "seats", "A classic table has 2 to 6 seats."),
        ({"family": "bulgarian", "ante": 10, "seats": 9}, "seats", "less than or equal to 8"),
        ({"family": "classic", "ante": 0, "seats": 4}, "ante", "greater than or equal to 1"),
        ({"family": "poker", "ante": 10, "seats": 4}, "family", "not one of the available choices"),
        ({"family": "classic", "ante": "ten", "seats": 4}, "ante", "whole number"),
    ],
)
def test_create_table_refuses_bad_input_clearly_and_creates_nothing(client, player, data, field, message):
    client.force_login(player)
    response = client.post(reverse("lobby:create"), data)
    assert response.status_code == 400
    assert any(message in error for error in response.context["form"].errors[field])
    assert message.split("“")[0] in response.content.decode().replace("&#x27;", "'")
    assert not Table.objects.exists()


def test_bulgarian_table_may_have_eight_seats(client, player):
    client.force_login(player)
    client.post(reverse("lobby:create"), {"family": "bulgarian", "ante": 5, "seats": 8, "bots_allowed": "on"})
    table = Table.objects.get()
    assert (table.seats, table.bots_allowed) == (8, True)


def test_create_table_needs_a_login(client):
    response = client.post(reverse("lobby:create"), {"family": "classic", "ante": 10, "seats": 4})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Table.objects.exists()


def test_quick_seat_takes_you_to_a_fitting_table_with_a_free_seat(client, player):
    from tables.services import create_table

    create_table(player, "classic", 50, 2)
    fitting = create_table(player, "bulgarian", 10, 4)
    client.force_login(player)
    response = client.post(reverse("lobby:quick_seat"), {"family": "bulgarian", "ante_min": 5, "ante_max": 20})
    assert response["Location"] == f"/tables/{fitting.pk}/#sit"
    none = client.post(reverse("lobby:quick_seat"), {"family": "classic", "ante_max": 20}, follow=True)
    assert "No open table fits" in none.content.decode()


def test_table_page_renders_and_unknown_table_is_404(client, player):
    from tables.services import create_table

    table = create_table(player, "classic", 10, 6)
    response = client.get(reverse("tables:table", kwargs={"table_id": table.pk}))
    assert response.status_code == 200
    assert f'data-ws-path="/ws/tables/{table.pk}/"' in response.content.decode()
    assert client.get("/tables/999999/").status_code == 404


def test_the_table_page_gives_its_script_the_buy_in_bounds_section_10_D15(client, player):
    from tables.engine.rules import MAX_STACK_ANTES, MIN_BUY_IN_ANTES
    from tables.services import create_table

    table = create_table(player, "classic", 10, 6)
    page = client.get(reverse("tables:table", kwargs={"table_id": table.pk})).content.decode()
    assert f'data-min-buy-in-antes="{MIN_BUY_IN_ANTES}"' in page and f'data-max-stack-antes="{MAX_STACK_ANTES}"' in page

