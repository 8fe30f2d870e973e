"""Statistics end to end in Chromium (issue 13): a deal played at a live server is tallied by its own beat within
seconds, and shows on the player's profile and on the leaderboard."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.live.server import start_live_server

from .conftest import login_as, new_page
from .test_play import make_player

pytestmark = pytest.mark.browser


def test_a_deal_played_shows_on_the_profile_and_the_leaderboard(browser, staff, django_user_model, artifacts):
    from tables import services

    with start_live_server(extra_env={"SVARA_LEADERBOARD_MIN_DEALS": "1"}) as server:
        anna = make_player(django_user_model, "anna@example.com", "Anna", staff)
        boris = make_player(django_user_model, "boris@example.com", "Boris", staff)
        table = services.create_table(anna, "classic", 10, 6, False)
        services.sit(table.pk, anna, 400, seat=0)
        services.sit(table.pk, boris, 400, seat=1)
        for user in (anna, boris):
            services.act(table.pk, user, {"kind": "new_deal"})
        services.act(table.pk, boris, {"kind": "fold"})  # Boris, first after the dealer, folds: Anna takes the antes

        page = new_page(browser, server)
        login_as(page, server, anna)
        page.goto("/profile/")
        classic = page.locator('.family-stats[data-family="classic"]')
        for _ in range(40):  # the server's beat tallies every few seconds
            if classic.count():
                break
            page.wait_for_timeout(500)
            page.reload()
        expect(classic).to_contain_text("Deals played")
        expect(classic.locator("dd").first).to_have_text("1")
        expect(classic.locator("dd.net")).to_have_text("+10")
        page.screenshot(path=str(artifacts / "profile-statistics.png"), full_page=True)

        page.get_by_role("link", name="Leaderboard").first.click()
        expect(page.locator("h1")).to_have_text("Leaderboard")
        page.get_by_role("link", name="all time").click()
        row = page.locator("table.leaderboard tbody tr").first
        expect(row).to_contain_text("Anna")
        expect(row).to_contain_text("+10")
        expect(page.locator("table.leaderboard tbody tr").nth(1)).to_contain_text("Boris")  # and his -10 below
        assert page.js_errors == []
