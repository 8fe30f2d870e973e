"""Who may see a private table: its creator, staff, whoever sits there, and the holders of its invite link.

A private table does not exist for anyone else: every path that takes a table id (the page, the socket, the
lobby and its socket, quick seat, play against bots, seating bots, the door's sit) answers exactly as for an id
that names no table. The invite link `/tables/<id>/?invite=<token>` grants access: to a logged-in player as a
`TableGuest` row (the door checks it when he sits), to an anonymous visitor in his session (he may watch; logging
in turns the session's grant into a row). A grant holds the token it was given with and is valid only while that
is the table's current token, so revoking (a new token) ends every grant at once. A player already seated keeps
his seat: standing him up would fold his hand and move his chips on somebody else's word; once he stands up he
needs the new link like everybody else.
"""

from __future__ import annotations

import secrets

from .models import Table, TableGuest, TableSeat

INVITE_TOKEN_BYTES = 32
SESSION_KEY = "table_invites"  # {str(table id): token} of the links this browser followed


def new_token() -> str:
    return secrets.token_urlsafe(INVITE_TOKEN_BYTES)


def token_matches(table: Table, token) -> bool:
    """The token given is the table's current invite token (compared in constant time)."""
    return (
        isinstance(token, str)
        and bool(table.invite_token)
        and secrets.compare_digest(token.encode(), table.invite_token.encode())
    )


def _user(user):
    return user if user is not None and getattr(user, "is_authenticated", False) else None


def is_host(table: Table, user) -> bool:
    """The creator, who sees the invite link and may revoke it."""
    user = _user(user)
    return user is not None and table.created_by_id is not None and table.created_by_id == user.pk


def may_see(table: Table, user, session=None) -> bool:
    """The table exists for this viewer (`session`: the request's or the socket's, for an anonymous visitor's
    grant and for a grant made before logging in)."""
    if not table.private:
        return True
    user = _user(user)
    if user is not None and (user.is_staff or is_host(table, user)):
        return True
    granted = session.get(SESSION_KEY, {}).get(str(table.pk)) if session is not None else None
    if token_matches(table, granted):
        if user is not None:
            remember(table, user)
        return True
    if user is None:
        return False
    if TableGuest.objects.filter(table=table, user=user, token=table.invite_token).exists():
        return True
    return TableSeat.objects.filter(table=table, user=user).exists()


def may_sit(table: Table, user) -> bool:
    """For the door, under the table's lock: a private table seats its creator, staff, its guests (with the
    current token) and the bots its creator seats (bots/services.py `seat_bot` checks who seats them)."""
    if not table.private or user.is_bot or user.is_staff or is_host(table, user):
        return True
    return TableGuest.objects.filter(table=table, user=user, token=table.invite_token).exists()


def remember(table: Table, user) -> None:
    TableGuest.objects.update_or_create(table=table, user=user, defaults={"token": table.invite_token})


def accept_invite(table: Table, user, session, token) -> bool:
    """A visitor followed the link with `token`: remember the grant (session, and a row for a logged-in user).
    False, and nothing remembered, when the token is not the table's current one."""
    if not table.private or not token_matches(table, token):
        return False
    invites = dict(session.get(SESSION_KEY, {}))
    invites[str(table.pk)] = token
    session[SESSION_KEY] = invites
    if _user(user) is not None:
        remember(table, user)
    return True


def renew_token(table_id: int, user) -> Table | None:
    """The creator revokes the link: a new token; every grant of the old one ends (seated players stay). None
    when the user is not the creator of this open private table."""
    from django.db import transaction

    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None or not table.private or not table.is_open or not is_host(table, user):
            return None
        table.invite_token = new_token()
        table.save(update_fields=["invite_token"])
    return table
