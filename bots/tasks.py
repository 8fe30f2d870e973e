"""Celery: a bot's move (scheduled by the table_changed receiver) and the bot table keeper (beat, every 10 s).
Thin: each calls bots.services."""

import logging

from celery import shared_task

log = logging.getLogger(__name__)


@shared_task(name="bots.tasks.bot_act", ignore_result=True)
def bot_act(table_id: int, version: int, seat: int) -> list:
    """The bot at `seat` answers, if the table is still at `version` (else a no-op)."""
    from . import services

    return services.bot_act(table_id, version, seat)


@shared_task(name="bots.tasks.keep_bot_tables", ignore_result=True)
def keep_bot_tables() -> dict:
    """Keep each policy's bot tables open and seated; stand up bots left alone."""
    from . import services

    return services.keep_bot_tables()


# The app lived at tables/bots/ before, and its tasks were named after that. A bot's move queued under the old name
# (with a countdown, in Redis) by a process started before the move would be refused by a newer worker as
# unregistered and lost, so the bot's clock would run out for it. The old names stay registered for that one
# upgrade; remove them once no process of the old layout runs.
@shared_task(name="tables.bots.tasks.bot_act", ignore_result=True)
def bot_act_under_its_old_name(table_id: int, version: int, seat: int) -> list:
    return bot_act(table_id, version, seat)


@shared_task(name="tables.bots.tasks.keep_bot_tables", ignore_result=True)
def keep_bot_tables_under_its_old_name() -> dict:
    return keep_bot_tables()
