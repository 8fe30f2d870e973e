"""End-to-end in Chromium: sign-up, the lobby, a table, a deal to the showdown, clocks and a svara (RULES §3–§9)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tables.models import Table
from tests.live.server import start_live_server

from .conftest import credit, login_as, new_page, register

pytestmark = pytest.mark.browser


def seat_of(page) -> int:
    return int(page.locator(".seat.seat-me").get_attribute("data-seat"))


def sit_via_dialog(page, seat_button=None):
    if seat_button is not None:
        seat_button.click()
    dialog = page.locator("#chips-dialog")
    expect(dialog).to_be_visible()
    page.locator("#chips-ok").click()
    expect(page.locator(".seat.seat-me")).to_be_visible()


def press_new_deal(*pages):
    for page in pages:
        page.locator("[data-action=new_deal]").click()


def to_act(pages, kind, timeout=10000):
    """The page whose action bar offers `kind` (the player whose turn it is)."""
    deadline = pages[0].evaluate("Date.now()") + timeout
    while pages[0].evaluate("Date.now()") < deadline:
        for page in pages:
            if page.locator(f"#action-buttons [data-action={kind}]").count():
                return page
        pages[0].wait_for_timeout(50)
    raise AssertionError(f"nobody was offered {kind}")


def act_and_wait(page, kind: str, timeout=15000) -> None:
    """Press an action button, then wait until this page holds the server's next snapshot, so the next look at
    the action bars never reads one that is about to disappear."""
    before = page.evaluate("window.svaraSnapshot().version")
    page.locator(f"#action-buttons [data-action={kind}]").click()
    page.wait_for_function(f"window.svaraSnapshot().version > {before}", timeout=timeout)


def seated_pages(browser, server, table, users) -> list:
    """A logged-in page at the table for each user, each seated (first free seat, the dialog's buy-in)."""
    pages = []
    for user in users:
        page = new_page(browser, server)
        login_as(page, server, user)
        page.goto(f"/tables/{table.pk}/")
        sit_via_dialog(page, page.locator(".sit-here").first)
        pages.append(page)
    return pages


def make_player(django_user_model, email, name, staff, chips=10_000):
    from allauth.account.models import EmailAddress

    user = django_user_model.objects.create_user(email=email, password="x-Pass-4711-long", display_name=name)
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
    credit(user, chips, staff)
    return user


def test_two_players_sign_up_sit_open_bet_call_and_reach_the_showdown_D1_D9(
    browser, staff, django_user_model, artifacts
):
    with start_live_server(clock_scale=1.0) as server:
        anna = new_page(browser, server)
        boris = new_page(browser, server)
        register(anna, server, "anna@example.com", "Anna")
        register(boris, server, "boris@example.com", "Boris")
        for email in ("anna@example.com", "boris@example.com"):  # 5,000 each with their 2,000 welcome chips
            credit(django_user_model.objects.get(email=email), 3_000, staff)

        # Anna creates a classic table through the lobby form and sits down.
        anna.goto("/")
        anna.select_option("#id_family", "classic")
        anna.fill("#id_ante", "10")
        anna.fill("#id_seats", "2")
        anna.locator("#create-form [type=submit]").click()
        anna.wait_for_url(re.compile(r"/tables/\d+/$"))
        table_id = int(anna.url.rstrip("/").split("/")[-1])
        expect(anna.locator("#conn")).to_have_attribute("data-state", "live")
        sit_via_dialog(anna)  # "Create and sit down": the buy-in dialog opens by itself

        # Boris finds it in the lobby and takes the other seat from there.
        boris.goto("/")
        row = boris.locator(f".table-row[data-table-id='{table_id}']")
        expect(row).to_contain_text("1/2 seats")
        row.get_by_role("link", name="Sit").click()
        sit_via_dialog(boris)
        expect(boris.locator("#user-balance")).to_have_text("4,500")
        boris.goto("/")
        artifacts_lobby = artifacts / "lobby.png"
        boris.screenshot(path=str(artifacts_lobby), full_page=True)
        boris.goto(f"/tables/{table_id}/")
        expect(boris.locator("#conn")).to_have_attribute("data-state", "live")

        # A fixed deal: the player after the dealer gets top trynki (31), the other 9 points.
        from tables.services import queue_test_deck

        queue_test_deck(table_id, ["Ah Kh Qh", "9s 8d 7c"])
        press_new_deal(anna, boris)
        pages = [anna, boris]
        first = to_act(pages, "check")
        second = boris if first is anna else anna

        # Cards are face down until their owner opens them, one at a time (D1).
        expect(first.locator(".seat-me .hand-card.can-open")).to_have_count(3)
        expect(second.locator(f".seat[data-seat='{seat_of(first)}'] .card-face")).to_have_count(0)
        for n in range(3):
            first.locator(".seat-me .hand-card.can-open").first.click()
            expect(first.locator(".seat-me .hand-card .card-face")).to_have_count(n + 1)
        expect(first.locator(".seat-me .card-face")).to_have_count(3)
        # The opponent still sees only backs.
        expect(second.locator(f".seat[data-seat='{seat_of(first)}'] .card-face")).to_have_count(0)
        second.keyboard.press("o")  # keyboard: open the next card
        expect(second.locator(".seat-me .card-face")).to_have_count(1)

        # Bet, with the amount held to the engine's bounds, then call.
        first = to_act(pages, "bet")
        number = first.locator("#amount-number")
        expect(first.locator("#amount-box")).to_be_visible()
        low, high = int(number.get_attribute("min")), int(number.get_attribute("max"))
        # A bet's top is the pot (D2), not all-in: no "All-in" to press; "Pot" takes the amount to the top.
        expect(first.locator("[data-quick=max]")).to_be_hidden()
        first.locator("[data-quick=pot]").click()
        assert int(number.input_value()) == high
        first.locator("[data-quick=min]").click()
        assert int(number.input_value()) == low
        first.locator("#action-buttons [data-action=bet]").click()
        caller = to_act(pages, "call")
        caller.screenshot(path=str(artifacts / "table-deal.png"))
        # 1280×860: the seat tools under the action bar stay on screen; the chat hint is not cut.
        tools = caller.locator("#seat-tools").bounding_box()
        assert tools["height"] > 0 and tools["y"] + tools["height"] <= 860
        hint = caller.locator("#chat-input")
        assert hint.evaluate(
            """el => {
                const s = getComputedStyle(el), c = document.createElement("canvas").getContext("2d");
                c.font = `${s.fontSize} ${s.fontFamily}`;
                const room = el.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
                return el.placeholder.length > 0 && c.measureText(el.placeholder).width <= room;
            }"""
        )
        # A phone on its turn: the whole action bar (buttons, Min…All-in, the slider) fits in the window.
        caller.set_viewport_size({"width": 375, "height": 740})
        caller.wait_for_timeout(200)
        for part in ("#action-buttons [data-action=call]", "[data-quick=min]", "[data-quick=max]", "#amount-range"):
            box = caller.locator(part).bounding_box()
            assert box and 0 <= box["y"] and box["y"] + box["height"] <= 740, part
            assert 0 <= box["x"] and box["x"] + box["width"] <= 375, part
        caller.screenshot(path=str(artifacts / "table-375-turn.png"))
        caller.set_viewport_size({"width": 1280, "height": 860})
        to_act(pages, "call").locator("#action-buttons [data-action=call]").click()

        # Showdown: hands shown with points and names, the winner and the pot.
        for page in pages:
            expect(page.locator("#result .winner-line")).to_contain_text(f"{'Anna' if first is anna else 'Boris'} wins")
            expect(page.locator("#result")).to_contain_text("top trynki")
            expect(page.locator("#result")).to_contain_text("31")
        first.wait_for_timeout(1500)  # the reveal animation
        first.screenshot(path=str(artifacts / "table-showdown.png"))
        phone = new_page(browser, server, width=375, height=740)
        login_as(phone, server, django_user_model.objects.get(email="boris@example.com"))
        phone.goto(f"/tables/{table_id}/")
        expect(phone.locator("#result .winner-line")).to_be_visible()
        phone.wait_for_timeout(1500)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 375
        phone.screenshot(path=str(artifacts / "table-375.png"), full_page=True)
        # After a reload the deal log is the server's log of the deal, to its result and the result's reason.
        expect(phone.locator("#log-lines .log-deal_started")).to_have_count(1)
        expect(phone.locator("#log-lines .log-pot_awarded")).to_contain_text("takes")
        expect(phone.locator("#log-lines .log-pot_awarded")).to_contain_text("the best hand: 31 (top trynki)")
        # The shown cards are big enough to read.
        assert phone.locator("#result .shown-cards .playing-card").first.bounding_box()["width"] >= 28
        assert not anna.js_errors and not boris.js_errors and not phone.js_errors
        assert Table.objects.get(pk=table_id).is_open


def test_a_move_clock_running_out_folds_the_player_who_owes_chips_section_9(
    browser, staff, django_user_model, artifacts
):
    with start_live_server(clock_scale=0.3) as server:
        players = [make_player(django_user_model, f"p{n}@example.com", f"Player{n}", staff) for n in (1, 2)]
        from tables.services import create_table, queue_test_deck

        table = create_table(players[0], "classic", 10, 2)
        pages = seated_pages(browser, server, table, players)
        queue_test_deck(table.pk, ["Ah Kh Qh", "9s 8d 7c"])
        press_new_deal(*pages)
        first = to_act(pages, "check")
        first.locator(".seat-me .hand-card.can-open").first.click()
        first = to_act(pages, "bet")
        first.locator("#action-buttons [data-action=bet]").click()
        second = pages[1] if first is pages[0] else pages[0]
        # The second player owes the bet and does nothing: his clock runs (visibly) and folds him.
        expect(second.locator(".seat-me.seat-clock .seat-clock-bar")).to_be_visible()
        expect(second.locator("#clock-label")).to_contain_text("to act")
        winner = first.locator(".seat-me .seat-name").inner_text()
        loser = second.locator(".seat-me .seat-name").inner_text()
        expect(second.locator("#log-lines")).to_contain_text(f"Time is up for {loser}", timeout=15000)
        expect(second.locator("#log-lines")).to_contain_text(f"{loser} folds")
        expect(first.locator("#result .winner-line")).to_contain_text(f"{winner} wins")


def test_a_tie_offers_split_or_play_on_and_a_svara_offers_the_buy_in_section_7(
    browser, staff, django_user_model, artifacts
):
    with start_live_server(clock_scale=1.0) as server:
        players = [make_player(django_user_model, f"s{n}@example.com", f"Svara{n}", staff) for n in (1, 2, 3)]
        from tables.services import create_table, queue_test_deck

        table = create_table(players[0], "classic", 10, 3)
        pages = seated_pages(browser, server, table, players)
        # Three hands in dealing order: two tie on 31, the third folds and is offered the svara buy-in.
        queue_test_deck(table.pk, ["Ah Kh Qh", "As Ks Qs", "9d 8c 7c"])
        press_new_deal(*pages)
        # Everyone opens; the first two check, the third folds.
        for page in pages:
            page.locator(".seat-me .hand-card.can-open").first.click()
        folded = False
        for _ in range(6):
            page = to_act(pages, "fold")
            seat = seat_of(page)
            snapshot = page.evaluate("window.svaraSnapshot && window.svaraSnapshot()")
            hand = snapshot["state"]["seats"][seat]["cards"] if snapshot else None
            if not folded and hand and "9♦" in hand:
                act_and_wait(page, "fold")
                folded = True
            elif page.locator("#action-buttons [data-action=check]").count():
                act_and_wait(page, "check")
            else:
                act_and_wait(page, "call")
            if any(p.locator("#prompt[data-kind=split]").is_visible() for p in pages):
                break
        for _ in range(50):  # each tied player's page shows the prompt when its own snapshot arrives
            tied = [p for p in pages if p.locator("#prompt[data-kind=split]").is_visible()]
            if len(tied) == 2:
                break
            pages[0].wait_for_timeout(100)
        assert len(tied) == 2
        for page in tied:
            expect(page.locator("#prompt")).to_contain_text("Split or play on".split()[0])
            expect(page.locator("#prompt-clock")).to_have_text(re.compile(r"\d+(\.\d)? s"))
        tied[0].screenshot(path=str(artifacts / "table-split-dialog.png"))
        tied[0].locator("#prompt [data-action=play_on]").click()
        third = next(p for p in pages if p not in tied)
        expect(third.locator("#prompt[data-kind=buy_in]")).to_be_visible(timeout=15000)
        expect(third.locator("#prompt")).to_contain_text("Buy into the svara for 15 chips")
        third.screenshot(path=str(artifacts / "table-svara-buy-in.png"))
        third.locator("#prompt [data-action=decline]").click()
        for page in tied:
            expect(page.locator("#phase")).to_contain_text("Svara", timeout=15000)


def test_the_lobby_updates_live_when_a_seat_is_taken(browser, staff, django_user_model, artifacts):
    with start_live_server() as server:
        watcher_user = make_player(django_user_model, "w@example.com", "Watcher", staff)
        sitter_user = make_player(django_user_model, "t@example.com", "Taker", staff)
        from tables.services import create_table

        table = create_table(watcher_user, "bulgarian", 5, 8)
        watcher = new_page(browser, server)
        login_as(watcher, server, watcher_user)
        watcher.goto("/")
        expect(watcher.locator("#live-dot")).to_have_class(re.compile(r"\bon\b"))
        row = watcher.locator(f".table-row[data-table-id='{table.pk}']")
        expect(row).to_contain_text("0/8 seats")
        sitter = new_page(browser, server)
        login_as(sitter, server, sitter_user)
        sitter.goto(f"/tables/{table.pk}/")
        sit_via_dialog(sitter, sitter.locator(".sit-here").first)
        expect(row).to_contain_text("1/8 seats")
        expect(row).to_contain_text("Taker")
        # Filters: a family that does not match hides the table.
        watcher.select_option("#filter-family", "classic")
        expect(row).to_have_count(0)
        watcher.select_option("#filter-family", "bulgarian")
        expect(row).to_have_count(1)
        watcher.screenshot(path=str(artifacts / "lobby-live.png"), full_page=True)


def test_the_dealer_button_and_a_looked_players_double_reads_bet_unblind_section_4(
    browser, staff, django_user_model, artifacts
):
    """RULES §4: the first player bets blind; the next, having looked, doubles openly ("Bet 20 (unblind)"), not
    blind; the dealer button sits at the deal's dealer."""
    from tables.services import create_table, queue_test_deck

    with start_live_server() as server:
        anna_user = make_player(django_user_model, "anna@example.com", "Anna", staff)
        boris_user = make_player(django_user_model, "boris@example.com", "Boris", staff)
        table = create_table(anna_user, "classic", 10, 2)
        pages = seated_pages(browser, server, table, [anna_user, boris_user])
        queue_test_deck(table.pk, ["Ah Kh Qh", "9s 8d 7c"])
        press_new_deal(*pages)
        first = to_act(pages, "blind")
        second = pages[1] if first is pages[0] else pages[0]
        dealer = first.evaluate("window.svaraSnapshot().state.dealer")
        assert dealer == seat_of(second)  # two seats: the one after the dealer acts first
        for page in pages:
            expect(page.locator(".dealer-button")).to_have_count(1)
            expect(page.locator(f".seat[data-seat='{dealer}'] .dealer-button")).to_be_visible()

        expect(first.locator("#action-buttons [data-action=blind]")).to_have_text("Blind 10")
        act_and_wait(first, "blind")
        double = second.locator("#action-buttons [data-action=blind]")
        expect(double).to_have_text("Blind 20")  # not looked yet: he may double blind
        second.locator(".seat-me .hand-card.can-open").first.click()
        expect(second.locator(".seat-me .card-face")).to_have_count(1)
        expect(double).to_have_text("Bet 20 (unblind)")
        second.screenshot(path=str(artifacts / "table-unblind.png"))
        act_and_wait(second, "blind")
        # The blind round is over: normal betting, in which the blind player's cards open for him (D5).
        assert second.evaluate("window.svaraSnapshot().state.phase") == "betting"
        expect(first.locator(".seat-me .card-face")).to_have_count(3)
        assert not first.js_errors and not second.js_errors


def test_a_bot_at_the_table_wears_its_badge(browser, staff, django_user_model, artifacts):
    from bots.services import fund_bots, seat_bot
    from tables.services import create_table

    with start_live_server() as server:
        anna_user = make_player(django_user_model, "anna@example.com", "Anna", staff)
        table = create_table(anna_user, "bulgarian", 10, 4, True)
        fund_bots(100_000, key="browser-test:pool")
        bot = seat_bot(table, "easy", by_user=anna_user)
        page = new_page(browser, server)
        login_as(page, server, anna_user)
        page.goto(f"/tables/{table.pk}/")
        name = bot.display_name.replace(" (bot)", "")
        plate = page.locator(".seat .seat-name", has_text=name)
        expect(plate).to_be_visible()
        expect(plate.locator(".bot-badge")).to_have_text("bot")
        expect(page.locator(".seat .seat-name", has_text="(bot)")).to_have_count(0)  # the badge, not the suffix
        expect(page.locator(".bot-badge")).to_have_count(1)
        assert not page.js_errors
