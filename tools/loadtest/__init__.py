"""A league night on a small server: load, a throughput yardstick, a crash, and a capacity.

    python -m tools.loadtest [--db sqlite|postgres] [--servers 1|2] [--redis] [--seconds 60]
                             [--scorekeepers 50] [--viewers 200] [--layout run|server]
    python -m tools.loadtest crash [--db …] [--servers 1|2] [--redis] [--seconds 30]
                                   [--layout run|server]
    python -m tools.loadtest capacity [--tables-start 100] [--max-tables 1500] [--step-seconds 40]
                                      [--layout run|server]

Everything it needs it makes and removes itself: a fresh database (SQLite in a temporary
DJANGO_VAR_DIR, or a `loadtest_<pid>` database on the PostgreSQL server DATABASE_URL names,
dropped at the end), migrated and seeded through scoring.services; then the site served as
`make run` serves it: one uvicorn process, pages and the games' live streams on one port. With
`--servers 2`, two such processes on two ports, sharing the PostgreSQL database and a Redis
(cache, sessions, streams): a throwaway one it starts (--redis), or the one REDIS_URL names;
phones take the servers in turn. With `--layout server`, the server layout of docs/deploying.md
instead (tools/server_layout.py): nginx in front of gunicorn (pages) and uvicorn (streams), with
a throwaway Redis between them, or REDIS_URL's. Every phone comes from 127.0.0.1, so the servers
are started with DJANGO_STREAMS_PER_ADDRESS (and nginx's limits) raised. The phones are
coroutines on one event loop, asking through aiohttp (tools/loadtest/phones.py).

Run (the default):
  logging in   every scorekeeper opens the login page and posts its password, 8 at a time
  phase A      for --seconds: scorekeepers record random deals of their own game with htmx,
               0.5-1.5 s apart, starting a new game when one ends; viewers follow a game as
               its page does (its stream: a deal's delta taken from it, the board fetched on
               any other new version), loading the whole page every ~10 s and the standings
               of the 1,000-game season every ~20 s; then what each deal cost: boards
               fetched, deltas taken, the servers' CPU
  phase B      closed loop, --bench-clients clients, --bench-seconds each: /ping/ (the bare
               view through the whole middleware: the yardstick), the board's poll answering
               204 (the floor of a members-only page: session, user, one query), a game page,
               recording a deal (htmx), the season's standings; each as a share of /ping/'s
               throughput (figures, not targets)
Crash: scorekeepers record deals with little think time while a phone at each table follows its
game; a third of the way in the servers holding the streams are restarted (SIGTERM), two thirds
in the site's servers are killed (SIGKILL; nginx and Redis stay up), each started again once
gone (tools/loadtest/phases.py). A request left unanswered, or nginx's 502 for it, is sent again
with the same token, as the phone does. After each stop, how soon each following phone shows its
table's next deal is printed; one that doesn't within 60 s is stranded, an error (handover.py).
Capacity: see tools/loadtest/capacity.py; `--layout server` measures the server layout.

Afterwards the database is checked against what the phones were told (tools/loadtest/verify.py):
every deal told recorded is there once with the cards sent, no deal is there that nobody was
told about, every deal has its four scores and its line of history, stored totals are the sum
of the penalties, and services.recompute would change nothing. The exit status is 1 when
anything was lost, doubled, half-written or answered with an error.

The modules: wire (HTTP and event streams through aiohttp), page (reading the answers), phones (a
phone following or keeping a game), seed (the data), servers (the database, Redis, the servers),
phases (logging in, phase A, the crash, phase B), capacity, log (what the phones saw), verify
(the check, and its `Failure` kinds), __main__ (the command line)."""

from tools.loadtest.verify import Failure as Failure
