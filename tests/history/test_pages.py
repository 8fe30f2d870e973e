"""The hand history pages (docs/history.md): /history/ lists a player's own finished deals, /history/<id>/ replays
one and /history/<id>.txt prints it; only staff and the deal's players may open a deal, anyone else gets a 404
that says nothing about it; a deal still running is shown to nobody."""

import json
import re

import pytest
from django.test import Client

from tables import services
from tables.history_views import HISTORY_PAGE_SIZE
from tables.models import Deal
from tests.tables.conftest import make_user, state_of

pytestmark = pytest.mark.django_db(transaction=True)

BORIS_WINS = ["Ah Kh Qh", "9s 8d 7c"]  # dealt Boris (seat 1) then Ann (seat 0): Boris's 31 beats Ann's 9


def client_of(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def play_deal(table, ann, boris, cards=BORIS_WINS):
    """Ann (seat 0) and Boris (seat 1) play one deal to its end: each opens his first card (A♥ and 9♠) and
    checks; at the showdown Boris's hand opens by itself, Ann folds hers unseen (§6). Returns the Deal."""
    if state_of(table.pk).seats[0].player is None:
        services.sit(table.pk, ann, 400, seat=0)
        services.sit(table.pk, boris, 400, seat=1)
    services.queue_test_deck(table.pk, cards)
    for user in (ann, boris):
        services.act(table.pk, user, {"kind": "new_deal"})
    services.act(table.pk, boris, {"kind": "open", "card": 0})
    services.act(table.pk, ann, {"kind": "open", "card": 0})
    for _ in range(2):
        services.act(table.pk, (ann, boris)[state_of(table.pk).clock.seats[0]], {"kind": "check"})
    while state_of(table.pk).phase != "waiting":  # the weaker hand chooses: folded unseen
        services.act(table.pk, (ann, boris)[state_of(table.pk).clock.seats[0]], {"kind": "fold_hand"})
    return Deal.objects.filter(table=table).order_by("-id").first()


def replay_of(response) -> dict:
    match = re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', response.content.decode(),
                      re.S)  # fmt: skip
    return json.loads(match.group(1))


def page_text(response) -> str:
    """The page as sent, and its replay data decoded (json_script escapes every non-ASCII character)."""
    html = response.content.decode()
    return html + json.dumps(replay_of(response), ensure_ascii=False)


def test_a_player_replays_his_deal_and_sees_his_opened_cards_only_D1(classic_table, players):
    ann, boris, vera = players
    deal = play_deal(classic_table, ann, boris)
    page = client_of(ann).get(f"/history/{deal.pk}/")
    assert page.status_code == 200
    html = page_text(page)
    for card in ("9♠", "A♥", "K♥", "Q♥"):  # her opened card, and Boris's hand shown at the showdown
        assert card in html
    for card in ("8♦", "7♣"):  # her own cards never opened: folded unseen, seen by nobody
        assert card not in html
    steps = replay_of(page)["steps"]
    assert steps[0]["kind"] == "deal_started" and steps[-1]["kind"] == "deal_ended"
    # Before the showdown Ann's page holds none of Boris's cards, his opened A♥ included.
    showdown = next(n for n, step in enumerate(steps) if step["kind"] == "showdown_shown")
    assert "A♥" not in json.dumps(steps[:showdown], ensure_ascii=False)
    boris_page = page_text(client_of(boris).get(f"/history/{deal.pk}/"))
    assert not any(card in boris_page for card in ("9♠", "8♦", "7♣"))  # Ann's opened card is hers alone


def test_anyone_not_in_the_deal_gets_the_same_404_as_for_no_deal(classic_table, players):
    ann, boris, vera = players
    deal = play_deal(classic_table, ann, boris)
    missing = client_of(vera).get("/history/999999/")
    assert missing.status_code == 404
    for client in (client_of(), client_of(vera)):
        for path in (f"/history/{deal.pk}/", f"/history/{deal.pk}.txt"):
            refused = client.get(path)
            assert refused.status_code == 404, path
            assert "♥" not in refused.content.decode() and "Hand #" not in refused.content.decode()


