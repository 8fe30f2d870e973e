"""Celery: players' tables nobody sits at for a while close (staff's, `kept_open`, stay)."""

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from tables import services
from tables.models import Table, TableStatus


@shared_task(name="lobby.tasks.close_idle_tables", ignore_result=True)
def close_idle_tables() -> int:
    cutoff = timezone.now() - timedelta(seconds=settings.SVARA_IDLE_TABLE_SECONDS)
    idle = Table.objects.filter(
        status=TableStatus.OPEN, kept_open=False, empty_since__lt=cutoff
    ).values_list("id", flat=True)
    closed = 0
    for table_id in list(idle):
        try:
            services.close_table(table_id, idle_before=cutoff)
            closed += 1
        except services.DoorError:
            pass  # somebody sat down meanwhile, or chips remain: try again next time
    return closed
