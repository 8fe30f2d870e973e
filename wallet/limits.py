"""The limits a player sets for himself: a daily buy-in cap, a daily loss limit, a session reminder, and a
self-exclusion (tracker issue 14).

Timing: lowering a limit (or setting one where there was none) takes effect at once; raising one (or removing it)
waits 24 hours, shown as pending until then, and lowering again meanwhile cancels the pending raise. A
self-exclusion of a day, a week, a month (30 days) or six months (182 days) starts at once and is never shortened:
a new one only extends it, and there is no way to lift it, for the player or for staff.

The day is the UTC day (00:00 to 24:00 UTC), the same for every player and every server, shown as such. What
counts is read from the ledger, so it is exact: chips bought in that day are the player's table buy-ins and chips
added (transfers of kind `buy_in` and `add_chips` from his balance); his loss that day is those minus his
cash-outs that day (`cash_out` to his balance). A buy-in or chips added are refused when they would take the
chips bought in today past the cap, or when the net loss so far plus the amount (all of which he could lose) would
pass the loss limit: so he can never lose more in a day than his limit, and nobody needs to be stood up at the
table when the limit is reached; he plays on with the chips he has and cannot add more.

The door calls `check_buy_in` inside the buy-in's transaction, after the table's row lock and before the ledger
batch locks the balances: it locks the player's limits row first (`select_for_update`), so two buy-ins from two
tabs (at one table or two) queue there, and the second reads the ledger only after the first committed. The
lock and the read are two statements on purpose: a subquery in the locking statement would read the ledger as of
that statement's start, before the other tab's buy-in committed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.db import transaction
from django.db.models import Q, Sum
from django.utils import dateformat, formats, timezone
from django.utils.functional import lazy
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from config.said import grouped
from config.said import said as lazily_said

from .models import AccountKind, PlayerLimits, Transfer, TransferKind

RAISE_DELAY = timedelta(hours=24)
EXCLUSION_PERIODS = {  # the choices offered, in order
    "day": (_("a day"), timedelta(days=1)),
    "week": (_("a week"), timedelta(days=7)),
    "month": (_("a month (30 days)"), timedelta(days=30)),
    "six_months": (_("six months (182 days)"), timedelta(days=182)),
}
LIMIT_NAMES = {
    "daily_buy_in_cap": _("daily buy-in cap"),
    "daily_loss_limit": _("daily loss limit"),
    "session_minutes": _("session reminder"),
}


SIT_DOWN = _("sit down")  # what a refused buy-in could not do, in "you cannot sit down before then"


class LimitError(Exception):
    """A buy-in (or a table) refused by the player's own limits; `code` is the protocol's error code."""

    def __init__(self, code: str, message):
        super().__init__(message)
        self.code = code
        self.said = message  # kept lazy: whoever reads it turns it into words

    @property
    def message(self) -> str:
        """The words in the language active where they are read (the consumer speaks its viewer's)."""
        return str(self.said)


@dataclass(frozen=True, slots=True)
class Pending:
    value: int | None  # None: the limit is removed then
    effective_from: datetime


@dataclass(frozen=True, slots=True)
class Limits:
    """A player's limits in force at one moment, and the raises still waiting."""

    daily_buy_in_cap: int | None = None
    daily_loss_limit: int | None = None
    session_minutes: int | None = None
    excluded_until: datetime | None = None
    pending: dict[str, Pending] | None = None

    def excluded_at(self, now: datetime) -> bool:
        return self.excluded_until is not None and now < self.excluded_until


NO_LIMITS = Limits(pending={})


def when(moment: datetime) -> str:
    """A moment as the refusals and the profile say it: in UTC, the limits' own clock, with the month's name in
    the active language."""
    return dateformat.format(moment.astimezone(UTC), "j M Y, H:i") + " UTC"


# In a refusal: made in the door, read in the viewer's language.
_when_read = lazy(when, str)


def day_start(now: datetime) -> datetime:
    utc = now.astimezone(UTC)
    return utc.replace(hour=0, minute=0, second=0, microsecond=0)


def in_force(row: PlayerLimits | None, now: datetime | None = None) -> Limits:
    """The limits of a row at `now`: a pending raise whose time has come counts as set."""
    if row is None:
        return NO_LIMITS
    now = now or timezone.now()
    values, pending = {}, {}
    for name in LIMIT_NAMES:
        value, since = getattr(row, name), getattr(row, f"{name}_pending_from")
        if since is not None and since <= now:
            value = getattr(row, f"{name}_pending")
        elif since is not None:
            pending[name] = Pending(getattr(row, f"{name}_pending"), since)
        values[name] = value
    return Limits(**values, excluded_until=row.excluded_until, pending=pending)


def of(user) -> Limits:
    if user is None or not getattr(user, "is_authenticated", False):
        return NO_LIMITS
    return in_force(PlayerLimits.objects.filter(user=user).first())


def _is_lower(new: int | None, current: int | None) -> bool:
    if new is None:
        return False
    return current is None or new < current


def _locked_row(user) -> PlayerLimits:
    PlayerLimits.objects.get_or_create(user=user)
    return PlayerLimits.objects.select_for_update().get(user=user)


def set_limits(user, now: datetime | None = None, **wanted: int | None) -> list[str]:
    """Set some of the limits (keyword: a LIMIT_NAMES key, value None for no limit). Returns what happened to
    each, in words, for the profile page."""
    now = now or timezone.now()
    for name, value in wanted.items():
        if name not in LIMIT_NAMES:
            raise ValueError(f"no such limit: {name}")
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value <= 0):
            raise ValueError(f"a {LIMIT_NAMES[name]} is a positive whole number or none, not {value!r}")
    said = []
    with transaction.atomic():
        row = _locked_row(user)
        current = in_force(row, now)
        for name, value in wanted.items():
            label = LIMIT_NAMES[name]
            now_value = getattr(current, name)
            if value == now_value:
                if name in current.pending:
                    said.append(gettext("The pending change of your %(limit)s is cancelled; it stays %(value)s.") % {
                        "limit": label, "value": _shown(name, value)})  # fmt: skip
                _write(row, name, value, None, None)
            elif _is_lower(value, now_value):
                _write(row, name, value, None, None)
                said.append(gettext("Your %(limit)s is now %(value)s, at once.") % {"limit": label, "value": _shown(name, value)})
            else:
                until = now + RAISE_DELAY
                _write(row, name, now_value, value, until)
                said.append(gettext("Your %(limit)s becomes %(value)s on %(when)s (a raise waits 24 hours); until then it "
                                 "stays %(now)s.") % {"limit": label, "value": _shown(name, value), "when": when(until),
                                                       "now": _shown(name, now_value)})  # fmt: skip
        row.save()
    return said


