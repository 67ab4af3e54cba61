"""WSGI entry point: gunicorn serves the pages from here in the deployed layout
(deploy/bigtwo-pages.service, `make run-server`), and `manage.py runserver` uses it; `make run`
serves bigtwo_site/asgi.py."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bigtwo_site.settings")

application = get_wsgi_application()
