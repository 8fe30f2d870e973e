"""A whole deal in Russian, in Chromium: one player's browser asks for Russian (Accept-Language), the other picks
it with the header's switcher; the buttons are found by their data-action (the protocol's kind, the same in every
language) and their labels, the prompts, the log and the result read in Russian, with the players' own words for
the hands (docs/translations.md)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.live.server import start_live_server

from .conftest import login_as
from .test_play import act_and_wait, make_player, sit_via_dialog, to_act

pytestmark = pytest.mark.browser


def page_in(browser, server, locale: str | None):
    context = browser.new_context(viewport={"width": 1280, "height": 860}, base_url=server.url, locale=locale)
    page = context.new_page()
    page.js_errors = []
    page.on("pageerror", lambda exc: page.js_errors.append(str(exc)))
    return page


def test_a_whole_deal_played_in_russian(browser, staff, django_user_model, artifacts):
    anna = make_player(django_user_model, "anna@example.com", "Анна", staff)
    boris = make_player(django_user_model, "boris@example.com", "Борис", staff)
    from tables import services

    table = services.create_table(anna, "classic", 10, 2, False)
    with start_live_server(clock_scale=1.0) as server:
        # Anna's browser asks for Russian; Boris's speaks English until he picks Русский in the header.
        anna_page = page_in(browser, server, "ru-RU")
        boris_page = page_in(browser, server, "en-US")
        login_as(anna_page, server, anna)
        login_as(boris_page, server, boris)
        boris_page.goto("/")
        expect(boris_page.locator("html")).to_have_attribute("lang", "en")
        expect(boris_page.locator(".mainnav")).to_contain_text("Lobby")
        boris_page.select_option("#language-select", "ru")
        boris_page.wait_for_load_state()
        expect(boris_page.locator("html")).to_have_attribute("lang", "ru")
        assert boris_page.url.rstrip("/") == server.url.rstrip("/")  # back where he was
        expect(boris_page.locator(".mainnav")).to_contain_text("Лобби")
        boris.refresh_from_db()
        assert boris.language == "ru"  # kept on his profile

        for page in (anna_page, boris_page):
            page.goto(f"/tables/{table.pk}/")
            expect(page.locator("html")).to_have_attribute("lang", "ru")
            expect(page.locator("#conn")).to_have_attribute("data-state", "live")
            expect(page.locator("#conn .conn-text")).to_have_text("На связи")
            expect(page.locator("#my-info")).to_contain_text("Вы наблюдаете")
            sit_button = page.locator(".sit-here").first
            expect(sit_button).to_have_text("Сесть сюда")
            sit_button.click()
            expect(page.locator("#chips-ok")).to_have_text("Сесть")
            # Numbers as Russian writes them, like the server's: 1 000 (a no-break space groups the digits).
            expect(page.locator("#chips-help")).to_contain_text(re.compile(r"Вход: 200–1\s000 фишек"))
            sit_via_dialog(page)
        pages = [anna_page, boris_page]
        for page in pages:
            expect(page.locator("#seat-tools [data-tool=stand]")).to_have_text("Встать")

        # The player after the dealer (the first to act) gets 9 points, the other top trynki (31).
        services.queue_test_deck(table.pk, ["9s 8d 7c", "Ah Kh Qh"])
        for page in pages:
            new_deal = page.locator("[data-action=new_deal]")
            expect(new_deal).to_have_text("Новая раздача")
            new_deal.click()

        first = to_act(pages, "check")
        second = boris_page if first is anna_page else anna_page
        expect(first.locator("#action-buttons [data-action=check]")).to_have_text("Чек")
        expect(first.locator("#action-buttons [data-action=fold]")).to_have_text("Сбросить")
        expect(first.locator("#phase")).to_contain_text("Торговля · ваш ход")
        expect(second.locator(".waiting-note")).to_contain_text("Ждём:")
        # His cards open one at a time, named for screen readers in Russian.
        for n in range(3):
            first.locator(".seat-me .hand-card.can-open").first.click()
            expect(first.locator(".seat-me .hand-card .card-face")).to_have_count(n + 1)
        expect(first.locator(".seat-me .playing-card").first).to_have_attribute("aria-label", "9 пик")

        # A bet of the minimum (one ante), then the call.
        bet = first.locator("#action-buttons [data-action=bet]")
        expect(bet).to_contain_text("Ставка до")
        first.locator("[data-quick=min]").click()
        expect(bet).to_contain_text("Ставка до 10")
        first.fill("#amount-number", "5")  # too little: the error is Russian, nothing is sent
        expect(first.locator("#amount-error")).to_contain_text("не меньше 10")
        first.fill("#amount-number", "10")
        act_and_wait(first, "bet")
        caller = to_act(pages, "call")
        assert caller is second
        expect(caller.locator("#action-buttons [data-action=call]")).to_have_text("Уравнять 10")
        act_and_wait(caller, "call")

        # The showdown: the caller's top trynki opens by itself (D9); the weaker hand is asked to show or fold.
        asked = first
        expect(asked.locator("#prompt [data-action=fold_hand]")).to_be_visible(timeout=10000)
        expect(asked.locator("#prompt .prompt-title")).to_have_text("Показать или сбросить?")
        expect(asked.locator("#prompt [data-action=show]")).to_have_text("Показать")
        asked.locator("#prompt [data-action=fold_hand]").click()
        winner = "Борис" if first is anna_page else "Анна"
        for page in pages:
            expect(page.locator("#result .winner-line")).to_contain_text(f"{winner} выигрывает 39")
            expect(page.locator("#result .winner-line .rake")).to_have_text("(рейк 1)")
            expect(page.locator("#result .shown-hand")).to_have_text("старшая трынка")
            expect(page.locator("#result .result-reason")).to_have_text("лучшая рука: 31 (старшая трынка)")
            expect(page.locator("#log-lines .log-pot_awarded")).to_contain_text(f"{winner} забирает 39")
            expect(page.locator("#log-lines .log-folded_unseen")).to_contain_text("сбрасывает, не показывая")
            expect(page.locator("#log-lines .log-deal_started")).to_contain_text("Раздача 1 — сдаёт")
            expect(page.locator("[data-action=new_deal]")).to_have_text("Новая раздача")
            expect(page.locator("#chat-input")).to_have_attribute("placeholder", "Напишите что-нибудь…")
        second.screenshot(path=str(artifacts / "table-ru-showdown.png"))

        # The replay of that deal, in Russian too; the text export stays English (a file format).
        anna_page.goto(f"/tables/{table.pk}/last-deal/")
        expect(anna_page.locator("#replay-position")).to_have_text(re.compile(r"^шаг 1 из \d+$"))
        expect(anna_page.locator("#log-lines")).to_contain_text("старшая трынка")
        assert not anna_page.js_errors and not boris_page.js_errors
