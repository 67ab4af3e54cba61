"""The hand checker's and the helpers' web layer: pages, forms, the JSON API and its shapes.

A Django app (`rules.web`, label `rules`, URL namespace `rules`) on top of the rules engine in
the `rules` package, which imports nothing from Django. Everything about a hand is the
engine's; this package reads requests, checks what was typed, and renders pages and JSON.
"""
