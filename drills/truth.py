"""The stored truth of every version of every table, kept by the drill's own database while the drill runs.

The table row holds only its newest state; a drill checks frames sent at older versions, and clocks run out
between them. So the drill installs a trigger on `tables_table` (in the database it created, never in a
migration): every written version's stored text, its clock's deadline and the time it was written
(clock_timestamp(), inside the writing transaction) go into `drill_table_versions`. Reading the truth back needs
nothing but the engine: `TableState.loads` of the stored text.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

INSTALL = """
CREATE TABLE IF NOT EXISTS drill_table_versions (
    table_id bigint NOT NULL,
    version integer NOT NULL,
    state text NOT NULL,
    clock_deadline timestamptz,
    written_at timestamptz NOT NULL,
    rewritten integer NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, version)
);
CREATE OR REPLACE FUNCTION drill_keep_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' OR NEW.version IS DISTINCT FROM OLD.version OR NEW.state IS DISTINCT FROM OLD.state THEN
        INSERT INTO drill_table_versions (table_id, version, state, clock_deadline, written_at)
        VALUES (NEW.id, NEW.version, NEW.state, NEW.clock_deadline, clock_timestamp())
        -- the same version written with another text: the door's promise broken, counted by the drill
        ON CONFLICT (table_id, version) DO UPDATE
            SET rewritten = drill_table_versions.rewritten + 1, state = EXCLUDED.state;
    ELSIF NEW.clock_deadline IS DISTINCT FROM OLD.clock_deadline THEN
        -- a clock stopped or moved without a new version (a refused timeout): the deadline that counts
        UPDATE drill_table_versions SET clock_deadline = NEW.clock_deadline
            WHERE table_id = NEW.id AND version = NEW.version;
    END IF;
    RETURN NULL;
END $$;
DROP TRIGGER IF EXISTS drill_keep_version ON tables_table;
CREATE TRIGGER drill_keep_version AFTER INSERT OR UPDATE ON tables_table
    FOR EACH ROW EXECUTE FUNCTION drill_keep_version();
"""


def install(cursor) -> None:
    """Keep every version from now on (a cursor of the drill's own database, Django's or psycopg's)."""
    cursor.execute(INSTALL)


@dataclass(frozen=True, slots=True)
class Version:
    version: int
    state: str  # the stored text: every card dealt
    deadline: datetime | None  # the running clock's deadline at this version
    written_at: datetime
    rewritten: int


class TableTruth:
    """Every stored version of one table; states are decoded once, when first asked for."""

    def __init__(self, table_id: int, versions: list[Version]):
        self.table_id = table_id
        self.versions = {v.version: v for v in versions}
        self._states: dict[int, object] = {}
        self._award_before: dict[int, object] = {}

    def state(self, version: int):
        """The engine's TableState at `version`, or None if that version was never stored."""
        if version not in self._states:
            from tables.engine.play import TableState

            stored = self.versions.get(version)
            self._states[version] = None if stored is None else TableState.loads(stored.state)
        return self._states[version]

    def before_award(self, deal_no: int):
        """The state just before the version that awarded deal `deal_no`'s pot (the cards its shown hands held)."""
        if deal_no not in self._award_before:
            found = None
            for version in sorted(self.versions):
                state = self.state(version)
                if state.result is not None and state.result[0] == deal_no:
                    found = self.state(version - 1)
                    break
            self._award_before[deal_no] = found
        return self._award_before[deal_no]

    def deals_played(self) -> int:
        """Deals whose pot was awarded (a svara's deals count once, with their deal)."""
        awarded = set()
        for version in self.versions:
            result = self.state(version).result
            if result is not None:
                awarded.add(result[0])
        return len(awarded)


def read(cursor, table_ids: list[int] | None = None) -> dict[int, TableTruth]:
    """The kept versions, by table."""
    sql = "SELECT table_id, version, state, clock_deadline, written_at, rewritten FROM drill_table_versions"
    params: list = []
    if table_ids is not None:
        sql += " WHERE table_id = ANY(%s)"
        params.append(list(table_ids))
    cursor.execute(sql + " ORDER BY table_id, version", params)
    by_table: dict[int, list[Version]] = {}
    for table_id, version, state, deadline, written_at, rewritten in cursor.fetchall():
        by_table.setdefault(table_id, []).append(Version(version, state, deadline, written_at, rewritten))
    return {table_id: TableTruth(table_id, versions) for table_id, versions in by_table.items()}


@dataclass(frozen=True, slots=True)
class Lateness:
    """How late one clock was run out: the next version came `seconds` after the deadline of the one before."""

    table_id: int
    version: int  # the version whose clock ran out
    deadline: datetime
    enforced_at: datetime

    @property
    def seconds(self) -> float:
        return (self.enforced_at - self.deadline).total_seconds()


def clock_lateness(truth: TableTruth, now: datetime) -> list[Lateness]:
    """Every clock that passed its deadline before the table moved on, with how late it moved (a clock still
    running out at `now` counts up to `now`). A move made after the deadline counts as late as a timeout would."""
    late = []
    ordered = sorted(truth.versions)
    for i, version in enumerate(ordered):
        stored = truth.versions[version]
        if stored.deadline is None:
            continue
        following = truth.versions.get(ordered[i + 1]) if i + 1 < len(ordered) else None
        moved_at = following.written_at if following is not None else now
        if moved_at > stored.deadline:
            late.append(Lateness(truth.table_id, version, stored.deadline, moved_at))
    return late
