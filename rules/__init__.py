"""Big Two's rules as plain Python values: cards, plays and how they compare, and scoring.

The engine modules (cards, ruleset, plays, scoring, bench) import nothing from Django, so they
can be used, tested and benchmarked on their own. Their messages are translated by i18n, with
the standard library's gettext reading the site's compiled catalog.
"""
