"""Settings of the live-server subprocess (tests/live/server.py): the test settings on the pytest run's database,
with e-mail written to files the test reads."""

import os

import dj_database_url

from config.settings.test import *  # noqa: F401,F403

DATABASES = {"default": dj_database_url.parse(os.environ["SVARA_LIVE_DATABASE_URL"])}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = {"timeout": 20}
EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
EMAIL_FILE_PATH = os.environ["SVARA_LIVE_MAIL_DIR"]
# A real server watches its clocks, as in production.
SVARA_CLOCK_WATCH_SECONDS = 0.25
