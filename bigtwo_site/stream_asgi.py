"""ASGI entry point of the streams' server in the server layout (deploy/bigtwo-streams.service):
the site's application on the streams' settings (bigtwo_site/stream_settings.py). `make run`,
which serves pages and streams alike, uses bigtwo_site/asgi.py."""

import os

from django.core.asgi import get_asgi_application

from bigtwo_site.request_bodies import BoundedBodies

# Set, not defaulted: the units share one environment with the pages' server, and whatever
# names the site's settings there would give this server the pages' whole stack.
os.environ["DJANGO_SETTINGS_MODULE"] = "bigtwo_site.stream_settings"

application = BoundedBodies(get_asgi_application())
