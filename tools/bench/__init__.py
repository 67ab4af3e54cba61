"""Benchmarks: scripts that print figures to read, never run by the site and never timed by
the suite. Each is run from the repository's root as `python -m tools.bench.NAME` (`--help`
for its options); docs/development.md ("Measuring") says what each measures.

In this process, through Django's test client: the engine over every five-card hand (`hands`),
splitting random hands (`split`), the split page against its API (`split_page`), a season's
standings and deals CSV (`standings`), a club's ratings (`ratings`), a big club and a long game
(`big_club`); these share `throwaway` (Django set up, pages as served, a throwaway database)
and `seeding` (the clubs they measure). Against the site as `make run` serves it: a member's
score files (`imports`), a big anonymous request body (`request_bodies`), and how soon a deal
reaches the live view (`live_view_latency`).
"""
