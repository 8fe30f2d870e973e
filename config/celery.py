"""The Celery app: clocks running out, offline players, the sweeper for overdue clocks.

With REDIS_URL it uses Redis as the broker (a separate worker and beat in production); without it the
broker is kombu's in-memory transport, and `manage.py serve` runs the worker and beat inside the web process.
"""

import os

from celery import Celery

# `celery -A config worker|beat` runs this in production: without DJANGO_SETTINGS_MODULE it gets the production
# settings (which refuse to start without SECRET_KEY), never the debug ones. Everything importing the `config`
# package passes here first (config/__init__.py), so this is the default daphne's import of config.asgi meets too.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

app = Celery("svara")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
