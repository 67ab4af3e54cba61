"""ASGI entry point: `make run` serves the site with uvicorn from here, pages and the games'
live streams (scoring/views/streams.py) alike, on one port.

Django's handler reads a request's whole body before anything of the site runs, so the bound on
it is checked here first (bigtwo_site/request_bodies.py): a body past it is never read.
"""

import os

from django.core.asgi import get_asgi_application

from bigtwo_site.request_bodies import BoundedBodies

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bigtwo_site.settings")

application = BoundedBodies(get_asgi_application())
