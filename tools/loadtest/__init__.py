"""A league night played against the site, on a database of its own, and checked: `run` (phases
A and B), `crash` (its servers restarted, then killed) and `capacity` (tables per core), as
`make run` or the server layout serves it. What each does and checks: docs/development.md
("Measuring"); today's figures: docs/performance.md.

The modules: wire (HTTP and event streams through aiohttp), page (reading the answers), phones (a
phone following or keeping a game), seed (the data), servers (the database, Redis, the servers),
phases (logging in, phase A, the crash, phase B), handover (a crash's pages shown the next deal),
capacity, log (what the phones saw), verify (the check, and its `Failure` kinds), __main__ (the
command line)."""

from tools.loadtest.verify import Failure as Failure
