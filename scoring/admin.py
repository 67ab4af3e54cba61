"""Every model in the admin. Games' derived fields (totals, status, winner) are read-only here:
they come from the deals, through scoring.services.recompute. A player's or an account's new
name marks the games and seasons showing it as changed, so no cached page keeps the old one."""

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin

from scoring.models import (
    Club,
    ClubChange,
    Deal,
    DealScore,
    Game,
    GameChange,
    Membership,
    Player,
    Season,
    Seat,
)
from scoring.services import versions


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "created_at"]
    list_filter = ["created_at"]
    search_fields = ["name", "owner__username"]
    raw_id_fields = ["owner"]
    readonly_fields = ["invite_token"]

    def save_model(self, request, obj: Club, form, change: bool) -> None:
        if not change:
            obj.new_invite()  # a club added here gets a working invite link too
        super().save_model(request, obj, form, change)
        if change and "owner" in form.changed_data:
            # As "Make owner" does: the history says so, and the club's password links are
            # spent (scoring.services.ClubLinkTokens).
            ClubChange.objects.create(
                club=obj,
                by=request.user,
                action=ClubChange.Action.MAKE_OWNER,
                name=obj.owner.get_username(),
            )

    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "joined_at"]
    list_filter = ["joined_at", "club"]
    search_fields = ["user__username", "club__name"]
    raw_id_fields = ["user", "club"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club"]
    list_filter = ["club"]
    search_fields = ["name", "club__name"]

    def save_model(self, request, obj: Player, form, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if change and "name" in form.changed_data:
            versions.player_renamed(obj)  # the cached pages of their games show the old name


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "starts_on", "ends_on", "is_current"]
    list_filter = ["is_current", "club"]
    search_fields = ["name", "club__name"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    readonly_fields = ["total", "deals_played", "deals_won", "thirteens", "won"]
    raw_id_fields = ["player"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = [
        "pk",
        "club",
        "season",
        "status",
        "winner",
        "created_by",
        "created_at",
        "finished_at",
    ]
    list_filter = ["status", "club", "season", "created_at"]
    search_fields = ["club__name", "seats__player__name", "created_by__username"]
    readonly_fields = ["status", "winner", "win_shared", "finished_at", "version", "share_token"]
    raw_id_fields = ["club", "season", "created_by"]
    inlines = [SeatInline]
    date_hierarchy = "created_at"


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = [
        "game",
        "position",
        "player",
        "total",
        "deals_played",
        "deals_won",
        "thirteens",
    ]
    list_filter = ["game__club", "position"]
    search_fields = ["player__name", "game__club__name"]
    readonly_fields = ["total", "deals_played", "deals_won", "thirteens", "won"]
    raw_id_fields = ["game", "player"]


class DealScoreInline(admin.TabularInline):
    model = DealScore
    extra = 0
    raw_id_fields = ["seat"]


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ["game", "number", "recorded_by", "recorded_at"]
    list_filter = ["game__club", "recorded_at"]
    search_fields = ["game__club__name", "recorded_by__username", "token"]
    raw_id_fields = ["game", "recorded_by"]
    inlines = [DealScoreInline]


@admin.register(DealScore)
class DealScoreAdmin(admin.ModelAdmin):
    list_display = ["deal", "seat", "cards_left", "penalty"]
    list_filter = ["cards_left", "deal__game__club"]
    search_fields = ["seat__player__name", "deal__game__club__name"]
    raw_id_fields = ["deal", "seat"]


@admin.register(GameChange)
class GameChangeAdmin(admin.ModelAdmin):
    list_display = ["game", "action", "deal_number", "by", "at", "before", "after"]
    list_filter = ["action", "at", "game__club"]
    search_fields = ["by__username", "game__club__name"]
    raw_id_fields = ["game", "by"]


@admin.register(ClubChange)
class ClubChangeAdmin(admin.ModelAdmin):
    list_display = ["club", "action", "name", "new_name", "by", "at"]
    list_filter = ["action", "at", "club"]
    search_fields = ["name", "new_name", "by__username", "club__name"]
    raw_id_fields = ["club", "by"]


# The accounts' own admin, as Django has it, but for what the histories show of them.
admin.site.unregister(get_user_model())


@admin.register(get_user_model())
class AccountAdmin(UserAdmin):
    def save_model(self, request, obj, form, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if change and "username" in form.changed_data:
            versions.account_renamed(obj)  # the cached histories name them by their username
