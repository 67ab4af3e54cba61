"""ASGI entry point of the streams' server in the server layout (deploy/bigtwo-streams.service):
the site's application (bigtwo_site/asgi.py, which `make run` serves) on the streams' settings
(bigtwo_site/stream_settings.py)."""

import os

# Set, not defaulted: the units share one environment with the pages' server, and whatever
# names the site's settings there would give this server the pages' whole stack. Before the
# application is imported, so that it is built on these settings.
os.environ["DJANGO_SETTINGS_MODULE"] = "bigtwo_site.stream_settings"

from bigtwo_site.asgi import application  # noqa: E402

__all__ = ["application"]
