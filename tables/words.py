"""The game's words that reach a page as data (a family, a bot level, a named hand, a phase) marked for the
translation catalogue: the engine stays free of Django and keeps its English names, and a template or view turns
them into the viewer's language with `translated` (docs/translations.md)."""

from django.utils.translation import gettext
from django.utils.translation import gettext_noop as N

from .engine import points

FAMILIES = {"classic": N("classic"), "bulgarian": N("bulgarian")}
BOT_LEVELS = {"easy": N("easy"), "strong": N("strong")}
# The players' own names for the named hands (RULES.md: "three shakhas", "three foreheads", "top trynki"...).
HAND_NAMES = {
    points.THREE_SHAKHAS: N("three shakhas"),
    points.THREE_FOREHEADS: N("three foreheads"),
    points.TOP_TRYNKI: N("top trynki"),
    points.TWO_FOREHEADS: N("two foreheads"),
    points.THREE_SEVENS: N("three sevens"),
    points.THREE_ACES: N("three aces"),
    points.TWO_SEVENS: N("two sevens"),
    points.TWO_ACES: N("two aces"),
}


def hand_name(name: str | None) -> str | None:
    """A named hand in the active language (None stays None)."""
    return gettext(name) if name else name


def translated(word: str) -> str:
    """A family or a bot level in the active language; an unknown word as it is."""
    return gettext(word) if word in FAMILIES or word in BOT_LEVELS else word
