"""Issue 12 on the table page, in Chromium: standing choices, prompts that announce themselves, amounts you cannot
get wrong, a table that tells the story, chat and log that survive a reload, bots at your own table, a closed
table, and the phone layout (screenshots under test-artifacts/)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.live.server import start_live_server

from .conftest import login_as, new_page
from .test_play import act_and_wait, make_player, press_new_deal, seated_pages, to_act

pytestmark = pytest.mark.browser

LOSING_FOR_ANNA = ["Ah Kh Qh", "9s 8d 7c"]  # dealt Boris (seat 1, after the dealer) then Anna (seat 0)


def version(page) -> int:
    return page.evaluate("window.svaraSnapshot().version")


def two_players(django_user_model, staff, family="classic", bots=False):
    from tables.services import create_table

    anna = make_player(django_user_model, "anna@example.com", "Anna", staff)
    boris = make_player(django_user_model, "boris@example.com", "Boris", staff)
    return anna, boris, create_table(anna, family, 10, 2, bots)


def test_deal_me_in_holds_across_a_reload_and_presses_new_deal_for_you_S10(browser, staff, django_user_model, artifacts):
    with start_live_server(clock_scale=10.0) as server:
        anna_user, boris_user, table = two_players(django_user_model, staff)
        anna, boris = seated_pages(browser, server, table, [anna_user, boris_user])
        expect(anna.locator("#standing")).to_be_visible()
        anna.locator("#standing-deal-me-in").check()
        anna.wait_for_function("window.svaraSnapshot().state.standing.deal_me_in === true")
        expect(anna.locator("[data-action=new_deal]")).to_have_count(0)  # pressed for her at once
        anna.select_option("#standing-if-losing", "fold")
        anna.wait_for_function("window.svaraSnapshot().state.standing.if_losing === 'fold'")
        anna.reload()
        expect(anna.locator("#standing-deal-me-in")).to_be_checked()  # the server keeps it, not the page
        expect(anna.locator("#standing-if-losing")).to_have_value("fold")
        assert boris.evaluate("window.svaraSnapshot().state.standing.deal_me_in") is False  # his own only
        press_new_deal(boris)
        act_and_wait(to_act([anna, boris], "fold"), "fold")
        # The deal is over: Anna is dealt in again at once; only Boris is asked for New deal.
        expect(boris.locator("[data-action=new_deal]")).to_be_visible()
        expect(anna.locator("[data-action=new_deal]")).to_have_count(0)
        expect(anna.locator(".seat-me .seat-status")).to_have_text("ready")
        anna.screenshot(path=str(artifacts / "table-standing-choices.png"))
        press_new_deal(boris)
        expect(anna.locator("#phase")).to_contain_text("Betting")
        assert not anna.js_errors and not boris.js_errors


def test_your_prompt_announces_itself_with_a_countdown_a_tone_and_the_tab_title_S6_S9(
    browser, staff, django_user_model, artifacts
):
    from tables.services import queue_test_deck

    with start_live_server(clock_scale=10.0) as server:
        anna_user, boris_user, table = two_players(django_user_model, staff)
        anna, boris = seated_pages(browser, server, table, [anna_user, boris_user])
        queue_test_deck(table.pk, LOSING_FOR_ANNA)
        press_new_deal(anna, boris)
        expect(anna.locator("#sound-toggle")).to_have_text("Sound on")
        act_and_wait(to_act([anna, boris], "check"), "check")
        assert anna.title().startswith("● Your turn")
        anna.locator("[data-action=check]").click()  # Anna's hand is weaker: she is asked Show or Fold
        prompt = anna.locator("#prompt[data-kind=show]")
        expect(prompt).to_be_visible()
        expect(anna.locator("#prompt-clock")).to_have_text(re.compile(r"\d+(\.\d)? s"))
        expect(anna.locator("#prompt-clock-fill")).to_be_attached()
        assert anna.title().startswith("● Show or fold?")
        assert anna.evaluate("window.svaraAnnounced") >= 2  # her move, then her prompt
        assert anna.evaluate("window.svaraTones || 0") >= 1  # a tone (Web Audio, after her first click)
        # The prompt does not cover the pot, and her own bar never says "Waiting for Anna".
        pot, box = anna.locator("#pot").bounding_box(), prompt.bounding_box()
        assert pot["y"] + pot["height"] <= box["y"] or box["y"] + box["height"] <= pot["y"] or \
            pot["x"] + pot["width"] <= box["x"] or box["x"] + box["width"] <= pot["x"]
        expect(anna.locator("#action-bar")).not_to_contain_text("Waiting for Anna")
        expect(boris.locator("#action-bar")).to_contain_text("Waiting for Anna")
        anna.screenshot(path=str(artifacts / "table-show-prompt.png"))
        # The mute switch is kept in this browser.
        anna.locator("#sound-toggle").click()
        expect(anna.locator("#sound-toggle")).to_have_text("Sound off")
        anna.locator("#prompt [data-action=fold_hand]").click()
        expect(anna.locator("#result .result-reason")).to_contain_text("the best hand: 31 (top trynki)")
        assert anna.title().startswith("● New deal?")  # the next thing asked of her: the prompt's title is gone
        anna.reload()
        expect(anna.locator("#sound-toggle")).to_have_text("Sound off")
        assert not anna.js_errors and not boris.js_errors


def test_an_amount_out_of_range_says_why_and_sends_nothing_and_a_typed_all_in_is_confirmed_D2_D3(
    browser, staff, django_user_model, artifacts
):
    with start_live_server(clock_scale=10.0) as server:
        anna_user, boris_user, table = two_players(django_user_model, staff)
        pages = seated_pages(browser, server, table, [anna_user, boris_user])
        press_new_deal(*pages)
        first = to_act(pages, "bet")
        second = pages[1] if first is pages[0] else pages[0]
        number = first.locator("#amount-number")
        bet = first.locator("#action-buttons [data-action=bet]")
        before = version(first)
        # The pot limit (D2): the bet's top is the pot, not the stack, so there is no "All-in" to press.
        expect(first.locator("[data-quick=max]")).to_be_hidden()
        for typed, why in (("99999999", "at most 20"), ("-100", "whole number"), ("5", "at least 10")):
            number.fill(typed)
            expect(first.locator("#amount-error")).to_contain_text(why)
            bet.click()
            number.press("Enter")
        first.screenshot(path=str(artifacts / "table-amount-out-of-range.png"))
        first.wait_for_timeout(500)
        assert version(first) == before  # nothing was sent
        number.fill("20")
        expect(first.locator("#amount-error")).to_be_hidden()
        number.press("Enter")  # Enter acts
        first.wait_for_function(f"window.svaraSnapshot().version > {before}")
        assert first.evaluate("window.svaraSnapshot().state.bet_level") == 20
        # A raise's top is all-in: typed, it says so and asks to be pressed once more.
        stack = second.evaluate("(() => { const s = window.svaraSnapshot(); return s.state.seats[s.seat].stack; })()")
        raise_ = second.locator("#action-buttons [data-action=raise]")
        expect(second.locator("[data-quick=max]")).to_be_visible()
        second.locator("#amount-number").fill(str(stack))
        expect(raise_).to_have_text(f"All-in {stack:,}")
        before = version(second)
        raise_.click()
        expect(raise_).to_have_text(f"Confirm all-in {stack:,}")
        second.wait_for_timeout(300)
        assert version(second) == before
        second.screenshot(path=str(artifacts / "table-confirm-all-in.png"))
        raise_.click()
        second.wait_for_function(f"window.svaraSnapshot().version > {before}")
        assert second.evaluate("(() => { const s = window.svaraSnapshot(); return s.state.seats[s.seat].status; })()") == "all_in"
        assert not first.js_errors and not second.js_errors


def test_the_dark_bet_has_its_own_amount_within_D7(browser, staff, django_user_model, artifacts):
    with start_live_server(clock_scale=10.0) as server:
        anna_user, boris_user, table = two_players(django_user_model, staff, family="bulgarian")
        pages = seated_pages(browser, server, table, [anna_user, boris_user])
        press_new_deal(*pages)
        first = to_act(pages, "dark")
        dark = first.locator("#dark-amount")
        expect(dark).to_be_visible()
        assert (dark.get_attribute("min"), dark.get_attribute("max")) == ("10", "20")  # one ante to the pot (D7)
        dark.fill("25")
        expect(first.locator("#amount-error")).to_contain_text("at most 20")
        dark.fill("15")
        first.screenshot(path=str(artifacts / "table-dark-amount.png"))
        before = version(first)
        dark.press("Enter")
        first.wait_for_function(f"window.svaraSnapshot().version > {before}")
        state = first.evaluate("window.svaraSnapshot().state")
        assert state["phase"] == "dark_round" and state["bet_level"] == 15
        assert not first.js_errors


def test_the_table_tells_who_looked_who_is_offline_why_the_pot_went_and_names_who_left_D17(
    browser, staff, django_user_model, artifacts
):
    with start_live_server(clock_scale=10.0) as server:
        anna_user, boris_user, table = two_players(django_user_model, staff, family="bulgarian")
        anna, boris = seated_pages(browser, server, table, [anna_user, boris_user])
        press_new_deal(anna, boris)
        first = to_act([anna, boris], "check")
        other = boris if first is anna else anna
        first_seat = first.evaluate("window.svaraSnapshot().seat")
        looked = other.locator(f".seat[data-seat='{first_seat}'] .badge-looked")
        expect(looked).to_have_text("not looked")
        first.locator(".seat-me .hand-card.can-open").first.click()
        expect(looked).to_have_text("looked 1/3")
        expect(other.locator("#log-lines")).to_contain_text("looks at a card")
        act_and_wait(first, "check")
        act_and_wait(other, "check")
        # Bulgarian, no dark bet, everyone checked: the dealer takes the pot (D17), and the felt says why.
        for page in (anna, boris):
            expect(page.locator("#result .result-reason")).to_have_text("everyone checked: the dealer takes the pot (D17)")
            expect(page.locator("#log-lines .log-pot_awarded")).to_contain_text("the dealer takes the pot (D17)")
        # Boris stands up, then closes his page: Anna's log and result still name him.
        boris.locator("[data-tool=stand]").click()
        expect(anna.locator(".seat-name", has_text="Boris")).to_have_count(0)
        expect(anna.locator("#log-lines")).not_to_contain_text("seat 2")
        expect(anna.locator("#log-lines")).to_contain_text("Boris")
        boris.close()
        anna.screenshot(path=str(artifacts / "table-story.png"))
        assert not anna.js_errors


def test_a_seated_player_with_no_connection_shows_offline_S9(browser, staff, django_user_model, artifacts):
    with start_live_server(clock_scale=10.0) as server:
        anna_user, boris_user, table = two_players(django_user_model, staff)
        anna, boris = seated_pages(browser, server, table, [anna_user, boris_user])
        boris_seat = boris.evaluate("window.svaraSnapshot().seat")
        badge = anna.locator(f".seat[data-seat='{boris_seat}'] .badge-offline")
        expect(badge).to_have_count(0)
        boris.close()
        expect(badge).to_have_text("offline")
        anna.reload()  # a page opened later knows it too
        expect(badge).to_have_text("offline")
        assert not anna.js_errors


def test_chat_and_the_deal_log_survive_a_reload(browser, staff, django_user_model, artifacts):
    with start_live_server(clock_scale=10.0) as server:
        anna_user, boris_user, table = two_players(django_user_model, staff)
        anna, boris = seated_pages(browser, server, table, [anna_user, boris_user])
        anna.fill("#chat-input", "good luck, Boris")
        anna.locator("#chat-form button").click()
        expect(boris.locator("#chat-lines")).to_contain_text("good luck, Boris")
        press_new_deal(anna, boris)
        act_and_wait(to_act([anna, boris], "check"), "check")
        boris.reload()
        expect(boris.locator("#chat-lines .chat-line")).to_have_count(1)
        expect(boris.locator("#chat-lines")).to_contain_text("good luck, Boris")
        expect(boris.locator("#log-lines .log-deal_started")).to_contain_text("Deal 1")
        expect(boris.locator("#log-lines .log-check")).to_have_count(1)
        chat = boris.locator("#chat-lines").bounding_box()
        assert chat["height"] >= 200  # a chat box one can read
        assert not boris.js_errors


def test_the_creator_seats_bots_at_his_table_with_one_click_and_sees_why_not(
    browser, staff, django_user_model, artifacts
):
    from bots.services import fund_bots
    from tables.services import create_table

    with start_live_server(clock_scale=10.0) as server:
        anna_user = make_player(django_user_model, "anna@example.com", "Anna", staff)
        boris_user = make_player(django_user_model, "boris@example.com", "Boris", staff)
        table = create_table(anna_user, "classic", 10, 4, True)
        no_bots = create_table(anna_user, "classic", 10, 4, False)
        anna = new_page(browser, server)
        login_as(anna, server, anna_user)
        anna.goto(f"/tables/{table.pk}/")
        expect(anna.locator("#bot-tools")).to_be_visible()
        anna.locator("#seat-bots").click()  # the bots' pool is empty: the page says why
        expect(anna.locator("#toast")).to_be_visible()
        expect(anna.locator(".bot-badge")).to_have_count(0)
        fund_bots(100_000, key="browser-test:bots-pool")
        anna.select_option("#bot-count", "2")
        anna.locator("#seat-bots").click()
        expect(anna.locator(".seat .seat-name .bot-badge")).to_have_count(2)
        expect(anna.locator("#bot-count option:not([hidden])")).to_have_count(2)  # two seats left
        anna.screenshot(path=str(artifacts / "table-bots-seated.png"))
        anna.goto(f"/tables/{no_bots.pk}/")
        expect(anna.locator(".seat")).to_have_count(4)
        expect(anna.locator("#bot-tools")).to_have_count(0)  # created without bots
        boris = new_page(browser, server)
        login_as(boris, server, boris_user)
        boris.goto(f"/tables/{table.pk}/")
        expect(boris.locator(".seat")).to_have_count(4)
        expect(boris.locator("#bot-tools")).to_have_count(0)  # not his table
        assert not anna.js_errors and not boris.js_errors


def test_a_closed_table_says_so_and_offers_neither_a_seat_nor_chat(browser, staff, django_user_model, artifacts):
    from tables.models import Table

    with start_live_server(clock_scale=10.0) as server:
        anna_user, boris_user, table = two_players(django_user_model, staff)
        watcher = new_page(browser, server)
        login_as(watcher, server, boris_user)
        watcher.goto(f"/tables/{table.pk}/")
        expect(watcher.locator(".sit-here").first).to_be_visible()
        expect(watcher.locator("#closed-banner")).to_be_hidden()
        # Staff close it in the admin (on the live server, which tells the table's viewers).
        admin = new_page(browser, server)
        login_as(admin, server, django_user_model.objects.create_superuser(email="boss@example.com", password="x-Pass-4711-long"))
        admin.goto("/admin/tables/table/")
        admin.locator(f"input[name=_selected_action][value='{table.pk}']").check()
        admin.select_option("select[name=action]", "close_tables")
        admin.locator("button[name=index]").click()
        admin.wait_for_load_state()
        assert not Table.objects.get(pk=table.pk).is_open
        for page in (watcher, new_page(browser, server)):  # the page open at the time, and one opened later
            if page is not watcher:
                login_as(page, server, boris_user)
                page.goto(f"/tables/{table.pk}/")
            expect(page.locator("#closed-banner")).to_be_visible()
            expect(page.locator("#closed-banner")).to_contain_text("closed")
            expect(page.locator(".sit-here")).to_have_count(0)
            expect(page.locator("#chat-input")).to_be_disabled()
            expect(page.locator("#conn")).to_have_attribute("data-state", "closed")
        watcher.screenshot(path=str(artifacts / "table-closed.png"))


@pytest.mark.parametrize("width, height", [(375, 812), (390, 844)])
def test_on_a_phone_the_title_keeps_family_and_ante_and_the_bar_leaves_your_stack_in_view(
    browser, staff, django_user_model, artifacts, width, height
):
    with start_live_server(clock_scale=10.0) as server:
        anna_user, boris_user, table = two_players(django_user_model, staff)
        pages = seated_pages(browser, server, table, [anna_user, boris_user])
        phone = new_page(browser, server, width=width, height=height)
        login_as(phone, server, anna_user)
        phone.goto(f"/tables/{table.pk}/")
        title = phone.locator(".table-heading")
        expect(title).to_contain_text("classic")
        expect(title).to_contain_text("ante 10")
        expect(phone.locator(".table-facts")).to_be_visible()
        expect(phone.locator("#rules-link")).to_be_visible()
        press_new_deal(phone, pages[1])
        on_turn = to_act([phone, pages[1]], "check")
        if on_turn is not phone:
            act_and_wait(on_turn, "check")
        expect(phone.locator("#action-bar.my-turn")).to_be_visible()
        phone.wait_for_timeout(300)
        stack = phone.locator(".seat-me .seat-stack")
        box = stack.bounding_box()
        assert 0 <= box["y"] and box["y"] + box["height"] <= height, box  # in the window
        covered = phone.evaluate(
            """([x, y]) => { const el = document.elementFromPoint(x, y); return el ? !el.closest('.seat-me') : true; }""",
            [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
        )
        assert not covered, "the action bar (or anything else) covers your own stack"
        bar = phone.locator("#action-bar").bounding_box()
        assert bar["y"] + bar["height"] <= height + 1
        assert phone.evaluate("document.documentElement.scrollWidth") <= width
        phone.screenshot(path=str(artifacts / f"table-phone-{width}x{height}.png"))
        assert not phone.js_errors


@pytest.mark.parametrize("width, height", [(375, 812), (390, 844)])
def test_count_the_hand_on_a_phone_keeps_its_result_in_view(browser, transactional_db, artifacts, width, height):
    with start_live_server() as server:
        page = new_page(browser, server, width=width, height=height)
        page.goto("/count/")
        cards = page.locator("#card-grid button")
        for index in (-1, -2, -3):  # the last cards of the grid: far down the page
            cards.nth(cards.count() + index).click()
        expect(page.locator("#count-points")).not_to_have_text("—")
        box = page.locator("#count-points").bounding_box()
        assert 0 <= box["y"] and box["y"] + box["height"] <= height, box
        page.screenshot(path=str(artifacts / f"count-phone-{width}x{height}.png"))
        assert not page.js_errors
