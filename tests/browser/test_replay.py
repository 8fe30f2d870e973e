"""End-to-end in Chromium: a deal played at a live table, then its replay from the table page's "Last deal" link,
stepped with the keyboard and the buttons: the player sees his own card from the step he opened it, the other's
hand only from the showdown, and never his cards folded unseen (RULES §3 D1, §6)."""

from __future__ import annotations

import json
import time

import pytest
from playwright.sync_api import expect

from tables.models import Deal
from tests.live.server import start_live_server

from .test_play import act_and_wait, make_player, press_new_deal, seat_of, seated_pages, to_act

pytestmark = pytest.mark.browser

STRONG, WEAK = "Ah Kh Qh", "9s 8d 7c"  # dealt first after the dealer, then the other


def faces(page, seat) -> int:
    return page.locator(f"#seats .seat[data-seat='{seat}'] .card-face").count()


def test_a_player_steps_through_his_deal_and_sees_only_what_he_saw_D1(browser, staff, django_user_model):
    with start_live_server(clock_scale=1.0) as server:
        players = [make_player(django_user_model, f"r{n}@example.com", f"Replay{n}", staff) for n in (1, 2)]
        from tables.services import create_table, queue_test_deck

        table = create_table(players[0], "classic", 10, 2)
        pages = seated_pages(browser, server, table, players)
        queue_test_deck(table.pk, [STRONG, WEAK])
        press_new_deal(*pages)
        strong = to_act(pages, "check")  # the first after the dealer holds the strong hand
        weak = pages[1] if strong is pages[0] else pages[0]
        me, other = seat_of(weak), seat_of(strong)
        weak.locator(".seat-me .hand-card.can-open").first.click()  # he looks at one card: 9♠
        expect(weak.locator(".seat-me .card-face")).to_have_count(1)
        act_and_wait(strong, "check")
        act_and_wait(weak, "check")
        # The strong hand opens by itself; the weak one is not shown and its clock folds it unseen (§6).
        deadline = time.monotonic() + 20
        while not Deal.objects.filter(table=table, ended_at__isnull=False).exists():
            assert time.monotonic() < deadline, "the deal did not end"
            weak.wait_for_timeout(200)

        weak.goto(f"/tables/{table.pk}/")
        weak.locator("#last-deal-link").click()
        weak.wait_for_url(f"**/history/{Deal.objects.get(table=table).pk}/")
        data = json.loads(weak.locator("#replay-data").text_content())
        sent = json.dumps(data, ensure_ascii=False)
        assert "9♠" in sent and "8♦" not in sent and "7♣" not in sent  # folded unseen: not in the page at all
        total = len(data["steps"])
        expect(weak.locator("#replay-position")).to_have_text(f"step 1 of {total}")

        kinds = [step["kind"] for step in data["steps"]]
        opened_at = kinds.index("card_opened")
        shown_at = kinds.index("showdown_shown")
        for n in range(total):
            mine, theirs = faces(weak, me), faces(weak, other)
            assert mine == (1 if n >= opened_at else 0), (n, kinds[n], mine)
            assert theirs == (3 if n >= shown_at else 0), (n, kinds[n], theirs)
            if n < total - 1:
                weak.keyboard.press("ArrowRight")
                expect(weak.locator("#replay-position")).to_have_text(f"step {n + 2} of {total}")
        expect(weak.locator(f"#seats .seat[data-seat='{me}'] [aria-label='9 of spades']")).to_have_count(1)
        expect(weak.locator(f"#seats .seat[data-seat='{other}'] [aria-label='ace of hearts']")).to_have_count(1)
        # Back goes back: before his opening, his own card is face down again.
        for _ in range(total - opened_at):
            weak.locator("#replay-back").click()
        expect(weak.locator("#replay-position")).to_have_text(f"step {opened_at} of {total}")
        assert faces(weak, me) == 0 and faces(weak, other) == 0
        # Play runs to the end by itself.
        weak.locator("#replay-play").click()
        expect(weak.locator("#replay-position")).to_have_text(f"step {total} of {total}", timeout=30000)
        expect(weak.locator("#replay-play")).to_have_text("Play")
        assert weak.locator("[aria-label='8 of diamonds'], [aria-label='7 of clubs']").count() == 0
        # The text export, from the replay's link, with the same sight.
        weak.locator("#deal-text").click()
        text = weak.locator("body").inner_text()
        assert "opens card 1: 9♠" in text and "8♦" not in text and "*** SUMMARY ***" in text
        assert not weak.js_errors and not strong.js_errors
