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
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, and before it is dropped (PostgreSQL refuses while a connection is open) the
    door's, the reads' and the clock watcher's threads give back their connections (tables/db_threads.py). A session
    some other thread of the run still holds is named in a warning, with its last statement, and ended, so the
    database is dropped and the next run starts clean."""
    yield
    from tables.db_threads import give_back_every_connection

    give_back_every_connection()
    with django_db_blocker.unblock():
        _end_stray_sessions()


def _end_stray_sessions() -> None:
    import warnings

    from django.db import connection

    if connection.vendor != "postgresql":
        return
    name = connection.settings_dict["NAME"]
    connection.close()
    connection.close_pool()  # the pool's idle connections (Django's teardown would close them too)
    with connection._nodb_cursor() as cursor:
        cursor.execute(
            "SELECT pid, state, left(query, 300), pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()", [name]
        )
        for pid, state, query, _ended in cursor.fetchall():
            warnings.warn(f"a session left open on the test database, ended: pid {pid}, {state}, last: {query}",
                          stacklevel=1)


@pytest.fixture(autouse=True)
def _no_language_left_over():
    """Each test starts in the default language. A request through the test client activates its reader's
    language (LocaleMiddleware, accounts/language.py) in the test's own thread and leaves it there; in the servers
    each request and socket has its own context, but here the next test's door refusals were read in Bulgarian."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()
