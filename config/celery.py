"""The Celery app: clocks running out, offline players, the sweeper for overdue clocks.

With REDIS_URL it uses Redis as the broker (a separate worker and beat in production); without it the
broker is kombu's in-memory transport, and `manage.py serve` runs the worker and beat inside the web process.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

app = Celery("svara")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
