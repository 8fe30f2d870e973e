"""Shared test set-up.

Under CI (`SVARA_CI=1`, set by .ci/run) nothing may be skipped: a test that would skip (no PostgreSQL, no Redis,
no Chromium) fails instead, so a missing service can never turn into a silently green run.
"""

import os

import pytest

IN_CI = os.environ.get("SVARA_CI") == "1"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if IN_CI and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = f"skipped under CI, which must run everything: {report.longrepr}"


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup):
    """pytest-django's test database, and before it is dropped (PostgreSQL refuses while a connection is open) the
    door's and the reads' threads give back the connections they keep (tables/db_threads.py)."""
    yield
    from tables.db_threads import give_back_every_connection

    give_back_every_connection()


@pytest.fixture(autouse=True)
def _no_language_left_over():
    """Each test starts in the default language. A request through the test client activates its reader's
    language (LocaleMiddleware, accounts/language.py) in the test's own thread and leaves it there; in the servers
    each request and socket has its own context, but here the next test's door refusals were read in Bulgarian."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()
