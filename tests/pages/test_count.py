"""Count the hand: the page and its JSON endpoint score hands with the engine (RULES §2) and refuse bad input."""

import pytest
from django.urls import reverse


def points_of(client, family, cards):
    return client.get(reverse("tables:count_points"), {"family": family, "cards": cards})


@pytest.mark.parametrize(
    ("family", "cards", "points", "name"),
    [
        ("classic", "Ah Kh Qh", 31, "top trynki"),
        ("classic", "6h 6s 6c", 34, "three shakhas"),
        ("classic", "As Ah 7d", 22, "two foreheads"),
        ("classic", "Ah Kh 6c", 32, None),
        ("classic", "K♠ 9♥ 7♦", 10, None),
        ("bulgarian", "7c Kh Kd", 31, None),
        ("bulgarian", "8s Ad 7c", 22, None),
    ],
)
def test_count_endpoint_scores_hands_as_rules_section_2(client, family, cards, points, name):
    response = points_of(client, family, cards)
    assert response.status_code == 200
    body = response.json()
    assert body["points"] == points
    assert body["name"] == name
    assert len(body["cards"]) == 3


def test_count_endpoint_names_plain_three_of_a_kind_32_5(client):
    body = points_of(client, "classic", "Kh Ks Kd").json()
    assert body == {"family": "classic", "cards": ["K♥", "K♠", "K♦"], "points": 32.5, "name": None}


@pytest.mark.parametrize(
    ("family", "cards", "message"),
    [
        ("classic", "Ah Kh", "three cards, not 2"),
        ("classic", "Ah Ah Kh", "twice"),
        ("bulgarian", "6h Ah Kh", "not in the bulgarian deck"),
        ("classic", "Zz Ah Kh", "not a card"),
        ("poker", "Ah Kh Qh", "no such family"),
        ("classic", "", "no cards"),
    ],
)
def test_count_endpoint_refuses_bad_hands_with_a_clear_error(client, family, cards, message):
    response = points_of(client, family, cards)
    assert response.status_code == 400
    assert message in response.json()["error"]


def test_count_page_lists_both_decks_and_scores_without_javascript(client):
    response = client.get(reverse("tables:count"), {"family": "classic", "cards": "Ah Kh Qh"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "top trynki" in html
    decks = response.context["decks"]
    assert len(decks["classic"]["cards"]) == 36 and decks["classic"]["wild"] == "6♣"
    assert len(decks["bulgarian"]["cards"]) == 32 and decks["bulgarian"]["wild"] == "7♣"


def test_count_page_shows_the_error_for_a_bad_hand(client):
    response = client.get(reverse("tables:count"), {"family": "classic", "cards": "Ah Ah"})
    assert response.status_code == 400
    assert "a hand is three cards, not 2" in response.content.decode()


def test_count_page_keeps_a_refused_typed_hand_open_with_its_error(client):
    response = client.get(reverse("tables:count"), {"family": "bulgarian", "cards": "6s 7h 8h"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "6♠ is not in the bulgarian deck" in html
    assert '<details class="card count-type" open>' in html
    assert 'value="6s 7h 8h"' in html


@pytest.mark.django_db
def test_the_counter_keeps_its_public_address_the_top_bar_links_to(client):
    assert reverse("tables:count") == "/count/"
    assert reverse("tables:count_points") == "/count/points/"
    assert 'href="/count/"' in client.get("/").content.decode()
