"""Stored replies: a message with a client-chosen id is answered once and applied once; a repeat gets the stored
answer. Replies are kept SVARA_REPLY_SECONDS (long enough for any reconnect and resend), then pruned by beat."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from ..models import ClientMessage, Table


def stored_reply(client_id: str | None, user_id: int) -> Subquery | None:
    """An annotation for the table row's locking query: the stored reply to this id (one statement for both)."""
    if client_id is None:
        return None
    return Subquery(
        ClientMessage.objects.filter(table_id=OuterRef("pk"), user_id=user_id, client_id=client_id).values(
            "response"
        )[:1]
    )


def store(table: Table, user, client_id: str | None, reply: dict) -> None:
    if client_id is not None:
        ClientMessage.objects.create(table=table, user=user, client_id=client_id, response=reply)


def prune(now=None) -> int:
    """Forget replies older than SVARA_REPLY_SECONDS; returns how many."""
    cutoff = (now or timezone.now()) - timedelta(seconds=settings.SVARA_REPLY_SECONDS)
    deleted, _ = ClientMessage.objects.filter(created_at__lt=cutoff).delete()
    return deleted
