"""Every model in the admin. The record of play (games, their seats, deals, scores and
histories, and the clubs' histories) is shown, never edited here: the totals, standings and
ratings kept from it are the services' to keep in step, so a game is deleted through
`services.delete_game` and anything else is changed on the site's own pages. A player's or an
account's new name marks the games and seasons showing it as changed, so no cached page keeps
the old one."""

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin

from scoring import services
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


class ViewOnly:
    """Shown, never added, changed or deleted here: a model admin's or an inline's."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class RecordOfPlay(ViewOnly, admin.ModelAdmin):
    pass


class RecordOfPlayInline(ViewOnly, admin.TabularInline):
    extra = 0


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


class SeatInline(RecordOfPlayInline):
    model = Seat


@admin.register(Game)
class GameAdmin(RecordOfPlay):
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
    inlines = [SeatInline]
    date_hierarchy = "created_at"

    # The site's operator deletes a game as its club's owner would, through the service: its
    # seasons' standings and the club's ratings follow, and its phones are told.
    def has_delete_permission(self, request, obj=None) -> bool:
        return request.user.is_superuser

    def get_deleted_objects(self, objs, request):
        """What goes with the games, listed as the admin lists it; no one may delete any of
        it on its own (`RecordOfPlay`), but it goes with its game."""
        deleted, counts, _perms_needed, protected = super().get_deleted_objects(objs, request)
        return deleted, counts, set(), protected

    def delete_model(self, request, obj: Game) -> None:
        services.delete_game(game=obj, by=obj.club.owner)

    def delete_queryset(self, request, queryset) -> None:
        for game in queryset.select_related("club__owner").order_by("pk"):
            services.delete_game(game=game, by=game.club.owner)


@admin.register(Seat)
class SeatAdmin(RecordOfPlay):
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


class DealScoreInline(RecordOfPlayInline):
    model = DealScore


@admin.register(Deal)
class DealAdmin(RecordOfPlay):
    list_display = ["game", "number", "recorded_by", "recorded_at"]
    list_filter = ["game__club", "recorded_at"]
    search_fields = ["game__club__name", "recorded_by__username", "token"]
    inlines = [DealScoreInline]


@admin.register(DealScore)
class DealScoreAdmin(RecordOfPlay):
    list_display = ["deal", "seat", "cards_left", "penalty"]
    list_filter = ["cards_left", "deal__game__club"]
    search_fields = ["seat__player__name", "deal__game__club__name"]


@admin.register(GameChange)
class GameChangeAdmin(RecordOfPlay):
    list_display = ["game", "action", "deal_number", "by", "at", "before", "after"]
    list_filter = ["action", "at", "game__club"]
    search_fields = ["by__username", "game__club__name"]


@admin.register(ClubChange)
class ClubChangeAdmin(RecordOfPlay):
    list_display = ["club", "action", "name", "new_name", "by", "at"]
    list_filter = ["action", "at", "club"]
    search_fields = ["name", "new_name", "by__username", "club__name"]


# The accounts' own admin, as Django has it, but for what the histories show of them.
admin.site.unregister(get_user_model())


@admin.register(get_user_model())
class AccountAdmin(UserAdmin):
    def save_model(self, request, obj, form, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if change and "username" in form.changed_data:
            versions.account_renamed(obj)  # the cached histories name them by their username