def test_staff_see_every_card_the_history_holds(classic_table, players, staff):
    ann, boris, _ = players
    deal = play_deal(classic_table, ann, boris)
    html = page_text(client_of(staff).get(f"/history/{deal.pk}/"))
    assert "A♥" in html and "9♠" in html  # every opened card
    assert "8♦" not in html and "7♣" not in html  # folded unseen: not stored, seen by nobody (§6)


def test_a_running_deal_is_shown_to_nobody(classic_table, players, staff):
    ann, boris, _ = players
    services.sit(classic_table.pk, ann, 400, seat=0)
    services.sit(classic_table.pk, boris, 400, seat=1)
    for user in (ann, boris):
        services.act(classic_table.pk, user, {"kind": "new_deal"})
    deal = Deal.objects.get(table=classic_table)
    for user in (ann, staff):
        assert client_of(user).get(f"/history/{deal.pk}/").status_code == 404


def test_the_text_export_has_one_line_per_step(classic_table, players):
    ann, boris, _ = players
    deal = play_deal(classic_table, ann, boris)
    response = client_of(ann).get(f"/history/{deal.pk}.txt")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
    text = response.content.decode()
    lines = text.splitlines()
    assert lines[0].startswith(f"Svara hand #{deal.pk}: Deal 1 at table {classic_table.pk} - classic, ante 10")
    assert "seat 1: Ann (400 in chips)" in lines[1] and "seat 2: Boris (400 in chips)" in lines[1]
    assert any("Ann opens card 1: 9♠" in line for line in lines)
    assert any("Boris opens a card (1 of 3 open)" in line for line in lines)
    assert any("Boris shows A♥ K♥ Q♥: 31" in line for line in lines)
    assert any("Ann folds unseen" in line for line in lines)
    assert "*** SUMMARY ***" in lines and "Pot 20 | Rake 0" in lines
    assert "Seat 2: Boris put in 10, took 20 (net +10): won" in lines
    assert "8♦" not in text and "7♣" not in text
    assert "9♠" not in client_of(boris).get(f"/history/{deal.pk}.txt").content.decode()  # Ann's card is hers


def test_the_history_lists_his_own_deals_newest_first_filtered_and_paginated(classic_table, bulgarian_table, players):
    ann, boris, vera = players
    first = play_deal(classic_table, ann, boris)
    second = play_deal(classic_table, ann, boris)
    other = services.create_table(vera, "bulgarian", 5, 2, False)
    services.sit(other.pk, vera, 100, seat=0)
    services.sit(other.pk, boris, 100, seat=1)
    for user in (vera, boris):
        services.act(other.pk, user, {"kind": "new_deal"})
    services.act(other.pk, [vera, boris][state_of(other.pk).turn], {"kind": "fold"})
    page = client_of(ann).get("/history/")
    assert page.status_code == 200
    rows = [int(d) for d in re.findall(r'<tr data-deal="(\d+)"', page.content.decode())]
    assert rows == [second.pk, first.pk]  # his own only, newest first
    boris_rows = re.findall(r'<tr data-deal="(\d+)"', client_of(boris).get("/history/?family=bulgarian").content.decode())
    assert len(boris_rows) == 1
    by_table = client_of(boris).get(f"/history/?table={classic_table.pk}").content.decode()
    assert len(re.findall(r'<tr data-deal=', by_table)) == 2
    assert f'href="/history/{second.pk}/"' in page.content.decode()
    assert f'href="/history/{second.pk}.txt"' in page.content.decode()
    assert HISTORY_PAGE_SIZE > 2 and "page 1 of" not in page.content.decode()


def test_bad_filters_and_pages_get_a_clear_error(players):
    ann = players[0]
    client = client_of(ann)
    for query, words in (("family=poker", "The family must be one of"), ("table=abc", "A table is a table number"),
                         ("page=0", "There is no page"), ("page=x", "There is no page"), ("page=5", "There is no page")):
        response = client.get(f"/history/?{query}")
        assert response.status_code == 400, query
        assert words in response.content.decode(), query