def _write(row, name, value, pending, since) -> None:
    setattr(row, name, value)
    setattr(row, f"{name}_pending", pending)
    setattr(row, f"{name}_pending_from", since)


def _shown(name: str, value: int | None) -> str:
    if value is None:
        return gettext("none")
    if name == "session_minutes":
        return ngettext("%(n)s minute", "%(n)s minutes", value) % {"n": value}
    return ngettext("%(n)s chip", "%(n)s chips", value) % {"n": formats.number_format(value, force_grouping=True)}


def exclude(user, period: str, now: datetime | None = None) -> datetime:
    """Start a self-exclusion of `period` (an EXCLUSION_PERIODS key) at once; one already running is only ever
    extended. Returns when it ends."""
    if period not in EXCLUSION_PERIODS:
        raise ValueError(f"no such exclusion period: {period!r} (one of {', '.join(EXCLUSION_PERIODS)})")
    now = now or timezone.now()
    with transaction.atomic():
        row = _locked_row(user)
        until = now + EXCLUSION_PERIODS[period][1]
        if row.excluded_until is None or row.excluded_until <= now:
            row.excluded_since = now
        if row.excluded_until is None or row.excluded_until < until:
            row.excluded_until = until
        row.save()
    return row.excluded_until


# --- the door's checks ----------------------------------------------------------------------------------------


def _excluded(limits: Limits, now: datetime, what: str) -> None:
    if limits.excluded_at(now):
        raise LimitError(
            "self_excluded",
            lazily_said(_("You have excluded yourself from play until %(until)s: you cannot %(what)s before then (a "
                          "self-exclusion cannot be lifted early)."), until=_when_read(limits.excluded_until), what=what),  # fmt: skip
        )


def check_may_create(user, now: datetime | None = None) -> None:
    """Creating a table: refused during a self-exclusion (no chips move, so a plain read)."""
    if user.is_bot:
        return
    now = now or timezone.now()
    _excluded(of(user), now, _("create a table"))


def check_buy_in(user_id: int, amount: int, what=SIT_DOWN, now: datetime | None = None) -> None:
    """Inside the buy-in's transaction: lock the player's limits row, then refuse a buy-in (or chips added) of
    `amount` that his exclusion, cap or loss limit forbids. One statement without limits, two with a cap or a
    loss limit."""
    now = now or timezone.now()
    row = PlayerLimits.objects.select_for_update().filter(user_id=user_id).first()
    if row is None:
        return
    limits = in_force(row, now)
    _excluded(limits, now, what)
    cap, loss_limit = limits.daily_buy_in_cap, limits.daily_loss_limit
    if cap is None and loss_limit is None:
        return
    start = day_start(now)
    midnight = _when_read(start + timedelta(days=1))
    bought_kinds = [TransferKind.BUY_IN, TransferKind.ADD_CHIPS]
    today = Transfer.objects.filter(created_at__gte=start).filter(
        Q(kind__in=bought_kinds, source__kind=AccountKind.BALANCE, source__user_id=user_id)
        | Q(kind=TransferKind.CASH_OUT, destination__kind=AccountKind.BALANCE, destination__user_id=user_id)
    ).aggregate(
        bought=Sum("amount", filter=Q(kind__in=bought_kinds)), back=Sum("amount", filter=Q(kind=TransferKind.CASH_OUT))
    )
    bought, back = today["bought"] or 0, today["back"] or 0
    if cap is not None and bought + amount > cap:
        raise LimitError(
            "limit_reached",
            lazily_said(_("Your daily buy-in cap is %(cap)s chips and you have bought in %(bought)s today: you may buy "
                          "in at most %(room)s more until %(midnight)s, not %(amount)s."),
                        cap=grouped(cap), bought=grouped(bought), room=grouped(max(cap - bought, 0)), midnight=midnight,
                        amount=grouped(amount)),  # fmt: skip
        )
    lost = max(bought - back, 0)
    if loss_limit is not None and lost + amount > loss_limit:
        raise LimitError(
            "limit_reached",
            lazily_said(_("Your daily loss limit is %(limit)s chips and you have lost %(lost)s today: a buy-in of "
                          "%(amount)s could take you past it. You may buy in at most %(room)s until %(midnight)s."),
                        limit=grouped(loss_limit), lost=grouped(lost), amount=grouped(amount),
                        room=grouped(max(loss_limit - lost, 0)), midnight=midnight),  # fmt: skip
        )
