"""Where the database's time goes in a step of `python -m bench live --pg-stats`.

With `--pg-stats` the stack runs a PostgreSQL server of its own, with pg_stat_statements loaded (the machine's
server is shared and is not restarted to load it). Around each play step `DatabaseMeter` reads, on that server:

- the statements that took the most of its time (pg_stat_statements, reset as the step begins): calls, mean (of
  which planning, `track_planning`) and share. Their time includes waits for row locks, so a statement that queues
  (a table's row, the house's account) shows here though it costs no CPU;
- the WAL written per accepted message (the write-ahead log's position before and after);
- the share of the table rows' updates that were heap-only (HOT: no index written), from pg_stat_user_tables.
  PostgreSQL flushes a backend's table counters when it is next busy, or after ten idle seconds: the last second of
  a step may count in the next one.

Its own connection, opened and closed as a step begins and as it ends, so it holds none while the load runs.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import psycopg

TOP = 8  # statements shown a step
QUERY_CHARS = 90


@dataclass(frozen=True, slots=True)
class Statement:
    calls: int
    mean_ms: float  # planning and execution
    plan_ms: float  # of which planning (a prepared statement's generic plan: none)
    total_ms: float
    share: float  # of the time of every statement in the step
    query: str


def _connect(url: str) -> psycopg.Connection:
    return psycopg.connect(url, autocommit=True, connect_timeout=10)


def enable(url: str) -> None:
    """pg_stat_statements in the bench's database (its server was started with the library loaded)."""
    with _connect(url) as connection:
        connection.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")


_COUNTERS = (
    "SELECT coalesce(sum(n_tup_upd), 0)::bigint, coalesce(sum(n_tup_hot_upd), 0)::bigint FROM pg_stat_user_tables "
    "WHERE relname = 'tables_table'"
)


class DatabaseMeter:
    """`with DatabaseMeter(url) as db: …` then `db.report(accepted)`: one connection as the step begins, one as it
    ends."""

    def __init__(self, url: str):
        self.url = url

    def __enter__(self):
        with _connect(self.url) as connection:
            connection.execute("SELECT pg_stat_statements_reset()")
            (self.lsn,) = connection.execute("SELECT pg_current_wal_lsn()::text").fetchone()
            self.updates, self.hot = connection.execute(_COUNTERS).fetchone()
        return self

    def __exit__(self, *exc):
        with _connect(self.url) as connection:
            (self.wal,) = connection.execute(
                "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), %s::pg_lsn)::bigint", (self.lsn,)
            ).fetchone()
            updates, hot = connection.execute(_COUNTERS).fetchone()
            self.updates, self.hot = updates - self.updates, hot - self.hot
            self.statements = connection.execute(
                "SELECT calls, total_plan_time + total_exec_time, total_plan_time, query FROM pg_stat_statements "
                "WHERE calls > 0 ORDER BY 2 DESC"
            ).fetchall()

    def report(self, accepted: int) -> dict:
        total = sum(row[1] for row in self.statements) or 1.0
        top = [
            Statement(calls, round(ms / calls, 3), round(planning / calls, 3), round(ms, 1), round(ms / total, 3),
                      " ".join(query.split())[:QUERY_CHARS])  # fmt: skip
            for calls, ms, planning, query in self.statements[:TOP]
        ]
        return {
            "wal_bytes_per_message": round(self.wal / accepted) if accepted else None,
            "table_updates": self.updates,
            "table_updates_hot_percent": round(100 * self.hot / self.updates, 1) if self.updates else None,
            "statement_ms": round(total, 1),
            "top_statements": [asdict(s) for s in top],
        }


def print_report(db: dict, say=print) -> None:
    say(f"        database: WAL {db['wal_bytes_per_message']} bytes per accepted message; table row updates "
        f"{db['table_updates']}, heap-only {db['table_updates_hot_percent']} %; statements' time "
        f"{db['statement_ms'] / 1000:.1f} s, the most:")  # fmt: skip
    for s in db["top_statements"]:
        say(f"          {s['share'] * 100:5.1f} %  {s['calls']:6d} calls  {s['mean_ms']:7.3f} ms "
            f"(planning {s['plan_ms']:.3f})  {s['query']}")
