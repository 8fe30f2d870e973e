"""Every daphne process enforces overdue clocks itself: a watcher on its event loop asks the database every
SVARA_CLOCK_WATCH_SECONDS which open tables' clocks are past their deadline and runs each out through the door.

This replaced a Celery countdown task scheduled after every action: publishing it cost a fifth of a door call and
the worker ran one no-op transaction per action. Beat's sweeper (tables/tasks.py, every second) enforces them too,
so no single process's death stops the clocks; several enforcers are safe, because the door runs a clock out only
if the table is still at the version whose deadline passed (`services.run_out_clock`).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from concurrent.futures import ThreadPoolExecutor

from channels.db import DatabaseSyncToAsync
from django.conf import settings
from django.utils import timezone

from . import services
from .models import Table, TableStatus
from .services import notify

log = logging.getLogger(__name__)

_watched_loops: weakref.WeakSet = weakref.WeakSet()


def overdue_clocks(now=None) -> list[tuple[int, int]]:
    """(table id, version) of every open table whose running clock is past its deadline (one query, narrowed by the
    status's index: the deadline has none, so that an action's update of the row writes no index)."""
    return list(
        Table.objects.filter(status=TableStatus.OPEN, clock_deadline__lte=now or timezone.now()).values_list(
            "id", "version"
        )
    )


def run_out_overdue_clocks() -> int:
    """Run out every overdue clock through the door; how many ran out. One table's fault is logged and the others
    go on (beat's sweeper and every watcher call this)."""
    enforced = 0
    for table_id, version in overdue_clocks():
        try:
            enforced += bool(services.run_out_clock(table_id, version))
        except services.DoorError as error:
            log.info("running out the clock of table %s: %s", table_id, error.message)
        except Exception:  # one table's fault must not hold up the others' clocks
            log.exception("running out the clock of table %s v%s failed", table_id, version)
    return enforced


def watch_here() -> None:
    """Start this process's watcher on the running event loop, once (consumers call this on connect)."""
    every = settings.SVARA_CLOCK_WATCH_SECONDS
    loop = asyncio.get_running_loop()
    if not every or loop in _watched_loops:
        return
    _watched_loops.add(loop)
    loop.create_task(_watch(every), name="svara-clock-watch")


# The watcher's own thread, not one of the door's: when the door's threads are all busy (a crowd of clients
# reconnecting from a daphne that died, resending their moves), a clock must not wait in their queue (found by the
# fault drill, docs/reliability.md). One more pooled connection a process (config/settings/base.py checks the
# pool's size).
watch_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="clock-watch")


async def _watch(every: float) -> None:
    run_out = DatabaseSyncToAsync(run_out_overdue_clocks, thread_sensitive=False, executor=watch_thread)
    while True:
        await asyncio.sleep(every)
        with notify.collecting() as collected:
            try:
                await run_out()
            except Exception:  # e.g. no database this round: the next one tries again, beat's sweeper meanwhile
                log.exception("the clock watcher failed")
        await notify.send_collected(collected)
