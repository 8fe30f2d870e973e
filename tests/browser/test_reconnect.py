"""A dropped connection in Chromium: the table page says so, reconnects with backoff, and catches up from the
server's snapshot with what happened while it was away (docs/protocol.md: "Opening the socket again always gives a
full snapshot")."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.live.server import start_live_server

from .conftest import login_as, new_page
from .test_play import make_player, sit_via_dialog

pytestmark = pytest.mark.browser


def test_a_lost_connection_shows_the_banner_then_reconnects_and_catches_up(
    browser, staff, django_user_model, artifacts
):
    from tables import services

    with start_live_server() as server:
        anna = make_player(django_user_model, "anna@example.com", "Anna", staff)
        boris = make_player(django_user_model, "boris@example.com", "Boris", staff)
        table = services.create_table(anna, "classic", 10, 6, False)
        page = new_page(browser, server)
        login_as(page, server, anna)
        page.goto(f"/tables/{table.pk}/")
        expect(page.locator("#conn")).to_have_attribute("data-state", "live")
        sit_via_dialog(page, page.locator(".sit-here").first)
        banner = page.locator("#lost-banner")
        expect(banner).to_be_hidden()

        server.stop()  # every socket to it drops
        expect(banner).to_be_visible()
        expect(banner).to_contain_text("reconnecting")
        expect(page.locator("#conn")).to_have_attribute("data-state", "lost")
        page.screenshot(path=str(artifacts / "table-connection-lost.png"))
        # While the page is away, Boris sits down (straight through the door: nobody can tell the page).
        services.sit(table.pk, boris, 400)
        version = page.evaluate("window.svaraSnapshot().version")

        server.start()  # back on the same address: the page's next try gets in
        expect(page.locator("#conn")).to_have_attribute("data-state", "live", timeout=30_000)
        expect(banner).to_be_hidden()
        expect(page.locator(".seat .seat-name", has_text="Boris")).to_be_visible()
        assert page.evaluate("window.svaraSnapshot().version") > version
        assert page.js_errors == []
