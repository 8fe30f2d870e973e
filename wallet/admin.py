"""Staff admin for the ledger: balances and transfers are read-only; chips move only through the services."""

from uuid import uuid4

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.formats import date_format

from . import services
from .forms import AdjustBalanceForm
from .models import LedgerAccount, PlayerLimits, Transfer


class ReadOnlyAdmin(admin.ModelAdmin):
    actions = None

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(LedgerAccount)
class LedgerAccountAdmin(ReadOnlyAdmin):
    list_display = ("id", "kind", "user", "table_id", "balance", "created_at")
    list_filter = ("kind",)
    search_fields = ("user__email", "user__display_name")
    list_select_related = ("user",)
    ordering = ("kind", "pk")
    change_list_template = "wallet/admin/ledgeraccount_change_list.html"

    def get_urls(self):
        own = [
            path(
                "adjust/",
                self.admin_site.admin_view(self.adjust_balance_view),
                name="wallet_ledgeraccount_adjust",
            )
        ]
        return own + super().get_urls()

    def adjust_balance_view(self, request):
        """Credit or debit a player, the reason recorded against the staff member making it."""
        if not request.user.has_perm("wallet.adjust_balance"):
            raise PermissionDenied("You may not credit or debit balances.")
        if request.method == "POST":
            form = AdjustBalanceForm(request.POST)
            if form.is_valid():
                data = form.cleaned_data
                key = f"admin-{data['direction']}:{data['key']}"
                try:
                    if data["direction"] == "fund_bots":
                        record = services.fund_bots(
                            data["amount"], key, staff=request.user, reason=data["reason"]
                        )
                    else:
                        move = services.credit if data["direction"] == "credit" else services.debit
                        record = move(
                            data["player"], data["amount"], reason=data["reason"], staff=request.user, key=key
                        )
                except services.WalletError as exc:
                    form.add_error(None, str(exc))
                else:
                    messages.success(
                        request,
                        f"{record.get_kind_display().capitalize()} of {record.amount} chips: "
                        f"{record.source} → {record.destination} (transfer #{record.pk}).",
                    )
                    return redirect(reverse("admin:wallet_transfer_changelist"))
        else:
            initial = {"key": uuid4().hex}
            if "player" in request.GET:
                initial["player"] = request.GET["player"]
            form = AdjustBalanceForm(initial=initial)
        context = {
            **self.admin_site.each_context(request),
            "title": "Credit or debit a player's balance, or fund the bots",
            "form": form,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "wallet/admin/adjust_balance.html", context)


@admin.register(Transfer)
class TransferAdmin(ReadOnlyAdmin):
    list_display = (
        "id",
        "when",
        "kind",
        "amount",
        "source",
        "destination",
        "reason",
        "actor",
        "table",
    )
    list_filter = ("kind", "family")
    search_fields = ("key", "memo", "source__user__email", "destination__user__email")
    list_select_related = ("source__user", "destination__user", "actor")
    date_hierarchy = "created_at"
    readonly_fields = [f.name for f in Transfer._meta.fields]

    @admin.display(description="when", ordering="created_at")
    def when(self, transfer):
        return date_format(timezone.localtime(transfer.created_at), "j M Y, H:i")

    @admin.display(description="reason", ordering="memo")
    def reason(self, transfer):
        return transfer.memo

    @admin.display(description="table", ordering="table_id")
    def table(self, transfer):
        return transfer.table_id


@admin.register(PlayerLimits)
class PlayerLimitsAdmin(ReadOnlyAdmin):
    """The limits players set for themselves, for staff to read: no change, no delete (issue 14: a self-exclusion
    cannot be lifted early, by anyone)."""

    list_display = ["user", "daily_buy_in_cap", "daily_loss_limit", "session_minutes", "excluded_until", "updated_at"]
    list_filter = [("excluded_until", admin.EmptyFieldListFilter)]
    search_fields = ["user__email", "user__display_name"]
    readonly_fields = [f.name for f in PlayerLimits._meta.fields]
