"""ASGI entry point, for the streams that tell phones a game has changed (scoring/live_changes.py):
`gunicorn -k uvicorn_worker.UvicornWorker bigtwo_site.asgi` (README, "Deploying")."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bigtwo_site.settings")

application = get_asgi_application()
