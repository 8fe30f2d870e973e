"""End-to-end in Chromium, around the table (issue 12, part B): always a game to join, the rules page, accounts,
error pages, the admin, and the site on phones. The server runs as `manage.py serve` does by default (DEBUG off)
unless a test says otherwise; layout tests save screenshots under test-artifacts/."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone
from playwright.sync_api import expect

from tables.models import Table, TableSeat, TableStatus
from tables.selectors import load_state
from tests.live.server import start_live_server

from .conftest import login_as, new_page

pytestmark = pytest.mark.browser

DEFAULT_RUN = {"DEBUG": None}  # the embedded run's own default, not the other live tests' DEBUG=1
PHONES = [(375, 812), (390, 844)]


def verified_player(django_user_model, email, name):
    from allauth.account.models import EmailAddress

    user = django_user_model.objects.create_user(email=email, password="x-Pass-4711-long", display_name=name)
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
    return user


def confirmation_link(server, email) -> str:
    for mail in server.mails():
        if email in mail:
            found = re.search(r"https?://\S+/accounts/confirm-email/\S+/", mail)
            if found:
                return found.group(0)
    raise AssertionError(f"no verification e-mail for {email}: {server.mails()}")


def wait_for_mail(page, server, email) -> str:
    for _ in range(100):
        try:
            return confirmation_link(server, email)
        except AssertionError:
            page.wait_for_timeout(100)
    return confirmation_link(server, email)


def snapshot(page) -> dict:
    return page.evaluate("window.svaraSnapshot()")


def wait_for_snapshot(page, condition: str, timeout=20000) -> dict:
    """The first snapshot the page holds for which the JavaScript `condition` on `s` is true."""
    page.wait_for_function(f"(() => {{ const s = window.svaraSnapshot(); return s && ({condition}); }})()",
                           timeout=timeout)
    return snapshot(page)


# --- the journey --------------------------------------------------------------------------------------------------


def test_a_new_player_signs_up_is_logged_in_by_confirming_and_plays_against_bots_within_a_minute(
    browser, transactional_db, django_user_model, artifacts
):
    call_command("load_demo")  # what `make.py run` does: bot tables kept by their policies
    with start_live_server(clock_scale=0.2, extra_env=DEFAULT_RUN) as server:
        page = new_page(browser, server, 390, 844)
        page.goto("/")
        page.locator("#play-bots-signup").click()
        expect(page).to_have_url(re.compile(r"/accounts/signup/"))
        page.fill("input[name=email]", "nova@example.com")
        page.fill("input[name=display_name]", "Nova")
        page.fill("input[name=password1]", "a-long-Pass-4711")
        page.fill("input[name=password2]", "a-long-Pass-4711")
        page.locator("form:has(input[name=password1]) [type=submit]").click()
        page.wait_for_load_state()
        page.goto(wait_for_mail(page, server, "nova@example.com"))
        page.locator("main form [type=submit]").first.click()
        # Confirming logged her in, in the lobby, with her welcome chips: no login page in between.
        expect(page).to_have_url(server.url + "/")
        expect(page.locator(".usernav .who")).to_have_text("Nova")
        expect(page.locator("#user-balance")).to_have_text("2,000")
        page.locator("#play-bots").click()
        expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
        expect(page.locator(".seat.seat-me")).to_be_visible()
        user = django_user_model.objects.get(email="nova@example.com")
        table = TableSeat.objects.get(user=user).table
        assert table.kept_open and TableSeat.objects.filter(table=table, user__is_bot=True).exists()
        expect(page.locator("#user-balance")).to_have_text("1,500")  # a buy-in of 50 antes (RULES §10)
        page.locator("[data-action=new_deal]").click()
        state = wait_for_snapshot(page, "s.state.deal_no >= 1 && s.state.phase !== 'waiting'")
        assert state["state"]["seats"][state["seat"]]["in_deal"]
        page.screenshot(path=str(artifacts / "journey-playing-390x844.png"))
        assert not page.js_errors, page.js_errors


def test_play_against_bots_opens_a_table_with_bots_when_none_has_a_free_seat(browser, django_user_model, staff):
    from bots.services import fund_bots

    fund_bots(100_000, staff=staff)
    player = verified_player(django_user_model, "lone@example.com", "Lone")
    from wallet.services import credit

    credit(player, 300, reason="test chips", staff=staff)
    with start_live_server(clock_scale=0.2, extra_env=DEFAULT_RUN) as server:
        page = new_page(browser, server)
        login_as(page, server, player)
        page.goto("/")
        page.locator("#play-bots").click()
        expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
        expect(page.locator(".seat.seat-me")).to_be_visible()
        table = Table.objects.get(created_by=player)
        assert table.bots_allowed and not table.kept_open
        mine = TableSeat.objects.get(table=table, user=player)
        assert table.ante == 10 and mine.stack == 300  # all he has: within 20 to 100 antes (RULES §10)
        assert TableSeat.objects.filter(table=table, user__is_bot=True).count() == 2
        page.locator("[data-action=new_deal]").click()
        wait_for_snapshot(page, "s.state.deal_no >= 1")
        assert not page.js_errors, page.js_errors


def test_a_player_without_chips_is_told_how_to_get_them_and_nothing_changes(browser, django_user_model, staff):
    from bots.services import fund_bots

    fund_bots(100_000, staff=staff)
    player = verified_player(django_user_model, "broke@example.com", "Broke")
    with start_live_server(extra_env=DEFAULT_RUN) as server:
        page = new_page(browser, server)
        login_as(page, server, player)
        page.goto("/")
        page.locator("#play-bots").click()
        expect(page).to_have_url(server.url + "/")
        message = page.locator(".message-error")
        expect(message).to_contain_text("You have 0 chips")
        expect(message).to_contain_text("ask them to credit your balance")
        assert not Table.objects.exists() and not TableSeat.objects.exists()


# --- always a game to join ----------------------------------------------------------------------------------------


def demo_staff(django_user_model):
    return django_user_model.objects.get(email="staff@svara.local")


def test_the_tables_staff_set_up_are_still_there_after_a_day_empty(browser, transactional_db, django_user_model):
    from lobby.tasks import close_idle_tables
    from tables.services import create_table

    call_command("load_demo")
    staff = demo_staff(django_user_model)
    players_table = create_table(staff, "classic", 5, 2)  # a player's kind of table: it may close
    Table.objects.update(empty_since=timezone.now() - timedelta(days=1))
    assert close_idle_tables() == 1  # the task beat runs every minute
    assert Table.objects.get(pk=players_table.pk).status == TableStatus.CLOSED
    with start_live_server(extra_env=DEFAULT_RUN) as server:
        page = new_page(browser, server)
        page.goto("/")
        rows = page.locator("#table-list .table-row")
        expect(rows).to_have_count(5)  # the demo's three people's tables and its two bot tables
        login_as(page, server, staff)
        kept = Table.objects.filter(kept_open=True, status=TableStatus.OPEN).first()
        page.goto(f"/admin/tables/table/{kept.pk}/change/")
        expect(page.locator("input[name=kept_open]")).to_be_checked()
        page.goto("/admin/tables/table/")
        expect(page.locator("#result_list")).to_contain_text("kept open".upper(), ignore_case=True)
        expect(page.locator("a.addlink")).to_have_count(0)  # tables start through the door, in the lobby
        # A closed table is history in the admin: shown, not editable.
        page.goto(f"/admin/tables/table/{players_table.pk}/change/")
        expect(page.locator("#content h1")).to_contain_text("View table")
        expect(page.locator("input[name=_save]")).to_have_count(0)
        expect(page.locator("input[name=kept_open]")).to_have_count(0)
        # An open table's family, ante and seats are set once, at its creation.
        page.goto(f"/admin/tables/table/{kept.pk}/change/")
        expect(page.locator("input[name=ante]")).to_have_count(0)
        expect(page.locator("input[name=_save]")).to_have_count(1)


def test_bots_never_deal_among_themselves_after_the_person_sits_out(browser, django_user_model, staff):
    """Issue 12 item 12: the person's New deal clock ran out (RULES §9, sit out), and the two bots, who had pressed
    New deal, dealt a hand between themselves."""
    from bots.services import fund_bots, seat_bot
    from tables.services import create_table
    from wallet.services import credit

    fund_bots(100_000, staff=staff)
    person = verified_player(django_user_model, "solo@example.com", "Solo")
    credit(person, 5_000, reason="test chips", staff=staff)
    table = create_table(staff, "classic", 10, 4, bots_allowed=True)
    seat_bot(table, "strong")
    seat_bot(table, "strong")
    with start_live_server(clock_scale=0.1, extra_env=DEFAULT_RUN) as server:
        page = new_page(browser, server)
        login_as(page, server, person)
        page.goto(f"/tables/{table.pk}/")
        page.locator(".sit-here").first.click()
        page.locator("#chips-ok").click()
        expect(page.locator(".seat.seat-me")).to_be_visible()
        # Both bots press New deal; she does not, and her clock (30 s, scaled) runs out: she sits out.
        ready = wait_for_snapshot(page, "s.seat !== null && s.state.seats.filter(x => x && x.ready).length === 2")
        assert not ready["state"]["seats"][ready["seat"]]["ready"]
        out = wait_for_snapshot(page, "s.state.seats[s.seat].status === 'sitting_out'")
        assert out["state"]["phase"] == "waiting" and out["state"]["deal_no"] == 0 and out["clock"] is None
        assert load_state(Table.objects.get(pk=table.pk)).deal_no == 0
        # Back at the table, she plays with them again.
        page.locator("[data-tool=back]").click()
        wait_for_snapshot(page, "s.state.deal_no === 1 && s.state.phase !== 'waiting'")
        assert not page.js_errors, page.js_errors


# --- the rules, error pages, the admin ----------------------------------------------------------------------------


def test_the_rules_of_both_families_are_a_page_linked_from_every_header(browser, staff):
    from tables.services import create_table

    table = create_table(staff, "bulgarian", 10, 4)
    with start_live_server(extra_env=DEFAULT_RUN) as server:
        page = new_page(browser, server)
        for path in ("/", "/count/", f"/tables/{table.pk}/", "/accounts/login/"):
            page.goto(path)
            expect(page.locator(".mainnav a[href='/rules/']")).to_have_text("Rules")
        page.locator(".mainnav a[href='/rules/']").click()
        expect(page).to_have_url(server.url + "/rules/")
        expect(page.locator("h1")).to_have_text("The rules of svara")
        text = page.locator("#rules").inner_text()
        for line in ("Three sixes", "Three sevens: 34", "Examples: K♠ 9♥ 7♦ = 10", "the dealer takes the pot",
                     "Split or play on", "a table buy-in of 20 to 100 antes"):
            assert line.lower() in text.lower(), line
        expect(page.locator("#rules table").first).to_be_visible()
        # The examples are hands the counter scores, each in its own family.
        page.locator("a.count-example", has_text="7♣ K♥ K♦").click()
        expect(page).to_have_url(re.compile(r"/count/\?family=bulgarian&cards="))
        expect(page.locator("#count-points")).to_have_text("31")
        page.go_back()
        page.locator("#rules-count-link").click()
        expect(page).to_have_url(server.url + "/count/")
        assert not page.js_errors, page.js_errors


def test_the_embedded_run_shows_the_sites_own_error_pages_not_debug_pages(browser, transactional_db):
    with start_live_server(extra_env=DEFAULT_RUN) as server:
        page = new_page(browser, server)
        response = page.goto("/tables/987654/")
        assert response.status == 404
        expect(page.locator("#error-page h1")).to_have_text("Nothing here")
        expect(page.locator("#error-page")).to_contain_text("There is no such table")
        expect(page.locator(".topbar .brand")).to_be_visible()  # the site's look, its header and links
        assert "Page not found" not in page.content() and "URLconf" not in page.content()
        # The site's stylesheet is served with DEBUG off (WhiteNoise): the page is dark, as everywhere.
        assert page.request.get("/static/css/site.css").status == 200
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background not in ("rgba(0, 0, 0, 0)", "rgb(255, 255, 255)"), background
        response = page.goto("/no/such/page/")
        assert response.status == 404
        expect(page.locator("#error-page")).to_contain_text("There is no page at this address")
        page.locator("#error-page a[href='/']").click()
        expect(page.locator("#lobby")).to_be_visible()


def test_the_admin_has_one_heading_per_app_and_shows_the_whole_reason(browser, staff, django_user_model, artifacts):
    from wallet.services import credit

    player = verified_player(django_user_model, "reason@example.com", "Reason")
    reason = "birthday chips for the winner of the Tuesday club evening, as agreed with the committee"
    credit(player, 500, reason=reason, staff=staff)
    staff.is_superuser = True
    staff.save(update_fields=["is_superuser"])
    with start_live_server(extra_env=DEFAULT_RUN) as server:
        page = new_page(browser, server)
        login_as(page, server, staff)
        page.goto("/admin/")
        captions = [c.strip() for c in page.locator("#content-main .module caption").all_inner_texts()]
        assert len(captions) == len(set(c.lower() for c in captions)), captions
        page.goto("/admin/wallet/transfer/")
        expect(page.locator("#result_list th.column-reason")).to_have_text("Reason")
        cell = page.locator("#result_list td.field-reason").first
        expect(cell).to_have_text(reason)
        assert cell.bounding_box()["width"] >= 200  # read as a line or two, not a word a line
        page.screenshot(path=str(artifacts / "admin-transfers-1280.png"), full_page=True)
        # The whole list fits the page: no column (the reason, who made it, the table) is cut off at the edge.
        assert page.evaluate("(() => { const r = document.querySelector('#changelist .results');"
                             " return r.scrollWidth <= r.clientWidth + 1; })()")


# --- phones --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("width", "height"), PHONES)
def test_on_a_phone_the_header_is_slim_and_the_lobby_starts_with_its_buttons(
    browser, transactional_db, django_user_model, artifacts, width, height
):
    from wallet.services import credit

    call_command("load_demo")
    staff = demo_staff(django_user_model)
    player = verified_player(django_user_model, "phone@example.com", "Constantinople")
    credit(player, 5_000, reason="test chips", staff=staff)
    with start_live_server(extra_env=DEFAULT_RUN) as server:
        page = new_page(browser, server, width, height)
        page.goto("/")
        expect(page.locator("#play-bots-signup")).to_be_in_viewport()
        page.screenshot(path=str(artifacts / f"lobby-anonymous-{width}x{height}.png"))
        login_as(page, server, player)
        for path in ("/", "/rules/", "/count/", "/profile/"):
            page.goto(path)
            header = page.locator(".topbar").bounding_box()
            assert header["height"] <= 96, (path, header)
            assert page.evaluate("document.documentElement.scrollWidth") <= width, path  # nothing sideways
        page.goto("/")
        expect(page.locator("#table-list .table-row").first).to_be_visible()
        for button in ("#play-bots", "#go-create"):
            box = page.locator(button).bounding_box()
            assert box["y"] + box["height"] <= height * 0.4, (button, box)
        assert not page.locator("#filters").is_visible()  # folded under "Filters"
        # Read in one turn of the page's script: the lobby rebuilds its list at every update (its socket's first one
        # comes any moment now), and a box asked for in two steps can find the row replaced (`bounding_box`: None).
        first_table = page.locator("#table-list .table-row").first.evaluate("row => row.getBoundingClientRect().y")
        assert first_table < height * 0.6, first_table
        page.screenshot(path=str(artifacts / f"lobby-{width}x{height}.png"))
        page.locator("#filters-box > summary").click()
        expect(page.locator("#filters")).to_be_visible()
        page.locator("#go-create").click()
        expect(page.locator("#create-card")).to_be_in_viewport()
        page.screenshot(path=str(artifacts / f"lobby-create-{width}x{height}.png"))
        page.goto("/rules/")
        page.screenshot(path=str(artifacts / f"rules-{width}x{height}.png"))
        assert not page.js_errors, page.js_errors
