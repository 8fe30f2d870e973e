"""Celery: clocks running out, a sweeper for overdue clocks, offline players. Thin: each calls the one door."""

import logging

from celery import shared_task
from django.utils import timezone

from . import services
from .models import Table, TableStatus

log = logging.getLogger(__name__)


def schedule_clock(table_id: int, version: int, deadline) -> None:
    """After commit: a task at the clock's deadline, acting only if the table is still at this version."""
    countdown = max((deadline - timezone.now()).total_seconds(), 0.0)
    try:
        clock_ran_out.apply_async((table_id, version), countdown=countdown)
    except Exception:  # the sweeper enforces the clock anyway, within a second or two
        log.exception("could not schedule the clock of table %s v%s", table_id, version)


@shared_task(name="tables.tasks.clock_ran_out", ignore_result=True)
def clock_ran_out(table_id: int, version: int) -> bool:
    """The clock scheduled at `version` ran out; a no-op if the table moved on since."""
    try:
        return services.run_out_clock(table_id, version)
    except services.DoorError as error:
        log.info("clock of table %s v%s: %s", table_id, version, error.message)
        return False


@shared_task(name="tables.tasks.sweep_overdue_clocks", ignore_result=True)
def sweep_overdue_clocks() -> int:
    """Enforce every clock past its deadline, whether or not its task was ever scheduled or survived."""
    overdue = Table.objects.filter(status=TableStatus.OPEN, clock_deadline__lte=timezone.now()).values_list(
        "id", "version"
    )
    enforced = 0
    for table_id, version in list(overdue):
        try:
            enforced += bool(services.run_out_clock(table_id, version))
        except services.DoorError as error:
            log.info("sweeping table %s: %s", table_id, error.message)
    return enforced


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
