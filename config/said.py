"""Words made in the reader's language when they are read, not when they are said.

The door, the ledger and the limits run in no viewer's language (a thread of the door, a Celery task): a refusal
they raise is a lazy text that the consumer or the view telling the viewer turns into his language
(docs/translations.md)."""

from django.utils.functional import lazy


def _fill(message, values: dict) -> str:
    return str(message) % {name: str(value) for name, value in values.items()} if values else str(message)


_filled = lazy(_fill, str)


def said(message, **values):
    """`message` (a gettext_lazy text with %(name)s places) filled with `values` (a lazy value is translated too),
    as a lazy text."""
    return _filled(message, values)
