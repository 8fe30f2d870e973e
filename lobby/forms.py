"""Creating a table and finding a seat: the lobby's forms. The table server re-checks everything (its door)."""

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tables.engine.rules import MAX_ANTE, MIN_SEATS
from tables.models import SEATS_BY_FAMILY, Family

MAX_SEATS = max(high for _, high in SEATS_BY_FAMILY.values())
_CLASSIC, _BULGARIAN = SEATS_BY_FAMILY[Family.CLASSIC], SEATS_BY_FAMILY[Family.BULGARIAN]
SEATS_HELP = format_lazy(
    _("{classic_low}–{classic_high} seats for classic, {bulgarian_low}–{bulgarian_high} for bulgarian."),
    classic_low=_CLASSIC[0], classic_high=_CLASSIC[1], bulgarian_low=_BULGARIAN[0], bulgarian_high=_BULGARIAN[1],
)


class CreateTableForm(forms.Form):
    family = forms.ChoiceField(label=_("Family"), choices=Family.choices, initial=Family.CLASSIC)
    ante = forms.IntegerField(
        label=_("Ante"), min_value=1, max_value=MAX_ANTE, initial=10, help_text=_("Chips each player puts in per deal.")
    )
    seats = forms.IntegerField(
        label=_("Seats"), min_value=MIN_SEATS, max_value=MAX_SEATS, initial=6, help_text=SEATS_HELP
    )
    bots_allowed = forms.BooleanField(
        required=False, label=_("Bots may sit"), help_text=_("No rake at a table with a bot.")
    )
    private = forms.BooleanField(
        required=False, label=_("Private"),
        help_text=_("Not in the lobby for others: only people you send its invite link may watch or sit."),
    )  # fmt: skip

    def clean(self):
        data = super().clean()
        family, seats = data.get("family"), data.get("seats")
        if family in SEATS_BY_FAMILY and seats is not None:
            low, high = SEATS_BY_FAMILY[family]
            if not low <= seats <= high:
                self.add_error("seats", _("A %(family)s table has %(low)s to %(high)s seats.") % {
                    "family": gettext(family), "low": low, "high": high})  # fmt: skip
        return data


class QuickSeatForm(forms.Form):
    """What a fitting table looks like; every field may be left open."""

    family = forms.ChoiceField(label=_("Family"), choices=[("", _("any")), *Family.choices], required=False)
    ante_min = forms.IntegerField(label=_("Ante from"), min_value=1, required=False)
    ante_max = forms.IntegerField(label=_("to"), min_value=1, required=False)
    bots = forms.ChoiceField(
        label=_("Bots"), choices=[("", _("any")), ("yes", _("with bots")), ("no", _("no bots"))], required=False
    )

    def clean(self):
        data = super().clean()
        low, high = data.get("ante_min"), data.get("ante_max")
        if low is not None and high is not None and low > high:
            self.add_error("ante_max", _("The highest ante must not be below the lowest."))
        return data

    def fits(self, table: dict) -> bool:
        data = self.cleaned_data
        if table["seats_taken"] >= table["seats"]:
            return False
        if data.get("family") and table["family"] != data["family"]:
            return False
        if data.get("ante_min") is not None and table["ante"] < data["ante_min"]:
            return False
        if data.get("ante_max") is not None and table["ante"] > data["ante_max"]:
            return False
        if data.get("bots") == "yes" and not table["bots_allowed"]:
            return False
        if data.get("bots") == "no" and table["bots_allowed"]:
            return False
        return True
