"""The site's project package: settings, the URLs of every app, the ASGI and WSGI applications,
and what every request passes through (bounded bodies, log redaction, the installable app)."""
