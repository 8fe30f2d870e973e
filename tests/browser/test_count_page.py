"""Count the hand in Chromium: a typed hand the server refuses keeps its message and the typed text (RULES §2)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.live.server import start_live_server

from .conftest import new_page

pytestmark = pytest.mark.browser


def test_a_typed_card_outside_the_bulgarian_deck_keeps_the_servers_error_on_screen(browser, transactional_db):
    with start_live_server() as server:
        page = new_page(browser, server)
        response = page.goto("/count/?family=bulgarian&cards=6s+7h+8h")
        assert response.status == 400
        # The module has run once the grid is drawn; it must not have wiped the server's message.
        expect(page.locator("#card-grid .grid-card")).to_have_count(32)
        page.wait_for_timeout(300)
        expect(page.locator("#count-error")).to_be_visible()
        expect(page.locator("#count-error")).to_contain_text("6♠ is not in the bulgarian deck")
        expect(page.locator("#count-cards-input")).to_be_visible()
        expect(page.locator("#count-cards-input")).to_have_value("6s 7h 8h")
        assert not page.js_errors
