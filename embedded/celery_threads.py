"""A Celery worker and Celery beat as threads of this process, for the embedded run (`manage.py serve`).

Kombu's in-memory transport (the broker without REDIS_URL) only works when the worker lives in the same process.
Timed tasks really wait for their countdown: eager mode would run them at once, which is wrong for clocks.
"""

import tempfile
import threading
from pathlib import Path

from celery.beat import EmbeddedService

from config.celery import app as celery_app


def start_embedded_celery(concurrency: int = 4) -> None:
    """Start a Celery worker and beat as threads of this process."""
    worker = celery_app.WorkController(
        pool_cls="threads",
        concurrency=concurrency,
        loglevel="WARNING",
        without_heartbeat=True,
        without_mingle=True,
        without_gossip=True,
    )
    threading.Thread(target=worker.start, name="celery-worker", daemon=True).start()
    schedule = Path(tempfile.mkdtemp(prefix="svara-beat-")) / "schedule"
    beat = EmbeddedService(celery_app, thread=True, schedule_filename=str(schedule))
    beat.start()
