"""Model rows sent to PostgreSQL as one JSON text that `json_to_recordset` reads, typed by their columns' own types.

psycopg dumps one text where it dumped a value, or a typed array, per column in Python, and the statement's text is
the same for any number of rows (so it is prepared once). For rows whose values are plain (text, whole numbers, an
aware time, JSON values): each column's type takes them as its field would give them. The door's events and the
ledger's transfers travel so (tables/services/statements.py, wallet/batch.py)."""

import orjson
from django.db import connection


def insert_sql(model, fields, alias: str) -> str:
    """`INSERT INTO <model's table> (<fields' columns>) SELECT * FROM json_to_recordset(%s::json) AS <alias>(…)`."""
    q = connection.ops.quote_name
    typed = ", ".join(f"{q(f.column)} {f.db_type(connection)}" for f in fields)
    return (
        f"INSERT INTO {q(model._meta.db_table)} ({', '.join(q(f.column) for f in fields)}) "
        f"SELECT * FROM json_to_recordset(%s::json) AS {alias}({typed})"
    )


def dumps(rows, fields) -> str:
    """The rows as the JSON objects `insert_sql` reads, keyed by column."""
    # A JSON value may map whole numbers (seats) to chips: JSON writes those keys as text, as json.dumps does.
    return orjson.dumps(
        [{f.column: getattr(row, f.attname) for f in fields} for row in rows], option=orjson.OPT_NON_STR_KEYS
    ).decode()
