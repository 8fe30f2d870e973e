"""The game's words that reach a page as data (a family, a bot level, a named hand, a phase) marked for the
translation catalogue: the engine stays free of Django and keeps its English names, and a template or view turns
them into the viewer's language (`{% translate table.family %}`, `hand_name`; docs/translations.md)."""

from django.utils.translation import gettext, gettext_noop

from .engine import points

FAMILIES = {"classic": gettext_noop("classic"), "bulgarian": gettext_noop("bulgarian")}
BOT_LEVELS = {"easy": gettext_noop("easy"), "strong": gettext_noop("strong")}
# The players' own names for the named hands (RULES.md: "three shakhas", "three foreheads", "top trynki"...).
HAND_NAMES = {
    points.THREE_SHAKHAS: gettext_noop("three shakhas"),
    points.THREE_FOREHEADS: gettext_noop("three foreheads"),
    points.TOP_TRYNKI: gettext_noop("top trynki"),
    points.TWO_FOREHEADS: gettext_noop("two foreheads"),
    points.THREE_SEVENS: gettext_noop("three sevens"),
    points.THREE_ACES: gettext_noop("three aces"),
    points.TWO_SEVENS: gettext_noop("two sevens"),
    points.TWO_ACES: gettext_noop("two aces"),
}


def hand_name(name: str | None) -> str | None:
    """A named hand in the active language (None stays None)."""
    return gettext(name) if name else name
