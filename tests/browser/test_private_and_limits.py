"""End-to-end in Chromium (tracker issue 14): a private table nobody finds or opens without its link, the link that
seats a friend, revoking it; a player's own buy-in cap, self-exclusion and session reminder at the table."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tables.models import TableSeat
from tests.live.server import start_live_server

from .conftest import login_as, new_page
from .test_play import make_player, sit_via_dialog

pytestmark = pytest.mark.browser


def wait_for_table_socket(page):
    page.wait_for_function("(() => { const s = window.svaraSnapshot(); return s && s.version >= 0; })()",
                           timeout=20000)  # fmt: skip


def create_table_in_lobby(page, private: bool) -> int:
    page.goto("/")
    form = page.locator("#create-form")
    form.locator("input[name=ante]").fill("10")
    form.locator("input[name=seats]").fill("4")
    if private:
        form.locator("input[name=private]").check()
    form.locator("[type=submit]").click()
    page.wait_for_url(re.compile(r"/tables/\d+/"))
    return int(re.search(r"/tables/(\d+)/", page.url).group(1))


def test_a_private_table_is_found_and_opened_only_with_its_link_and_revoking_stops_new_visitors(
    browser, staff, django_user_model, artifacts
):
    ann = make_player(django_user_model, "ann@example.com", "Ann", staff)
    boris = make_player(django_user_model, "boris@example.com", "Boris", staff)
    vera = make_player(django_user_model, "vera@example.com", "Vera", staff)
    with start_live_server() as server:
        host = new_page(browser, server)
        login_as(host, server, ann)
        table_id = create_table_in_lobby(host, private=True)
        wait_for_table_socket(host)
        sit_via_dialog(host)  # "Create and sit down": the buy-in dialog is open
        expect(host.locator("#private-badge")).to_be_visible()
        link = host.locator("#invite-link").input_value()
        assert link.startswith(server.url) and "invite=" in link
        host.locator("#invite-copy").click()
        expect(host.locator("#invite-copy")).to_have_text("Copied")
        host.screenshot(path=str(artifacts / "private-table-host.png"))

        friend = new_page(browser, server)
        login_as(friend, server, boris)
        friend.goto("/")
        expect(friend.locator("#table-empty")).to_be_visible()  # the lobby socket's list has no table for him
        assert friend.locator(f"a[href='/tables/{table_id}/']").count() == 0
        assert friend.goto(f"/tables/{table_id}/").status == 404
        assert friend.goto(f"/tables/{table_id + 1000}/").status == 404

        assert friend.goto(link).status == 200
        assert friend.url.endswith(f"/tables/{table_id}/")  # the token is off the address bar
        wait_for_table_socket(friend)
        sit_via_dialog(friend, friend.locator(".sit-here").first)
        assert TableSeat.objects.filter(table_id=table_id, user=boris).exists()

        host.locator("#invite-renew").click()
        host.wait_for_load_state()
        new_link = host.locator("#invite-link").input_value()
        assert new_link != link
        late = new_page(browser, server)
        login_as(late, server, vera)
        assert late.goto(link).status == 404
        friend.reload()  # seated: he stays
        wait_for_table_socket(friend)
        expect(friend.locator(".seat.seat-me")).to_be_visible()
        assert late.goto(new_link).status == 200
        assert not late.js_errors and not friend.js_errors and not host.js_errors


def test_a_buy_in_cap_refuses_at_the_table_and_self_exclusion_blocks_sitting_and_creating(
    browser, staff, django_user_model, artifacts
):
    ann = make_player(django_user_model, "ann@example.com", "Ann", staff)
    from tables import services

    table = services.create_table(staff, "classic", 10, 4, False, kept_open=True)
    with start_live_server() as server:
        page = new_page(browser, server)
        login_as(page, server, ann)
        page.goto("/profile/")
        page.fill("input[name=daily_buy_in_cap]", "300")
        page.locator("#save-limits").click()
        expect(page.locator(".messages")).to_contain_text("Your daily buy-in cap is now 300 chips, at once.")

        page.goto(f"/tables/{table.pk}/")
        wait_for_table_socket(page)
        page.locator(".sit-here").first.click()
        page.locator("#chips-number").fill("400")
        page.locator("#chips-ok").click()
        expect(page.locator("#toast")).to_contain_text("Your daily buy-in cap is 300 chips")
        expect(page.locator("#toast")).to_contain_text("00:00 UTC")
        page.screenshot(path=str(artifacts / "limits-cap-refused.png"))
        assert not TableSeat.objects.filter(table=table, user=ann).exists()

        page.goto("/profile/")
        page.select_option("select[name=period]", "week")
        page.locator("#exclusion-form input[name=confirm]").check()
        page.locator("#start-exclusion").click()
        expect(page.locator(".messages")).to_contain_text("You are excluded from play until")
        expect(page.locator("#exclusion-status")).to_be_visible()

        page.goto(f"/tables/{table.pk}/")
        wait_for_table_socket(page)
        page.locator(".sit-here").first.click()
        page.locator("#chips-number").fill("200")
        page.locator("#chips-ok").click()
        expect(page.locator("#toast")).to_contain_text("You have excluded yourself from play until")
        page.goto("/")
        page.locator("#create-form [type=submit]").click()
        expect(page.locator("#create-form .form-errors")).to_contain_text("cannot create a table")
        assert not TableSeat.objects.filter(user=ann).exists()
        assert not page.js_errors


def test_the_table_reminds_a_player_how_long_he_has_played(browser, staff, django_user_model):
    from tables import services
    from wallet import limits

    ann = make_player(django_user_model, "ann@example.com", "Ann", staff)
    table = services.create_table(staff, "classic", 10, 4, False, kept_open=True)
    limits.set_limits(ann, session_minutes=1)
    with start_live_server() as server:
        page = new_page(browser, server)
        login_as(page, server, ann)
        page.goto(f"/tables/{table.pk}/")
        wait_for_table_socket(page)
        sit_via_dialog(page, page.locator(".sit-here").first)
        expect(page.locator("#session-reminder")).to_be_hidden()
        # Seated a while ago (the page reads when from the seat's row): the reminder shows at once, with the time.
        TableSeat.objects.filter(table=table, user=ann).update(seated_at=timezone.now() - timedelta(minutes=2))
        page.reload()
        wait_for_table_socket(page)
        reminder = page.locator("#session-reminder")
        expect(reminder).to_be_visible(timeout=5000)
        expect(reminder).to_contain_text("You have been playing at this table for 2 min")
        page.locator("#session-reminder-ok").click()
        expect(reminder).to_be_hidden()
        assert not page.js_errors
