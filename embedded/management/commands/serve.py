"""Serve the whole platform from one process: daphne (HTTP and WebSockets), a Celery worker and Celery beat.

This is the embedded default of `python3 make.py run`: with no REDIS_URL the broker is kombu's in-memory
transport, so the worker and beat run as threads here (`embedded.celery_threads`). With REDIS_URL set, run daphne,
the worker and beat as separate processes instead (see the Procfile).
"""

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from embedded.celery_threads import start_embedded_celery


class Command(BaseCommand):
    help = "Run daphne with a Celery worker and beat inside the same process (the embedded default)."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--no-celery", action="store_true", help="Do not start the in-process worker and beat.")

    def handle(self, *args, host, port, no_celery, **options):
        if not 0 < port < 65536:
            raise CommandError(f"--port must be between 1 and 65535, not {port}.")
        if not no_celery:
            if settings.CELERY_BROKER_URL != "memory://":
                self.stdout.write("REDIS_URL is set: also run `celery -A config worker` and `celery -A config beat`.")
            else:
                start_embedded_celery()
                self.stdout.write("Celery worker and beat are running inside this process.")
        call_command("runserver", f"{host}:{port}", use_reloader=False)
