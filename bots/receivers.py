"""Listen to `table_changed` and schedule a bot's answer, with a human-like pause, when one is due."""

import asyncio
import logging

from django.dispatch import receiver

from tables.signals import table_changed

log = logging.getLogger(__name__)


@receiver(table_changed, dispatch_uid="bots.schedule_bot_moves")
def schedule_bot_moves(sender, table_id, version, state, bot_seats=None, **kwargs) -> None:
    from . import services

    if bot_seats is not None and not bot_seats:
        return  # no bot sits here: nothing to ask the database
    due = [(seat, services.pause_seconds()) for seat in services.seats_to_act(state, bot_seats)]
    if not due:
        return
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # a door thread's change: sent from here
        _send(table_id, version, due)
    else:
        # A move written on a socket's event loop (tables/services/optimistic.py): the broker's round trip, or its
        # timeout when Redis hangs, must hold neither the player's answer nor the process's other sockets.
        loop.run_in_executor(None, _send, table_id, version, due)


def _send(table_id: int, version: int, due: list[tuple[int, float]]) -> None:
    from . import tasks

    for seat, countdown in due:
        try:
            tasks.bot_act.apply_async((table_id, version, seat), countdown=countdown)
        except Exception:  # the bot's clock runs anyway: a lost move times out like anyone's
            log.exception("could not schedule the bot at table %s seat %s (v%s)", table_id, seat, version)
