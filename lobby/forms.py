"""Creating a table and finding a seat: the lobby's forms. The table server re-checks everything (its door)."""

from django import forms

from tables.engine.rules import MAX_ANTE, MIN_SEATS
from tables.models import SEATS_BY_FAMILY, Family

MAX_SEATS = max(high for _, high in SEATS_BY_FAMILY.values())
_CLASSIC, _BULGARIAN = SEATS_BY_FAMILY[Family.CLASSIC], SEATS_BY_FAMILY[Family.BULGARIAN]
SEATS_HELP = f"{_CLASSIC[0]}–{_CLASSIC[1]} seats for classic, {_BULGARIAN[0]}–{_BULGARIAN[1]} for bulgarian."


class CreateTableForm(forms.Form):
    family = forms.ChoiceField(choices=Family.choices, initial=Family.CLASSIC)
    ante = forms.IntegerField(min_value=1, max_value=MAX_ANTE, initial=10, help_text="Chips each player puts in per deal.")
    seats = forms.IntegerField(
        min_value=MIN_SEATS, max_value=MAX_SEATS, initial=6, help_text=SEATS_HELP
    )
    bots_allowed = forms.BooleanField(required=False, label="Bots may sit", help_text="No rake at a table with a bot.")
    private = forms.BooleanField(
        required=False, label="Private",
        help_text="Not in the lobby for others: only people you send its invite link may watch or sit.",
    )  # fmt: skip

    def clean(self):
        data = super().clean()
        family, seats = data.get("family"), data.get("seats")
        if family in SEATS_BY_FAMILY and seats is not None:
            low, high = SEATS_BY_FAMILY[family]
            if not low <= seats <= high:
                self.add_error("seats", f"A {family} table has {low} to {high} seats.")
        return data


class QuickSeatForm(forms.Form):
    """What a fitting table looks like; every field may be left open."""

    family = forms.ChoiceField(choices=[("", "any"), *Family.choices], required=False)
    ante_min = forms.IntegerField(min_value=1, required=False)
    ante_max = forms.IntegerField(min_value=1, required=False)
    bots = forms.ChoiceField(choices=[("", "any"), ("yes", "with bots"), ("no", "no bots")], required=False)

    def clean(self):
        data = super().clean()
        low, high = data.get("ante_min"), data.get("ante_max")
        if low is not None and high is not None and low > high:
            self.add_error("ante_max", "The highest ante must not be below the lowest.")
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
