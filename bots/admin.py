from django.contrib import admin

from .models import BotPlayer, BotTable, BotTablePolicy


@admin.register(BotTablePolicy)
class BotTablePolicyAdmin(admin.ModelAdmin):
    list_display = ("id", "family", "ante", "seats", "tables", "level", "bots_per_table", "active")
    list_editable = ("tables", "level", "bots_per_table", "active")
    list_filter = ("family", "level", "active")


@admin.register(BotPlayer)
class BotPlayerAdmin(admin.ModelAdmin):
    list_display = ("user", "level")
    list_filter = ("level",)


@admin.register(BotTable)
class BotTableAdmin(admin.ModelAdmin):
    list_display = ("table", "policy", "created_at")
    readonly_fields = ("table", "policy", "created_at")
