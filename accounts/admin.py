"""Staff admin for players: search by e-mail or display name, deactivate instead of deleting."""

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.db.models import OuterRef, Subquery
from django.urls import reverse
from django.utils.html import format_html

from wallet.models import AccountKind, LedgerAccount
from wallet.selectors import balance_of

from .models import User


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    list_display = ("email", "display_name", "is_bot", "is_active", "is_staff", "date_joined", "chips")
    list_filter = ("is_active", "is_staff", "is_bot", "is_superuser")
    search_fields = ("email", "display_name", "username")
    ordering = ("email",)
    actions = ["deactivate", "reactivate"]
    fieldsets = (
        (None, {"fields": ("email", "username", "password")}),
        ("Player", {"fields": ("display_name", "is_bot", "chip_balance")}),
        ("Permissions", {"fields": ("is_active", "is_staff", "is_superuser", "groups", "user_permissions")}),
        ("Dates", {"fields": ("last_login", "date_joined")}),
    )
    add_fieldsets = (
        (None, {"classes": ("wide",), "fields": ("email", "display_name", "password1", "password2")}),
    )
    readonly_fields = ("chip_balance", "last_login", "date_joined")

    def get_queryset(self, request):
        balance = LedgerAccount.objects.filter(kind=AccountKind.BALANCE, user=OuterRef("pk")).values(
            "balance"
        )
        return super().get_queryset(request).annotate(chips_balance=Subquery(balance[:1]))

    @admin.display(description="chips", ordering="chips_balance")
    def chips(self, obj):
        return "—" if obj.is_bot else (obj.chips_balance or 0)

    @admin.display(description="chip balance")
    def chip_balance(self, obj):
        if obj.pk is None or obj.is_bot:
            return "—"
        url = reverse("admin:wallet_ledgeraccount_adjust") + f"?player={obj.email}"
        return format_html('{} chips · <a href="{}">credit or debit</a>', balance_of(obj), url)

    def get_actions(self, request):
        # Players are deactivated, never deleted: their transfers keep pointing at them.
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(
        description="Deactivate the selected users (they can no longer log in)", permissions=["change"]
    )
    def deactivate(self, request, queryset):
        own = queryset.filter(pk=request.user.pk).exists()
        count = queryset.exclude(pk=request.user.pk).filter(is_active=True).update(is_active=False)
        self.message_user(request, f"Deactivated {count} user(s).", messages.SUCCESS)
        if own:
            self.message_user(request, "You cannot deactivate yourself.", messages.WARNING)

    @admin.action(description="Reactivate the selected users", permissions=["change"])
    def reactivate(self, request, queryset):
        count = queryset.filter(is_active=False).update(is_active=True)
        self.message_user(request, f"Reactivated {count} user(s).", messages.SUCCESS)
