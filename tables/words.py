"""The game's words that reach a page as data (a family, a bot level, a named hand, a phase) marked for the
translation catalogue: the engine stays free of Django and keeps its English names, and a template or view turns
them into the viewer's language (`{% translate table.family %}`, `hand_name`; docs/translations.md)."""

from django.utils.functional import lazy
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


# The moves a refusal names (the protocol's kinds), as their buttons say them (static/js/table/): "you cannot
# raise now (you may: call, fold)" reads «Повысить», «Уравнять» in Russian, not the protocol's words.
MOVES = {
    "check": gettext_noop("Check"),
    "call": gettext_noop("Call"),
    "bet": gettext_noop("Bet"),
    "raise": gettext_noop("Raise"),
    "fold": gettext_noop("Fold"),
    "blind": gettext_noop("Blind"),
    "dark": gettext_noop("In the dark"),
    "open": gettext_noop("Open a card"),
    "show": gettext_noop("Show"),
    "fold_hand": gettext_noop("Fold unseen"),
    "split": gettext_noop("Split"),
    "play_on": gettext_noop("Play on"),
    "buy_in": gettext_noop("Buy in"),
    "decline": gettext_noop("Decline"),
    "new_deal": gettext_noop("New deal"),
    "sit_out": gettext_noop("Sit out"),
    "back": gettext_noop("Back"),
    "stand": gettext_noop("Stand up"),
    "add_chips": gettext_noop("Add chips"),
    "sit": gettext_noop("Sit down"),
}


def _moves(kinds: str) -> str:
    """`kinds` ("call" or "call, fold") as the buttons say them in the active language, each in quotes."""
    return ", ".join(gettext("“%(move)s”") % {"move": gettext(MOVES.get(kind, kind))} for kind in kinds.split(", "))


moves = lazy(_moves, str)  # said in the door, read in the viewer's language
