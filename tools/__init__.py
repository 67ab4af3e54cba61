"""Tools for whoever runs or works on the site, run from the repository's root; none is part of
what the site deploys: `python -m tools.loadtest` (a league night's load, and a crash), the
benchmarks in `tools/bench/` (`python -m tools.bench.NAME`), and `python tools/make_icons.py`
(the app's icons)."""
