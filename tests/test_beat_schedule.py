"""Beat names its periodic tasks by string: a renamed or moved task must not leave the schedule pointing at nothing."""

from django.conf import settings

from config.celery import app


def test_every_task_in_the_beat_schedule_is_registered():
    app.loader.import_default_modules()
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert scheduled - set(app.tasks) == set()