def test_the_history_asks_an_anonymous_visitor_to_log_in(db):
    response = client_of().get("/history/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_pages_of_25_link_to_each_other(classic_table, players):
    ann, boris, _ = players
    for _ in range(HISTORY_PAGE_SIZE + 1):
        services.sit(classic_table.pk, ann, 400, seat=0) if state_of(classic_table.pk).seats[0].player is None else None
        if state_of(classic_table.pk).seats[1].player is None:
            services.sit(classic_table.pk, boris, 400, seat=1)
        for user in (ann, boris):
            services.act(classic_table.pk, user, {"kind": "new_deal"})
        state = state_of(classic_table.pk)
        services.act(classic_table.pk, (ann, boris)[state.turn], {"kind": "fold"})
    first = client_of(ann).get("/history/").content.decode()
    assert len(re.findall(r"<tr data-deal=", first)) == HISTORY_PAGE_SIZE and 'rel="next"' in first
    second = client_of(ann).get("/history/?page=2").content.decode()
    assert len(re.findall(r"<tr data-deal=", second)) == 1 and 'rel="prev"' in second


def test_a_new_user_has_an_empty_history(db):
    user = make_user("nobody@example.com", display_name="Nobody")
    page = client_of(user).get("/history/")
    assert page.status_code == 200 and "No finished deals" in page.content.decode()


def test_the_profile_and_the_table_page_link_to_the_history(classic_table, players):
    ann, boris, vera = players
    profile = client_of(ann).get("/profile/").content.decode()
    assert 'href="/history/"' in profile
    table_page = client_of(ann).get(f"/tables/{classic_table.pk}/").content.decode()
    assert f'href="/tables/{classic_table.pk}/last-deal/"' in table_page
    assert client_of(ann).get(f"/tables/{classic_table.pk}/last-deal/").status_code == 404  # none played yet
    play_deal(classic_table, ann, boris)
    deal = play_deal(classic_table, ann, boris)
    last = client_of(ann).get(f"/tables/{classic_table.pk}/last-deal/")
    assert last.status_code == 302 and last["Location"] == f"/history/{deal.pk}/"
    assert client_of(vera).get(f"/tables/{classic_table.pk}/last-deal/").status_code == 404  # not hers
    assert client_of().get(f"/tables/{classic_table.pk}/last-deal/").status_code == 404


def test_a_svara_replay_links_to_the_deal_before_and_back(classic_table, players):
    ann, boris, _ = players
    services.sit(classic_table.pk, ann, 400, seat=0)
    services.sit(classic_table.pk, boris, 400, seat=1)
    services.queue_test_deck(classic_table.pk, ["Ah Kh 7d", "As Ks 8d"])  # 21 each: a tie on top (§7)
    for user in (ann, boris):
        services.act(classic_table.pk, user, {"kind": "new_deal"})
    for _ in range(2):
        services.act(classic_table.pk, (ann, boris)[state_of(classic_table.pk).clock.seats[0]], {"kind": "check"})
    while state_of(classic_table.pk).phase == "split_choice":
        services.act(classic_table.pk, (ann, boris)[state_of(classic_table.pk).clock.seats[0]], {"kind": "play_on"})
    first, svara = Deal.objects.filter(table=classic_table).order_by("svara")
    before = client_of(ann).get(f"/history/{first.pk}/").content.decode()
    assert f'id="chain-next" href="/history/{svara.pk}/"' in before
    assert client_of(ann).get(f"/history/{svara.pk}/").status_code == 404  # the svara still runs
    services.act(classic_table.pk, (ann, boris)[state_of(classic_table.pk).turn], {"kind": "fold"})
    after = client_of(ann).get(f"/history/{svara.pk}/")
    assert after.status_code == 200
    assert f'id="chain-previous" href="/history/{first.pk}/"' in after.content.decode()
    steps = replay_of(after)["steps"]
    assert steps[0]["frame"]["pot"] == 20  # the pot carried over from the tie
    text = client_of(ann).get(f"/history/{svara.pk}.txt").content.decode()
    assert f"Comes from hand #{first.pk}" in text and "Svara 1 of deal 1" in text
