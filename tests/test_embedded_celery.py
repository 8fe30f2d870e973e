"""The embedded default runs a real Celery worker and beat inside the process: a countdown task waits for its
delay (eager mode would run it at once, which is wrong for clocks), and beat fires periodic tasks."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = r"""
import json, os, time, django
django.setup()
from celery import shared_task
from config.celery import app
from embedded.celery_threads import start_embedded_celery

fired = {}

@shared_task(name="probe.countdown")
def countdown(started):
    fired["countdown"] = time.monotonic() - started

beats = []

@shared_task(name="probe.beat")
def beat():
    beats.append(time.monotonic())

# In place: the settings' CELERY_BEAT_SCHEDULE is the schedule (Celery 5.6 reads that key, not a new beat_schedule).
app.conf.beat_schedule.clear()
app.conf.beat_schedule["probe-beat"] = {"task": "probe.beat", "schedule": 0.5}
start_embedded_celery()
started = time.monotonic()
countdown.apply_async((started,), countdown=1.5)
time.sleep(1.0)
early = "countdown" in fired
deadline = time.monotonic() + 15  # a busy machine may start beat late; wait for both, up to a bound
while ("countdown" not in fired or len(beats) < 2) and time.monotonic() < deadline:
    time.sleep(0.05)
print(json.dumps({"early": early, "after": fired.get("countdown"), "beats": len(beats)}))
os._exit(0)
"""


def test_countdown_task_fires_after_its_delay_and_beat_runs_in_process():
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DATABASE_URL"}}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings.base"
    result = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    lines = [line for line in result.stdout.splitlines() if line.startswith("{")]
    assert lines, result.stdout + result.stderr
    outcome = json.loads(lines[-1])
    assert outcome["early"] is False
    assert outcome["after"] is not None and 1.4 <= outcome["after"] < 5.0
    assert outcome["beats"] >= 2
