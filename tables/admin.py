"""Staff: tables (close one: everybody stood up and cashed out through the door) and deals (hand histories).

Tables and deals are financial records: staff can never delete them (the database refuses too: migration 0006),
a closed table is read-only, and nothing shows a card a player has not shown while its deal runs."""

import json

from django.contrib import admin, messages
from django.utils.html import format_html

from . import services
from .fair_record import fair_lines
from .models import Deal, DealSeat, Table, TableSeat
from .selectors import load_state
from .state_io import public_events


class TableSeatInline(admin.TabularInline):
    model = TableSeat
    extra = 0
    can_delete = False
    fields = ["seat", "user", "stack_now", "seated_at"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    @admin.display(description="Stack now")
    def stack_now(self, seat):
        """The engine's stack (the row's `stack` is the buy-in, as it was at sit-down)."""
        state = load_state(seat.table)
        player = state.seats[seat.seat].player if seat.seat < len(state.seats) else None
        return state.seats[seat.seat].stack if player == str(seat.user_id) else "-"


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "family",
        "ante",
        "seats",
        "bots_allowed",
        "private",
        "kept_open",
        "status",
        "version",
        "clock_kind",
        "created_at",
    ]
    list_filter = ["status", "family", "bots_allowed", "private", "kept_open"]
    # The state is written only through the door. Staff read the play as a spectator sees it, never the stored
    # state: it holds every card dealt, and a staff member may also be a player.
    # A private table's invite token is its creator's to give and revoke (tables/access.py); staff see every table.
    exclude = ["state", "invite_token"]
    readonly_fields = [
        "private", "status", "version", "play", "clock_kind", "clock_seats", "clock_deadline", "empty_since",
        "fault", "created_by", "created_at", "closed_at", "closed_by", "test_decks",
    ]  # fmt: skip
    inlines = [TableSeatInline]
    actions = ["close_tables"]

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None:  # the stored play holds these: they are set once, when the table is created
            fields += ["family", "ante", "seats", "bots_allowed"]
        return fields

    def has_change_permission(self, request, obj=None):
        if obj is not None and not obj.is_open:  # a closed table is history: staff read it, nobody edits it
            return False
        return super().has_change_permission(request, obj)

    def has_add_permission(self, request):
        # A table starts its play through the door (the lobby's form); a row added here would have none. Staff
        # create one in the lobby and mark it kept open here.
        return False

    def has_delete_permission(self, request, obj=None):
        return False  # a financial record, like the transfers

    def get_actions(self, request):
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    @admin.display(description="Play (as a spectator sees it)")
    def play(self, table):
        if not table.state:
            return "-"
        view = load_state(table).view(None)
        return format_html("<pre>{}</pre>", json.dumps(view, indent=1, ensure_ascii=False))

    @admin.action(description="Close the selected tables (stand everybody up and cash out)")
    def close_tables(self, request, queryset):
        for table in queryset:
            try:
                services.close_table(table.pk, staff=request.user)
            except services.DoorError as error:
                self.message_user(request, f"Table {table.pk}: {error.message}", messages.ERROR)
            else:
                self.message_user(request, f"Table {table.pk} closed.", messages.SUCCESS)


class DealSeatInline(admin.TabularInline):
    """A deal's players and their results: no card here (the events below show what was opened and shown)."""

    model = DealSeat
    extra = 0
    can_delete = False
    fields = ["seat", "user", "name", "bot", "stack", "put_in", "won", "net", "won_pot", "played", "tied",
              "svara_won"]  # fmt: skip
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ["id", "table", "number", "svara", "started_at", "ended_at", "pot", "rake"]
    list_filter = ["table__family"]
    readonly_fields = ["table", "number", "svara", "previous", "started_at", "ended_at", "history", "pot", "rake",
                       "winners", "commitment", "fairness"]  # fmt: skip
    # The fairness record is shown only as its text block, which holds the server seed once the deal is over
    # (the row has none before): docs/fair.md.
    exclude = ["server_seed", "seeds", "decks"]
    inlines = [DealSeatInline]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_actions(self, request):
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    @admin.display(description="Fairness (docs/fair.md)")
    def fairness(self, deal):
        return format_html("<pre>{}</pre>", "\n".join(fair_lines(deal)))

    @admin.display(description="Events")
    def history(self, deal):
        """While the deal runs, only what every player at the table sees: a card a player opened is his alone
        until the deal is over (D1), and a staff member may sit at the table too."""
        events = deal.events if deal.ended_at is not None else public_events(deal.events)
        return format_html("<pre>{}</pre>", json.dumps(events, indent=1, ensure_ascii=False))
