"""The hand checker's and the helpers' pages: "Check a hand", "What can I play?" and "Split a
hand", their forms, the JSON API (`api`, its shapes in `json_shapes`), what the pages and the
API share (`table_helpers`), and the middleware that hands the page's language to the engine.

A Django app (label and URL namespace `checker`) on top of the rules engine, the `rules`
package, which imports no Django. Everything about a hand is the engine's; this app reads
requests, checks what was typed, and renders pages and JSON.
"""
