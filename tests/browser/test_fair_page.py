"""Fair deals in Chromium (docs/fair.md, tracker issue 13): the table page shows the coming deal's commitment and
sends the player's own seeds (with New deal, and ahead with "Deal me in"); /fair/ recomputes a real deal's block
with WebCrypto, says it matches, and flags a tampered copy with the first difference."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.live.server import start_live_server

from .test_play import act_and_wait, press_new_deal, seated_pages, to_act
from .test_table_experience import two_players

pytestmark = pytest.mark.browser

SEED = re.compile(r"^[0-9a-f]{32}$")


def check_on_fair_page(page, text: str) -> None:
    page.locator("#fair-text").fill(text)
    page.locator("#fair-verify").click()


def test_the_table_sends_seeds_and_the_fair_page_verifies_the_deal_and_flags_tampering(
    browser, staff, django_user_model, artifacts
):
    from tables.fair_record import fair_lines
    from tables.models import Deal

    with start_live_server(clock_scale=10.0) as server:
        anna_user, boris_user, table = two_players(django_user_model, staff)
        anna, boris = seated_pages(browser, server, table, [anna_user, boris_user])
        # The coming deal's commitment, never its seed, with a link to /fair/.
        expect(anna.locator("#fair-commitment")).to_be_visible()
        commitment = anna.locator("#fair-commitment").get_attribute("data-commitment")
        assert re.fullmatch(r"[0-9a-f]{64}", commitment)
        expect(anna.locator("#fair-commitment a")).to_have_attribute("href", "/fair/")
        anna.locator("#standing-deal-me-in").check()  # her seed rides along: pressed for her at once
        anna.wait_for_function("window.svaraSnapshot().state.standing.deal_me_in === true")
        press_new_deal(boris)
        expect(anna.locator("#phase")).to_contain_text("Betting")
        deal = Deal.objects.get(table=table, number=1)
        assert deal.commitment == commitment
        # Her seed was used up by this deal: the page sends the next one ahead for the deal pressed for her.
        anna.wait_for_function("window.svaraSnapshot().state.standing.seed !== null")
        assert SEED.match(anna.evaluate("window.svaraSnapshot().state.standing.seed"))
        act_and_wait(to_act([anna, boris], "fold"), "fold")
        deal.refresh_from_db()
        assert [seat for seat, _ in deal.seeds] == [0, 1] and all(SEED.match(seed) for _, seed in deal.seeds)
        assert deal.verifiable
        expect(anna.locator("#fair-commitment .fair-deal-no")).to_have_text("2")
        assert anna.locator("#fair-commitment").get_attribute("data-commitment") != commitment
        assert not anna.js_errors and not boris.js_errors

        page = anna
        page.goto("/fair/")
        expect(page.locator("h1")).to_contain_text("Fair deals")
        text = "\n".join(["Hand history of deal 1", *fair_lines(deal), "Pot: 20"])
        check_on_fair_page(page, text)
        result = page.locator("#fair-result")
        expect(result).to_have_attribute("data-outcome", "match")
        expect(result).to_contain_text("is fair")
        expect(result).to_contain_text("all 6 dealt cards match")
        page.screenshot(path=str(artifacts / "fair-page-match.png"))

        dealt = next(line for line in text.splitlines() if line.startswith("Dealt seat "))
        cards = dealt.split(": ")[1].split()
        tampered = text.replace(dealt, dealt.replace(" ".join(cards), " ".join([cards[2], cards[1], cards[0]])))
        check_on_fair_page(page, tampered)
        expect(result).to_have_attribute("data-outcome", "mismatch")
        expect(result).to_contain_text("does NOT match: the deal, seat")
        seed_line = next(line for line in text.splitlines() if line.startswith("Server seed: "))
        check_on_fair_page(page, text.replace(seed_line, "Server seed: " + "ab" * 32))
        expect(result).to_contain_text("does NOT match: the commitment")
        check_on_fair_page(page, "Pot: 20\n")
        expect(result).to_have_attribute("data-outcome", "error")
        page.screenshot(path=str(artifacts / "fair-page-error.png"))

        # ?deal=<id> reads /history/<id>.txt; a deal with no such export is a clear error, not a pass.
        page.goto("/fair/?deal=999999")
        expect(result).to_have_attribute("data-outcome", "error")
        expect(result).to_contain_text("could not be read")
        expect(page.locator("#footer-fair")).to_have_attribute("href", "/fair/")
        assert not page.js_errors
