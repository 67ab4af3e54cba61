"""Tools for whoever runs the site, run from the repository's root: `python -m tools.loadtest`
(a league night's load, and a crash) and `python tools/make_icons.py` (the app's icons)."""
