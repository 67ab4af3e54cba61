from django.urls import path

from rules import api, views

app_name = "rules"
urlpatterns = [
    path("check/", views.check, name="check"),
    path("api/hands/classify", api.classify_hand, name="api-classify"),
    path("api/hands/compare", api.compare_hands, name="api-compare"),
]
