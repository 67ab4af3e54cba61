"""ASGI entry point: `make run` serves the site with uvicorn from here, pages and the games'
live streams (scoring/views/streams.py) alike, on one port."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bigtwo_site.settings")

application = get_asgi_application()
