"""ASGI entry point, for the streams that tell phones a game has changed (scoring/live_changes.py):
`gunicorn -k uvicorn_worker.UvicornWorker bigtwo_site.asgi` (README, "Deploying"). The streams
are served in front of Django's handler (scoring/live_route.py); anything else goes through it."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bigtwo_site.settings")

django_application = get_asgi_application()  # sets Django up: import the route after it

from scoring.live_route import streams_first  # noqa: E402

application = streams_first(django_application)
