"""Browser tests: Debian's Chromium driven by Playwright against a real `manage.py serve` (tests/live/server.py).

The sync Playwright API runs an event loop in this thread, so Django's async-safety check must be relaxed while
it runs (and only then) for the test's own database calls. Playwright lives for this module only: a loop left
running would break every later test that calls `async_to_sync`, and the relaxed check must not leak into them or
into the processes they start.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="module")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"Chromium is not installed at {CHROMIUM} (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            yield chromium
            chromium.close()
    finally:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def staff(transactional_db, django_user_model):
    return django_user_model.objects.create_user(
        email="staff@example.com", password="staff-pass-123", is_staff=True, display_name="Staff"
    )


def credit(user, amount, staff):
    from wallet.services import credit as wallet_credit

    wallet_credit(user, amount, reason="test chips", staff=staff)


def new_page(browser, server, width=1280, height=860):
    context = browser.new_context(viewport={"width": width, "height": height}, base_url=server.url)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors
    return page


def register(page, server, email: str, name: str, password: str = "a-long-Pass-4711"):
    """Sign up through the real form, confirm the address from the e-mail, end up logged in."""
    page.goto("/accounts/signup/")
    page.fill("input[name=email]", email)
    if page.locator("input[name=display_name]").count():
        page.fill("input[name=display_name]", name)
    page.fill("input[name=password1]", password)
    if page.locator("input[name=password2]").count():
        page.fill("input[name=password2]", password)
    page.locator("form:has(input[name=password1]) [type=submit]").click()
    page.wait_for_load_state()
    link = None
    for _ in range(50):
        for mail in server.mails():
            if email in mail:
                found = re.search(r"https?://\S+/accounts/confirm-email/\S+/", mail)
                if found:
                    link = found.group(0)
        if link:
            break
        page.wait_for_timeout(100)
    assert link, f"no verification e-mail for {email}: {server.mails()}"
    page.goto(link)
    page.locator("main form [type=submit]").first.click()
    page.wait_for_load_state()
    page.goto("/")
    if page.locator("a[href*='/accounts/login/']").count():
        page.goto("/accounts/login/")
        page.fill("input[name=login]", email)
        page.fill("input[name=password]", password)
        page.locator("main form [type=submit]").first.click()
        page.wait_for_load_state()
    assert page.locator(".usernav .who").inner_text().strip() == name


def login_as(page, server, user):
    """A session cookie for a user made in the test (for the players a scenario does not sign up itself)."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": server.url}]
    )
