"""Celery: a bot's move (scheduled by the table_changed receiver) and the bot table keeper (beat, every 10 s).
Thin: each calls tables.bots.services."""

import logging

from celery import shared_task

log = logging.getLogger(__name__)


@shared_task(name="tables.bots.tasks.bot_act", ignore_result=True)
def bot_act(table_id: int, version: int, seat: int) -> list:
    """The bot at `seat` answers, if the table is still at `version` (else a no-op)."""
    from . import services

    return services.bot_act(table_id, version, seat)


@shared_task(name="tables.bots.tasks.keep_bot_tables", ignore_result=True)
def keep_bot_tables() -> dict:
    """Keep each policy's bot tables open and seated; stand up bots left alone."""
    from . import services

    return services.keep_bot_tables()
