"""Listen to `table_changed` and schedule a bot's answer, with a human-like pause, when one is due."""

import logging

from django.dispatch import receiver

from tables.signals import table_changed

log = logging.getLogger(__name__)


@receiver(table_changed, dispatch_uid="bots.schedule_bot_moves")
def schedule_bot_moves(sender, table_id, version, state, bot_seats=None, **kwargs) -> None:
    from . import services, tasks

    if bot_seats is not None and not bot_seats:
        return  # no bot sits here: nothing to ask the database
    for seat in services.seats_to_act(state, bot_seats):
        countdown = services.pause_seconds()
        try:
            tasks.bot_act.apply_async((table_id, version, seat), countdown=countdown)
        except Exception:  # the bot's clock runs anyway: a lost move times out like anyone's
            log.exception("could not schedule the bot at table %s seat %s (v%s)", table_id, seat, version)
