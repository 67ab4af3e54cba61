from django.urls import path

from scoring import views

app_name = "scoring"
urlpatterns = [
    path("clubs/", views.clubs, name="clubs"),
    path("clubs/<int:club_id>/", views.club, name="club"),
    path("clubs/<int:club_id>/invite/reset/", views.reset_invite, name="reset-invite"),
    path("clubs/<int:club_id>/games/new/", views.new_game, name="new-game"),
    path("join/<str:token>/", views.join, name="join"),
    path("games/<int:game_id>/", views.game, name="game"),
    path("games/<int:game_id>/deals/", views.record, name="record"),
    path("games/<int:game_id>/deals/preview/", views.preview, name="preview"),
    path("games/<int:game_id>/deals/<int:number>/edit/", views.edit, name="edit"),
    path("games/<int:game_id>/undo/", views.undo, name="undo"),
    path("games/<int:game_id>/delete/", views.delete, name="delete"),
    path("games/<int:game_id>.json", views.game_json, name="game-json"),
    path("games/<int:game_id>.csv", views.game_csv, name="game-csv"),
]
