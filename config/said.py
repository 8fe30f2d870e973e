"""Words made in the reader's language when they are read, not when they are said.

What the door, the ledger and the limits make carries no viewer's language (a Celery task has none; a door thread
inherits the acting socket's, which the table's other viewers must never read): a refusal they raise is a lazy
text that the consumer or the view telling the viewer turns into his language (docs/translations.md)."""

from django.utils import formats
from django.utils.functional import Promise, lazy


def _fill(message, values: dict) -> str:
    return str(message) % {name: str(value) for name, value in values.items()} if values else str(message)


_filled = lazy(_fill, str)


def said(message, **values):
    """`message` (a gettext_lazy text with %(name)s places) filled with `values` (a lazy value is translated too),
    as a lazy text. Any other value that is not a plain string or number (a model instance) is turned into text
    here, where it is said: read later on the consumer's event loop, its `__str__` could not query the database."""
    return _filled(message, {name: _at_once(value) for name, value in values.items()})


def _at_once(value):
    return value if isinstance(value, Promise | str | int | float) else str(value)


def _grouped(number: int) -> str:
    return formats.number_format(number, force_grouping=True)


# A count of chips as the reader's language writes it (1,000 · 1 000), when it is read.
grouped = lazy(_grouped, str)
