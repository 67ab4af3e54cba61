from django.urls import path

from checker import api, views

app_name = "checker"
urlpatterns = [
    path("check/", views.check, name="check"),
    path("play/", views.play, name="play"),
    path("split/", views.split_hand, name="split"),
    path("api/hands/classify", api.classify_hand, name="api-classify"),
    path("api/hands/compare", api.compare_hands, name="api-compare"),
    path("api/hands/plays", api.hand_plays, name="api-plays"),
    path("api/hands/split", api.split_hand, name="api-split"),
    path("api/deals/score", api.score_a_deal, name="api-score"),
]
