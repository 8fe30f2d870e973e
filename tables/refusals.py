"""The engine's refusals in the viewer's language. The engine imports nothing from Django and says why in English
(IllegalAction's text); the door hands that text on through `engine_refusal`, which finds it here and makes a lazy
translation of it (tables/errors.py `said`). A text not listed stays English: the engine's own refusals the
platform never lets a player reach (a malformed action, a timeout by a seat) are among those."""

from __future__ import annotations

import re

from django.utils.translation import gettext_lazy as _

from .errors import said
from .words import moves

# Whole texts, and texts with values (named groups fill the translation's %(name)s places).
_FIXED = {
    "it is not your turn": _("it is not your turn"),
    "there is no move for you to make now": _("there is no move for you to make now"),
    "nobody raises after an all-in (D6): call or fold": _("nobody raises after an all-in (D6): call or fold"),
    "only the first player, before looking, can bet blind": _(
        "only the first player, before looking, can bet blind"
    ),
    "there is nothing for you to show now": _("there is nothing for you to show now"),
    "there is no split to choose now": _("there is no split to choose now"),
    "you have chosen already": _("you have chosen already"),
    "no svara buy-in is offered to you now": _("no svara buy-in is offered to you now"),
    "that seat is empty": _("that seat is empty"),
    "that seat is taken": _("that seat is taken"),
    "you already sit at this table": _("you already sit at this table"),
    "you are already leaving: the seat frees when this deal is over": _(
        "you are already leaving: the seat frees when this deal is over"
    ),
    "chips can be added between deals only (D15)": _("chips can be added between deals only (D15)"),
    "you are leaving this table": _("you are leaving this table"),
    "add a whole number of chips, at least 1": _("add a whole number of chips, at least 1"),
    "you are already sitting out": _("you are already sitting out"),
    "you are not sitting out": _("you are not sitting out"),
    "you have less than one ante: add chips to come back (D16)": _(
        "you have less than one ante: add chips to come back (D16)"
    ),
    "a deal is being played": _("a deal is being played"),
    "you are ready already": _("you are ready already"),
    "you have less than one ante: add chips first (D16)": _(
        "you have less than one ante: add chips first (D16)"
    ),
    "you have no cards": _("you have no cards"),
    "you have folded": _("you have folded"),
    "choose a card to open: 0, 1 or 2": _("choose a card to open: 0, 1 or 2"),
    "that card is open already": _("that card is open already"),
}
_PATTERNS = [
    (re.compile(r"in the blind round you double the last blind bet or fold \(you may: (?P<may>.*)\)"),
     _("in the blind round you double the last blind bet or fold (you may: %(may)s)")),
    (re.compile(r"after a dark bet you bet at least twice it or fold \(you may: (?P<may>.*)\)"),
     _("after a dark bet you bet at least twice it or fold (you may: %(may)s)")),
    (re.compile(r"you cannot check: (?P<owed>\d+) to call"), _("you cannot check: %(owed)s to call")),
    (re.compile(r"you cannot (?P<kind>\w+) now \(you may: (?P<may>.*)\)"),
     _("you cannot %(kind)s now (you may: %(may)s)")),
    (re.compile(r"say how much: your level after the (?P<kind>\w+), (?P<low>\d+) to (?P<high>\d+)"),
     _("say how much: your level after the %(kind)s, %(low)s to %(high)s")),
    (re.compile(r"this (?P<kind>\w+) brings your level to exactly (?P<level>\d+)"),
     _("this %(kind)s brings your level to exactly %(level)s")),
    (re.compile(r"a raise must bring your level to at least (?P<level>\d+)"),
     _("a raise must bring your level to at least %(level)s")),
    (re.compile(r"a bet is at least (?P<level>\d+)"), _("a bet is at least %(level)s")),
    (re.compile(r"a dark bet is at least (?P<level>\d+)"), _("a dark bet is at least %(level)s")),
    (re.compile(r"you have (?P<stack>\d+) chips: your level can reach (?P<level>\d+) at most"),
     _("you have %(stack)s chips: your level can reach %(level)s at most")),
    (re.compile(r"a (?P<kind>\w+) is at most the pot: (?P<level>\d+)"), _("a %(kind)s is at most the pot: %(level)s")),
    (re.compile(r"you cannot buy in: the price is (?P<price>\d+)"), _("you cannot buy in: the price is %(price)s")),
]  # fmt: skip


def engine_refusal(text: str):
    """The engine's refusal `text` as a lazy translation, or the text itself when it is not listed."""
    if text in _FIXED:
        return _FIXED[text]
    for pattern, message in _PATTERNS:
        found = pattern.fullmatch(text)
        if found:
            values = found.groupdict()
            for name in ("kind", "may"):  # the moves, as the viewer's buttons say them
                if name in values:
                    values[name] = moves(values[name])
            return said(message, **values)
    return text


# "Count the hand": the engine's words for a hand it cannot count (tables/engine/cards.py, points.py).
_CARD_PATTERNS = [
    (re.compile(r"no cards given"), _("no cards given")),
    (re.compile(r"not a card: (?P<text>.*) \(write it like A♥, Ah, 10h or Th\)"),
     _("not a card: %(text)s (write it like A♥, Ah, 10h or Th)")),
    (re.compile(r"not a card: (?P<text>.*) \(no rank (?P<rank>.*); ranks are 6-10, J, Q, K, A\)"),
     _("not a card: %(text)s (no rank %(rank)s; ranks are 6-10, J, Q, K, A)")),
    (re.compile(r"not a card: (?P<text>.*) \(no suit (?P<suit>.*); suits are ♠♥♦♣ or s h d c\)"),
     _("not a card: %(text)s (no suit %(suit)s; suits are ♠♥♦♣ or s h d c)")),
    (re.compile(r"a hand is three cards, not (?P<count>\d+)"), _("a hand is three cards, not %(count)s")),
    (re.compile(r"(?P<card>\S+) is in the hand twice"), _("%(card)s is in the hand twice")),
    (re.compile(r"(?P<card>\S+) is not in the (?P<family>\w+) deck"), _("%(card)s is not in the %(family)s deck")),
    (re.compile(r"no such family: (?P<family>.*) \(one of (?P<families>.*)\)"),
     _("no such family: %(family)s (one of %(families)s)")),
]  # fmt: skip


def card_refusal(text: str) -> str:
    """Why a hand cannot be counted, in the active language (the engine's English when not listed)."""
    for pattern, message in _CARD_PATTERNS:
        found = pattern.fullmatch(text)
        if found:
            return str(said(message, **found.groupdict()))
    return text
