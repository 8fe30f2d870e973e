"""Test settings: fast hashing, mail to the outbox; the database and Redis still come from the environment."""

import os

from .base import *  # noqa: F401,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Fixed decks may be queued for deals by tests (tables.services.queue_test_deck); off everywhere else.
SVARA_DECK_PROVIDER = "tables.services.test_decks.QueuedDecks"
# A file, not memory, so a daphne subprocess started by the live tests shares the test database; one per run.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": f"/tmp/svara-test-{os.getpid()}.sqlite3"}  # noqa: F405

# Many sign-ups and logins from one address in a run; allauth's limits stay on outside tests.
ACCOUNT_RATE_LIMITS = False
# Static files straight from the apps' and project's folders, as `runserver` serves them: tests run without
# collectstatic, so there is no STATIC_ROOT for WhiteNoise to index (it warned once per request handler).
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True
# In-process socket tests run on short-lived event loops: no clock watcher there (tests that need one start it,
# and the live servers of tests/live run theirs).
SVARA_CLOCK_WATCH_SECONDS = 0
# The cache of one test run is its own (the Redis database may be shared by runs).
CACHES["default"]["KEY_PREFIX"] = f"svara-test-{os.getpid()}"  # noqa: F405
