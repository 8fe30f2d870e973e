"""Stored replies: a message with a client-chosen id is answered once and applied once; a repeat gets the stored
answer. Replies are kept SVARA_REPLY_SECONDS (long enough for any reconnect and resend), then pruned by beat."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from ..models import ClientMessage, Table
from . import statements


def _replies(table_id, user_id: int, client_id: str):
    return ClientMessage.objects.filter(table_id=table_id, user_id=user_id, client_id=client_id).values_list(
        "response", flat=True
    )


def stored_reply(client_id: str, user_id: int) -> Subquery:
    """An annotation for the table row's locking query: the stored reply to this id (one statement for both)."""
    return Subquery(_replies(OuterRef("pk"), user_id, client_id)[:1])


def stored(table_id, user, client_id: str) -> dict | None:
    """The stored reply to a message id, read afresh (outside the transaction that missed it)."""
    return _replies(table_id, user.pk, client_id).first()


class RepliedMeanwhile(Exception):
    """Another handler of the same message id committed first (while this one waited for the table's lock, the
    locking statement still saw no reply: the rest of a statement keeps the snapshot it started with). This
    transaction must not stand: the door rolls it back and enters again, and then finds that reply."""


def reply_row(table: Table, user, client_id: str, reply: dict) -> ClientMessage:
    return ClientMessage(table_id=table.pk, user_id=user.pk, client_id=client_id, response=reply,
                         created_at=timezone.now())  # fmt: skip


def store(table: Table, user, client_id: str | None, reply: dict) -> None:
    """Keep the reply to a message id (one statement); raises RepliedMeanwhile if the id was answered meanwhile.
    The door stores an action's reply with its other writes instead (statements.write_action)."""
    if client_id is None:
        return
    if not statements.store_reply(reply_row(table, user, client_id, reply)):
        raise RepliedMeanwhile(client_id)


def prune(now=None) -> int:
    """Forget replies older than SVARA_REPLY_SECONDS; returns how many."""
    cutoff = (now or timezone.now()) - timedelta(seconds=settings.SVARA_REPLY_SECONDS)
    deleted, _ = ClientMessage.objects.filter(created_at__lt=cutoff).delete()
    return deleted
