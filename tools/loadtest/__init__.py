"""A league night played against the site, on a database of its own, and checked: `run` (phases
A and B), `crash` (its servers restarted, then killed) and `capacity` (tables per core), as
`make run` or the server layout serves it. What each does and checks: docs/development.md
("Measuring"); today's figures: docs/performance.md."""

from tools.loadtest.verify import Failure as Failure
