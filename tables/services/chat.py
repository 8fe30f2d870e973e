"""Table chat: between deals only, plain text, kept (the last lines greet a page opened later) and sent to the table's
group after commit."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ..errors import DoorError
from ..models import ChatLine
from ..protocol import check_chat_text, check_client_id
from ..state_io import between_deals, seat_of
from . import notify, replies
from .door import answered_once, enter, loads, must_be_logged_in


def chat(table_id: int, user, text, client_id=None) -> dict:
    must_be_logged_in(user, _("Log in to chat."))
    text = check_chat_text(text)
    client_id = check_client_id(client_id)
    return answered_once(lambda: _chat(table_id, user, text, client_id), table_id, user, client_id, dict)


def _chat(table_id: int, user, text: str, client_id) -> dict:
    with transaction.atomic():
        table, stored = enter(table_id, user, client_id)
        if stored is not None:
            return stored
        state = loads(table)
        if not between_deals(state):
            raise DoorError("chat_closed", _("Table chat is open between deals only."))
        line = ChatLine.objects.create(
            table=table, user=user, name=user.table_name, seat=seat_of(state, user.pk), text=text,
            said_at=timezone.now(),
        ).to_json()
        reply = {"type": "ack", "id": client_id, "version": table.version}
        replies.store(table, user, client_id, reply)
        transaction.on_commit(lambda: notify.chat_line(table_id, line))
    return reply
