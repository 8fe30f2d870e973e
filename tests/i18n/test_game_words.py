"""The game's own words in each language: the named hands as the players of each country say them, the replay's
steps in the reader's language, and the text export in English for everyone (a file format: docs/verify_deal.py
and /fair/ read it back)."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from tables.models import Deal
from tests.history.test_pages import play_deal, replay_of
from tests.tables.conftest import make_user
from wallet import services as wallet

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    "language,family,cards,name",
    [
        ("ru", "classic", "6h 6s 6c", "три шахи"),
        ("ru", "classic", "Ah As Ad", "три чела"),
        ("ru", "classic", "As Ah 7d", "два чела"),
        ("ru", "classic", "Ah Kh Qh", "старшая трынка"),
        ("ru", "bulgarian", "7h 7s 7d", "три семёрки"),
        ("bg", "bulgarian", "7h 7s 7d", "три седмици"),
        ("bg", "bulgarian", "7h 7s 9d", "две седмици"),
        ("bg", "bulgarian", "Ah As 9d", "две аса"),
        ("bg", "classic", "6h 6s 6c", "три шахи"),
        ("en", "classic", "Ah As Ad", "three foreheads"),
    ],
)
def test_count_the_hand_names_it_in_the_readers_words(db, language, family, cards, name):
    client = Client(headers={"accept-language": language})
    answer = client.get("/count/points/", {"family": family, "cards": cards}).json()
    assert answer["name"] == name
    assert (
        f'id="count-name">{name}<'
        in client.get("/count/", {"family": family, "cards": cards}).content.decode()
    )


def test_a_hand_that_cannot_be_counted_says_why_in_the_readers_language(db):
    client = Client(headers={"accept-language": "ru"})
    answer = client.get("/count/points/", {"family": "classic", "cards": "Ah Zz 6c"})
    assert answer.status_code == 400
    assert answer.json()["error"] == "это не карта: 'Zz' (нет достоинства 'Z'; достоинства: 6-10, J, Q, K, A)"
    assert client.get("/count/points/", {"family": "classic", "cards": "Ah Kh"}).json()["error"] == (
        "в руке три карты, а не 2"
    )


@pytest.fixture
def deal(db):
    staff = make_user("staff@example.com", is_staff=True)
    anna = make_user("anna@example.com", display_name="Анна")
    boris = make_user("boris@example.com", display_name="Борис")
    for user in (anna, boris):
        wallet.credit(user, 10_000, reason="фишки", staff=staff)
    from tables import services

    table = services.create_table(anna, "classic", 10, 2, False)
    return play_deal(table, anna, boris), anna


def test_the_replays_steps_are_in_the_readers_language_and_the_text_export_in_english(deal):
    played, anna = deal
    assert isinstance(played, Deal)
    reader = Client(headers={"accept-language": "ru"})
    reader.force_login(anna)
    steps = [step["line"] for step in replay_of(reader.get(f"/history/{played.pk}/"))["steps"]]
    assert steps[0].startswith(f"Раздача 1 за столом {played.table_id} (классическая, анте 10), сдаёт ")
    assert any(line == "Борис показывает A♥ K♥ Q♥: 31 (старшая трынка)" for line in steps), steps
    assert any(line.startswith("Борис забирает ") and line.endswith(": лучшая рука") for line in steps), steps
    text = reader.get(f"/history/{played.pk}.txt").content.decode()
    assert f"Svara hand #{played.pk}: Deal 1 at table {played.table_id} - classic, ante 10" in text
    assert "Борис shows A♥ K♥ Q♥: 31 (top trynki)" in text
    assert not any(word in text for word in ("Раздача", "показывает", "банк")), "the export stays English"
    assert json.dumps(steps, ensure_ascii=False).count("Борис") >= 2
