"""Listen to `table_changed` and schedule a bot's answer, with a human-like pause, when one is due."""

import logging
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

from django.conf import settings
from django.dispatch import receiver
from django.utils import timezone

from tables.signals import table_changed

log = logging.getLogger(__name__)

# Bots' moves go to Celery from one thread of their own, never from the caller's: a change is told from a door thread,
# the Celery worker or a socket's event loop (a move written there: tables/services/optimistic.py), and none of them
# may wait for the broker's round trip, or for its socket timeout when Redis hangs (REDIS_SOCKET_TIMEOUT).
_sender = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bot-moves")
_down_until = 0.0  # after a failed send, the moves due before this are dropped unsent (monotonic seconds)


@receiver(table_changed, dispatch_uid="bots.schedule_bot_moves")
def schedule_bot_moves(sender, table_id, version, state, bot_seats=None, **kwargs) -> None:
    from . import services

    if bot_seats is not None and not bot_seats:
        return  # no bot sits here: nothing to ask the database
    now = timezone.now()  # each pause counts from the change, however long the send waits behind another
    due = [(seat, now + timedelta(seconds=services.pause_seconds())) for seat in services.seats_to_act(state, bot_seats)]
    if due:
        _sender.submit(send, table_id, version, due)


def send(table_id: int, version: int, due: list, connection=None) -> None:
    """Queue each due seat's move (at its time); after a failure, none for REDIS_SOCKET_TIMEOUT. A move lost so runs
    out its clock like anyone's."""
    global _down_until
    from . import tasks

    if time.monotonic() < _down_until:
        log.warning("the broker failed a moment ago: the bot's move at table %s (v%s) is not sent", table_id, version)
        return
    for seat, eta in due:
        try:
            tasks.bot_act.apply_async((table_id, version, seat), eta=eta, connection=connection)
        except Exception:
            _down_until = time.monotonic() + settings.REDIS_SOCKET_TIMEOUT
            log.exception("could not schedule the bot at table %s seat %s (v%s)", table_id, seat, version)
            return
