"""Reads for pages, the lobby and consumers; nothing here writes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from django.db.models import Q
from django.utils import timezone

from .models import Table, TableSeat, TableStatus
from .reads import deal_events, last_chat_lines, offline_at, table_row
from .state_io import events_for, public_events, seat_of

CHAT_HISTORY_LINES = 30  # the chat lines a page opened later starts with


def open_tables(viewer=None) -> list[dict]:
    """The lobby's list for `viewer`: every open table he may see (private ones only for their creator and
    staff, tables/access.py) with its family, ante, seats taken, who sits, and whether bots may sit."""
    tables = Table.objects.filter(status=TableStatus.OPEN).order_by("id")
    if viewer is None or not getattr(viewer, "is_authenticated", False):
        tables = tables.filter(private=False)
    elif not viewer.is_staff:
        tables = tables.filter(Q(private=False) | Q(created_by=viewer))
    return _entries(tables)


@dataclass(frozen=True, slots=True)
class LobbyEntry:
    """One table's lobby entry (None once it is closed or gone) at its version, and who may hear of it: everyone,
    or (a private table) only its creator and staff."""

    version: int
    entry: dict | None
    private: bool = False
    creator_id: int | None = None


def lobby_entry(table_id: int) -> LobbyEntry:
    """One table's entry for a lobby update."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return LobbyEntry(0, None)
    entry = _entries([table])[0] if table.is_open else None
    return LobbyEntry(table.version, entry, table.private, table.created_by_id)


def _entries(rows) -> list[dict]:
    tables = list(rows)
    seats = TableSeat.objects.filter(table__in=tables).select_related("user").order_by("table_id", "seat")
    players: dict[int, list[dict]] = {t.pk: [] for t in tables}
    for row in seats:
        players[row.table_id].append(
            {"seat": row.seat, "name": row.user.table_name, "is_bot": row.user.is_bot}
        )
    return [
        {
            "id": t.pk,
            "version": t.version,
            "family": t.family,
            "ante": t.ante,
            "seats": t.seats,
            "seats_taken": len(players[t.pk]),
            "bots_allowed": t.bots_allowed,
            "private": t.private,
            "players": players[t.pk],
            "url": f"/tables/{t.pk}/",
        }
        for t in tables
    ]


def get_table(table_id) -> Table | None:
    try:
        return Table.objects.get(pk=table_id)
    except (Table.DoesNotExist, ValueError, TypeError):
        return None


def load_state(table: Table):
    from tables.engine.play import TableState

    return TableState.loads(table.state)


@dataclass(frozen=True, slots=True)
class Committed:
    """One committed version of a table, as stored: what every viewer's snapshot is rendered from. It comes from
    the table's row (on connect, or when asked) or from the group message of a change (notify.py), so a change
    reaches every viewer without a query."""

    table: dict  # id, family, ante, seats, bots_allowed, private, status
    version: int
    state: str  # the stored text: every card dealt (it never leaves the servers; `snapshot` renders a view)
    clock: dict | None  # kind, seats, deadline (ISO time)

    @classmethod
    def of_table(cls, table: Table) -> Committed:
        return cls(facts_of(table), table.version, table.state, clock_of(table))

    def changed(self, message: dict) -> Committed:
        """The same table at the version a group message (notify.Change.message) carries."""
        return Committed({**self.table, "status": message["status"]}, message["version"], message["state"],
                         message["clock"])  # fmt: skip


def clock_of(table: Table) -> dict | None:
    """The table's running clock as a snapshot, a group message and optimistic.known tell it (`clock_from`)."""
    return clock_from(table.clock_kind, table.clock_seats, table.clock_deadline)


def clock_from(kind: str, seats, deadline: datetime | None) -> dict | None:
    """A row's clock columns as the clock is told (None when none runs): its deadline in UTC, whatever time zone the
    connection that read the row keeps."""
    if deadline is None:
        return None
    return {"kind": kind, "seats": list(seats), "deadline": deadline.astimezone(UTC).isoformat()}


def facts_of(table: Table) -> dict:
    """What a snapshot says of the table itself, besides its state and clock."""
    return {"id": table.pk, "family": table.family, "ante": table.ante, "seats": table.seats,
            "bots_allowed": table.bots_allowed, "private": table.private, "status": table.status}  # fmt: skip


def committed(table_id, viewer=None, session=None, *, check_access: bool = False) -> Committed | None:
    """The table as committed; with `check_access`, None too when it is private and `viewer` (with the socket's
    `session`) may not see it: the same answer as for an id that names no table."""
    table = table_row(table_id) if isinstance(table_id, int) else get_table(table_id)
    if table is None:
        return None
    if check_access:
        from .access import may_see

        if not may_see(table, viewer, session):
            return None
    return Committed.of_table(table)


