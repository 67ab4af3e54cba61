from django.urls import path

from scoring.views import (
    clubs,
    exports,
    games,
    live,
    members,
    passwords,
    players,
    seasons,
    sharing,
    streams,
)

app_name = "scoring"
urlpatterns = [
    path("clubs/", clubs.clubs, name="clubs"),
    path("clubs/<id:club_id>/", clubs.club, name="club"),
    path("clubs/<id:club_id>/invite/reset/", clubs.reset_invite, name="reset-invite"),
    path("clubs/<id:club_id>/invite/qr.svg", sharing.invite_qr, name="invite-qr"),
    path(
        "clubs/<id:club_id>/members/<id:membership_id>/reset-link/",
        passwords.make_reset_link,
        name="reset-link",
    ),
    path("clubs/<id:club_id>/history/", members.club_history, name="club-history"),
    path("clubs/<id:club_id>/leave/", members.leave_club, name="leave-club"),
    path(
        "clubs/<id:club_id>/members/<id:membership_id>/remove/",
        members.remove_member,
        name="remove-member",
    ),
    path(
        "clubs/<id:club_id>/members/<id:membership_id>/owner/",
        members.make_owner,
        name="make-owner",
    ),
    path(
        "clubs/<id:club_id>/players/<id:player_id>/rename/",
        players.rename_player,
        name="rename-player",
    ),
    path(
        "clubs/<id:club_id>/players/<id:player_id>/merge/",
        players.merge_player,
        name="merge-player",
    ),
    path(
        "clubs/<id:club_id>/players/<id:player_id>/remove/",
        players.remove_player,
        name="remove-player",
    ),
    path(
        "clubs/<id:club_id>/players/<id:player_id>/me/", players.claim_player, name="claim-player"
    ),
    path(
        "clubs/<id:club_id>/players/<id:player_id>/not-me/",
        players.unlink_player,
        name="unlink-player",
    ),
    path("clubs/<id:club_id>/games/new/", games.new_game, name="new-game"),
    path("clubs/<id:club_id>/standings/", seasons.all_time, name="all-time"),
    path("clubs/<id:club_id>/seasons/new/", seasons.new_season, name="new-season"),
    path("join/<str:token>/", clubs.join, name="join"),
    path("seasons/<id:season_id>/", seasons.season, name="season"),
    path(
        "seasons/<id:season_id>/standings.csv",
        exports.standings_csv,
        name="season-standings-csv",
    ),
    path("seasons/<id:season_id>/deals.csv", exports.season_deals_csv, name="season-deals-csv"),
    path("seasons/<id:season_id>/rules/", seasons.season_rules, name="season-rules"),
    path("players/<id:player_id>/", players.player, name="player"),
    path("games/<id:game_id>/", games.game, name="game"),
    path("games/<id:game_id>/deals/", games.record, name="record"),
    path("games/<id:game_id>/deals/preview/", games.preview, name="preview"),
    path("games/<id:game_id>/deals/<id:number>/edit/", games.edit, name="edit"),
    path("games/<id:game_id>/undo/", games.undo, name="undo"),
    path("games/<id:game_id>/play-again/", games.play_again, name="play-again"),
    path("games/<id:game_id>/end/", games.end_match, name="end-match"),
    path("games/<id:game_id>/stake/", games.set_stake, name="stake"),
    path("games/<id:game_id>/delete/", games.delete, name="delete"),
    path("games/<id:game_id>/season/", games.move_game, name="move-game"),
    path("games/<id:game_id>/board/", live.board, name="board"),
    path("games/<id:game_id>/changes/", streams.changes, name="changes"),
    path("games/<id:game_id>/share/", live.share, name="share"),
    path("games/<id:game_id>/share/stop/", live.stop_sharing, name="stop-sharing"),
    path("live/<str:token>/", live.live, name="live"),
    path("live/<str:token>/board/", live.live_board, name="live-board"),
    path("live/<str:token>/qr.svg", sharing.live_qr, name="live-qr"),
    path("games/<id:game_id>.json", exports.game_json, name="game-json"),
    path("games/<id:game_id>.csv", exports.game_csv, name="game-csv"),
]
