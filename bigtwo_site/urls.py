from django.contrib import admin
from django.urls import include, path, register_converter

from bigtwo_site import views
from common.http import IdConverter

# Before the apps' addresses, which name their ids `<id:…>`.
register_converter(IdConverter, "id")

urlpatterns = [
    path("", views.home, name="home"),
    path("ping/", views.ping, name="ping"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("checker.urls")),
    path("accounts/", include("accounts.urls")),
    path("", include("scoring.urls")),
    path("", include("nights.urls")),
    path("", include("bigtwo_site.pwa_urls")),
    path("admin/", admin.site.urls),
]
