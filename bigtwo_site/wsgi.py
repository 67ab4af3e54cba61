"""WSGI entry point, for `manage.py runserver`; `make run` serves bigtwo_site/asgi.py."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bigtwo_site.settings")

application = get_wsgi_application()
