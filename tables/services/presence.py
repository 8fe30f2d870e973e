"""Presence: open WebSocket connections per table and player, counted in the database so any process may serve
them, with a heartbeat so a count left by a dead process goes stale; it drives the offline stand-up (§9)."""

from __future__ import annotations

import time
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from .. import reads
from ..models import Presence, Table, TableSeat, TableStatus

PRESENCE_HEARTBEAT_SECONDS = 30
PRESENCE_STALE_SECONDS = 90  # three missed heartbeats


def connected(table_id: int, user) -> None:
    _change(table_id, user, +1)


def disconnected(table_id: int, user) -> None:
    _change(table_id, user, -1)


def still_here(table_id: int, user) -> None:
    """A consumer's heartbeat: its connection is alive (a dead process stops touching this)."""
    Presence.objects.filter(table_id=table_id, user=user).update(seen_at=timezone.now())


def _change(table_id: int, user, step: int) -> None:
    now = timezone.now()
    with transaction.atomic():
        presence, _ = Presence.objects.get_or_create(table_id=table_id, user=user, defaults={"changed_at": now})
        fields = {"connections": F("connections") + step, "changed_at": now, "seen_at": now}
        if step > 0:
            fields["connected_at"] = now
        Presence.objects.filter(pk=presence.pk).update(**fields)
        now_open = Presence.objects.filter(pk=presence.pk).values_list("connections", flat=True).first()
        # Only a seated player's first connection or last disconnection changes who shows offline; a watcher's
        # coming and going, and a second tab, tell nobody.
        if (now_open == 1 if step > 0 else now_open == 0) and TableSeat.objects.filter(
            table_id=table_id, user=user
        ).exists():
            transaction.on_commit(lambda: _tell_offline(table_id))


def _tell_offline(table_id: int) -> None:
    from . import notify

    # `at`: when the list was read. A socket that joined the group meanwhile may still receive this message (the
    # pub/sub layer hands a process's messages to the members it has when they arrive), and skips it when its own
    # first list was read later.
    at = time.time()
    message = {"type": "table.presence", "offline": reads.offline_at(table_id), "at": at}
    notify.group_send(notify.table_group(table_id), message)


def sat_down(table: Table, user) -> None:
    """Sitting counts as being here now: the offline clock starts from the moment of sitting."""
    now = timezone.now()
    presence, created = Presence.objects.get_or_create(table=table, user=user, defaults={"changed_at": now})
    if not created and presence.connections <= 0:
        Presence.objects.filter(pk=presence.pk).update(changed_at=now)


def offline_players(now=None) -> list[tuple[int, int]]:
    """(table id, user id) of human players seated at open tables with no connection for SVARA_OFFLINE_SECONDS."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.SVARA_OFFLINE_SECONDS)
    seated = TableSeat.objects.filter(table__status=TableStatus.OPEN, user__is_bot=False).values_list(
        "table_id", "user_id", "seated_at"
    )
    presences = {
        (p.table_id, p.user_id): p
        for p in Presence.objects.filter(table__status=TableStatus.OPEN, user__is_bot=False)
    }
    offline = []
    for table_id, user_id, seated_at in seated:
        presence = presences.get((table_id, user_id))
        if presence is None:
            if seated_at < cutoff:
                offline.append((table_id, user_id))
        else:
            # With connections open, the last sign of life is the newest heartbeat; a count left up by a dead
            # process stops being refreshed (PRESENCE_STALE_SECONDS) and then counts as gone since then.
            alive = presence.seen_at or presence.changed_at
            if presence.connections > 0 and alive >= now - timedelta(seconds=PRESENCE_STALE_SECONDS):
                continue
            last = presence.changed_at if presence.connections <= 0 else alive
            if last < cutoff:
                offline.append((table_id, user_id))
    return offline
