"""The installable-app URLs, all at the site root: a service worker's scope can't be wider than
the folder it is served from, so /sw.js controls every page."""

from django.urls import path

from bigtwo_site import pwa

urlpatterns = [
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service-worker"),
    path("offline/", pwa.offline, name="offline"),
]