# The tables' newest decoded states in this process, by table and version, with the stored text each was decoded
# from: a change's snapshots for every viewer here are rendered from one decoding, and in the acting player's
# process from the door's own state (`remember`), none. Several versions a table: a group message can arrive after
# a newer change of its table (docs/protocol.md, "Versions"). The text is compared too: a test database reuses ids.
_decoded: dict[tuple[int, int], tuple[str, object]] = {}
_DECODED_MAX = 1024  # the oldest forgotten first (a decoded state is a few kilobytes)


def decoded(committed: Committed):
    """The engine's TableState of `committed` (shared by every viewer's snapshot here: read, never changed)."""
    from tables.engine.play import TableState

    key = (committed.table["id"], committed.version)
    memo = _decoded.get(key)
    if memo is not None and memo[0] == committed.state:
        return memo[1]
    state = TableState.loads(committed.state)
    remember(key[0], committed.state, state)
    return state


def remember(table_id: int, stored: str, state) -> None:
    """`state` is what `stored` decodes to (the door's own, after commit): the next snapshots need not decode it. An
    entry serves only a snapshot of that very text (`decoded` compares it), so a wrong pairing costs a decoding, never
    a wrong view."""
    _decoded[table_id, state.version] = (stored, state)
    if len(_decoded) > _DECODED_MAX:
        _decoded.pop(next(iter(_decoded), None), None)  # a page's thread may have evicted it first


def snapshot(committed: Committed, user_id: int | None, now: datetime | None = None) -> dict:
    """The `snapshot` message for one viewer: `state.view(seat)` of the committed state, never another's cards."""
    state = decoded(committed)
    seat = seat_of(state, user_id)
    view = state.view(seat)
    clock = committed.clock
    if clock is not None:
        left = (datetime.fromisoformat(clock["deadline"]) - (now or timezone.now())).total_seconds()
        clock = {**clock, "seconds_left": round(max(left, 0.0), 1)}
    return {
        "type": "snapshot",
        "version": committed.version,
        "seat": seat,
        "table": committed.table,
        "clock": clock,
        "legal": view["legal"],
        "state": view,
    }


def snapshot_for(table: Table, user) -> dict:
    """The snapshot of the table's row for one user (None or anonymous: a spectator)."""
    user_id = user.pk if user is not None and getattr(user, "is_authenticated", False) else None
    return snapshot(Committed.of_table(table), user_id)


@dataclass(frozen=True, slots=True)
class TableHistory:
    """What a page opened (or reloaded) later starts with, in its first snapshot (`history`): the last chat lines,
    the running (or last) deal's log, and the names of that deal's seats (a player who has left since is still
    named, not "seat 3")."""

    chat: list[dict]
    log: list[dict]  # engine events as JSON: public ones, and the viewer's own only while he plays the deal
    deal_no: int
    names: dict[int, str]
    offline: list[str]  # the seated humans' player ids with no open connection (reads.offline_at)

    def message(self) -> dict:
        return {"deal_no": self.deal_no, "chat": self.chat, "log": self.log,
                "names": {str(seat): name for seat, name in self.names.items()}, "offline": self.offline}  # fmt: skip


def history(committed: Committed, user_id: int | None) -> TableHistory:
    """What a reloaded page needs besides the snapshot of `committed` (the version it is sent with)."""
    from tables.engine.play import TableState

    table_id = committed.table["id"]
    state = TableState.loads(committed.state)
    seat = seat_of(state, user_id)
    chat = [line.to_json() for line in last_chat_lines(table_id, CHAT_HISTORY_LINES)]
    # Up to the snapshot's version: the log must tell what that version knew, not a change committed since (a hand
    # shown a moment later: the frame audit caught such logs on reconnects under load).
    events = deal_events(table_id, state.deal_no, up_to_version=committed.version)
    # A private event (a card its seat opened) goes only to the player dealt in at that seat in the running deal:
    # between deals the seat may have changed hands since.
    playing = state.phase != "waiting" and seat is not None and state.seats[seat].in_deal
    log = events_for(events, seat) if playing else public_events(events)
    names = {i: s.name for i, s in enumerate(state.seats) if s.player is not None}
    for event in events[:1]:  # deal_started names the deal's players, those who have left since too
        if event.get("type") == "deal_started":
            names.update(zip(event["seats"], event.get("names", ()), strict=False))
    return TableHistory(chat, log, state.deal_no, names, offline_at(table_id))
