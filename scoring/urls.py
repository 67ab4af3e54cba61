from django.urls import path

from scoring import season_views, views

app_name = "scoring"
urlpatterns = [
    path("clubs/", views.clubs, name="clubs"),
    path("clubs/<int:club_id>/", season_views.club, name="club"),
    path("clubs/<int:club_id>/invite/reset/", views.reset_invite, name="reset-invite"),
    path("clubs/<int:club_id>/games/new/", views.new_game, name="new-game"),
    path("clubs/<int:club_id>/standings/", season_views.all_time, name="all-time"),
    path("clubs/<int:club_id>/seasons/new/", season_views.new_season, name="new-season"),
    path("join/<str:token>/", views.join, name="join"),
    path("seasons/<int:season_id>/", season_views.season, name="season"),
    path(
        "seasons/<int:season_id>/standings.csv",
        season_views.standings_csv,
        name="season-standings-csv",
    ),
    path(
        "seasons/<int:season_id>/deals.csv", season_views.season_deals_csv, name="season-deals-csv"
    ),
    path("seasons/<int:season_id>/rules/", season_views.season_rules, name="season-rules"),
    path("players/<int:player_id>/", season_views.player, name="player"),
    path("games/<int:game_id>/", views.game, name="game"),
    path("games/<int:game_id>/deals/", views.record, name="record"),
    path("games/<int:game_id>/deals/preview/", views.preview, name="preview"),
    path("games/<int:game_id>/deals/<int:number>/edit/", views.edit, name="edit"),
    path("games/<int:game_id>/undo/", views.undo, name="undo"),
    path("games/<int:game_id>/end/", views.end_match, name="end-match"),
    path("games/<int:game_id>/stake/", views.set_stake, name="stake"),
    path("games/<int:game_id>/delete/", views.delete, name="delete"),
    path("games/<int:game_id>/season/", season_views.move_game, name="move-game"),
    path("games/<int:game_id>/board/", views.board, name="board"),
    path("games/<int:game_id>/share/", views.share, name="share"),
    path("games/<int:game_id>/share/stop/", views.stop_sharing, name="stop-sharing"),
    path("live/<str:token>/", views.live, name="live"),
    path("live/<str:token>/board/", views.live_board, name="live-board"),
    path("games/<int:game_id>.json", views.game_json, name="game-json"),
    path("games/<int:game_id>.csv", views.game_csv, name="game-csv"),
]
