"""Celery: the sweeper for overdue clocks (beside every daphne's own watcher, tables/clock_watch.py), offline
players, stored replies. Thin: each calls the one door."""

import logging

from celery import shared_task

from . import services
from .clock_watch import run_out_overdue_clocks

log = logging.getLogger(__name__)


@shared_task(name="tables.tasks.clock_ran_out", ignore_result=True)
def clock_ran_out(table_id: int, version: int) -> bool:
    """Run out the clock of `table_id` at `version`; a no-op if the table moved on. Nothing schedules it any more
    (the watchers and the sweeper do the work); it stays for tasks queued by an older deployment."""
    try:
        return services.run_out_clock(table_id, version)
    except services.DoorError as error:
        log.info("clock of table %s v%s: %s", table_id, version, error.message)
        return False


@shared_task(name="tables.tasks.sweep_overdue_clocks", ignore_result=True)
def sweep_overdue_clocks() -> int:
    """Enforce every clock past its deadline (the daphne processes' watchers do too; the version decides)."""
    return run_out_overdue_clocks()


@shared_task(name="tables.tasks.prune_replies", ignore_result=True)
def prune_replies() -> int:
    """Forget stored replies to message ids older than SVARA_REPLY_SECONDS."""
    return services.prune_replies()


@shared_task(name="tables.tasks.stand_up_offline_players", ignore_result=True)
def stand_up_offline_players() -> int:
    """A player with no connection to the table for 2 minutes stands up; his chips go back to his balance (§9)."""
    from django.contrib.auth import get_user_model

    stood = 0
    for table_id, user_id in services.offline_players():
        user = get_user_model().objects.get(pk=user_id)
        try:
            services.stand(table_id, user)
            stood += 1
        except services.DoorError as error:
            # e.g. already leaving mid-deal: the seat frees when the deal ends.
            log.info("standing up offline %s at table %s: %s", user_id, table_id, error.message)
    return stood
