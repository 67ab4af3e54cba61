from django.urls import path

from nights import views

app_name = "nights"
urlpatterns = [
    path("clubs/<id:club_id>/nights/new/", views.new_night, name="new"),
    path("nights/<id:night_id>/", views.night, name="night"),
    path("nights/<id:night_id>.json", views.night_json, name="json"),
    path("nights/<id:night_id>/here/", views.who_is_here, name="who-is-here"),
    path("nights/<id:night_id>/rounds/<id:number>/start/", views.start_round, name="start-round"),
    path("nights/<id:night_id>/tv/", views.show_on_tv, name="show-on-tv"),
    path("nights/<id:night_id>/tv/stop/", views.stop_tv, name="stop-tv"),
    path("tv/<str:token>/", views.tv, name="tv"),
    path("tv/<str:token>/board/", views.tv_board, name="tv-board"),
    path("tv/<str:token>/qr.svg", views.tv_qr, name="tv-qr"),
]
