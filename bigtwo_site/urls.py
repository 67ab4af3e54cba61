from django.contrib import admin
from django.urls import include, path

from bigtwo_site import views

urlpatterns = [
    path("", views.home, name="home"),
    path("", include("rules.urls")),
    path("admin/", admin.site.urls),
]
