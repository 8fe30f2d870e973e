"""Rows read in plain SQL, made into values exactly as the ORM makes them: through the converters it applies to each
column (JSON text to a value, a timestamp to an aware datetime). Used where compiling the ORM's query cost more than
running it: the door's statements (tables/services/statements.py) and a socket's first reads (tables/reads.py)."""

from __future__ import annotations

from functools import cache

from django.db import DEFAULT_DB_ALIAS, connection, connections


def db():
    """The connection itself, looked up once per statement: every attribute read through `django.db.connection`
    looks it up again in a thread-local (a sixteenth of a door action's time, counted in `bench door`'s profile)."""
    return connections[DEFAULT_DB_ALIAS]


def q(name: str) -> str:
    return connection.ops.quote_name(name)


@cache
def fields_of(model) -> tuple:
    return tuple(model._meta.concrete_fields)


@cache
def columns_of(model) -> str:
    """Every concrete column of the model, qualified by its table, in `fields_of` order."""
    table = q(model._meta.db_table)
    return ", ".join(f"{table}.{q(f.column)}" for f in fields_of(model))


@cache
def _converters(vendor: str, model, name: str):
    """What the ORM does to a value read from this column on this database (e.g. JSON text to a value)."""
    field = model._meta.get_field(name)
    column = field.get_col(model._meta.db_table)
    converters = connection.ops.get_db_converters(column) + field.get_db_converters(connection)
    return [(convert, column) for convert in converters]


def from_db(db, model, name: str, value):
    for convert, column in _converters(db.vendor, model, name):
        value = convert(value, column, db)
    return value


def instance(db, model, row):
    """A model instance of a row of `columns_of(model)` (as `Model.from_db` makes one for a queryset)."""
    fields = fields_of(model)
    values = [from_db(db, model, f.name, v) for f, v in zip(fields, row, strict=False)]
    return model.from_db(db.alias, [f.attname for f in fields], values)
