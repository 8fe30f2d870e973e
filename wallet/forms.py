from datetime import timedelta

from django import forms
from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .limits import EXCLUSION_PERIODS

# A report over more than this many days is refused: the chart and the queries stay small.
MAX_RANGE_DAYS = 366


class DateRangeForm(forms.Form):
    date_from = forms.DateField(
        label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"}), help_text=_("YYYY-MM-DD")
    )
    date_to = forms.DateField(
        label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"}), help_text=_("YYYY-MM-DD")
    )

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        today = timezone.localdate()
        end = cleaned.get("date_to") or today
        start = cleaned.get("date_from") or end - timedelta(days=29)
        if start > end:
            raise forms.ValidationError(
                _("The start date %(start)s is after the end date %(end)s.") % {"start": start, "end": end}
            )
        if (end - start).days + 1 > MAX_RANGE_DAYS:
            raise forms.ValidationError(_("Choose at most %(days)s days.") % {"days": MAX_RANGE_DAYS})
        cleaned["date_from"], cleaned["date_to"] = start, end
        return cleaned


def find_player(text: str):
    text = (text or "").strip()
    User = get_user_model()
    user = User.objects.filter(email__iexact=text).first()
    if user is None and text.isdigit():
        user = User.objects.filter(pk=int(text)).first()
    return user


class StatementForm(DateRangeForm):
    player = forms.CharField(label=_("Player (e-mail or id)"), max_length=254)
    field_order = ["player", "date_from", "date_to"]

    def clean_player(self):
        user = find_player(self.cleaned_data["player"])
        if user is None:
            raise forms.ValidationError(_("No player with that e-mail or id."))
        if user.is_bot:
            raise forms.ValidationError(_("Bots have no balance; see the bots' pool in circulation."))
        return user


class AdjustBalanceForm(forms.Form):
    """Staff credit or debit a player, or fund the bots' pool, with the reason recorded against them."""

    player = forms.CharField(
        label="Player (e-mail or id)",
        max_length=254,
        required=False,
        help_text="Not needed to fund the bots.",
    )
    direction = forms.ChoiceField(
        choices=[
            ("credit", "Credit (give chips)"),
            ("debit", "Debit (take chips)"),
            ("fund_bots", "Fund the bots' pool from the treasury"),
        ]
    )
    amount = forms.IntegerField(min_value=1, max_value=10**12)
    reason = forms.CharField(max_length=255, widget=forms.TextInput(attrs={"size": 60}))
    # Chosen when the form is shown, so that submitting it twice moves chips once.
    key = forms.CharField(widget=forms.HiddenInput, max_length=120)

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("direction") in ("credit", "debit"):
            text = cleaned.get("player", "")
            user = find_player(text)
            if not text:
                self.add_error("player", "Choose the player to credit or debit.")
            elif user is None:
                self.add_error("player", "No player with that e-mail or id.")
            elif user.is_bot:
                self.add_error("player", "Bots have no balance; fund the bots' pool instead.")
            else:
                cleaned["player"] = user
        return cleaned

    def clean_reason(self):
        reason = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError("Give a reason.")
        return reason


# --- the limits a player sets for himself (wallet/limits.py) ----------------------------------------------------


class LimitsForm(forms.Form):
    """Blank means no limit. Lowering takes effect at once, raising after 24 hours (the page says so)."""

    daily_buy_in_cap = forms.IntegerField(
        label=_("Daily buy-in cap (chips)"), required=False, min_value=1, max_value=10**9,
        help_text=_("Table buy-ins and chips added per day (UTC). Blank: no cap."),
    )
    daily_loss_limit = forms.IntegerField(
        label=_("Daily loss limit (chips)"), required=False, min_value=1, max_value=10**9,
        help_text=_("Chips bought in minus chips cashed out per day (UTC). Blank: no limit."),
    )
    session_minutes = forms.IntegerField(
        label=_("Remind me after (minutes at a table)"), required=False, min_value=1, max_value=24 * 60,
        help_text=_("The table page reminds you how long you have played. Blank: no reminder."),
    )  # fmt: skip


class ExclusionForm(forms.Form):
    period = forms.ChoiceField(
        label=_("Exclude me from play for"), choices=[(key, label) for key, (label, _days) in EXCLUSION_PERIODS.items()]
    )
    confirm = forms.BooleanField(
        label=_("I understand that nobody, not even staff, can lift it before it ends."), required=True,
        error_messages={"required": _("Tick the box to confirm: a self-exclusion cannot be lifted early.")},
    )  # fmt: skip
