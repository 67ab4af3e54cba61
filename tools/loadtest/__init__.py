"""A league night on one small server: load, a throughput yardstick, and a crash.

    python -m tools.loadtest [--db sqlite|postgres] [--seconds 60] [--scorekeepers 50]
                             [--viewers 200] [--servers 1|2] [--redis]
    python -m tools.loadtest crash [--db sqlite|postgres] [--servers 1|2] [--seconds 30]
                                   [--redis]

Everything it needs it makes and removes itself: a fresh database (a SQLite file in a temporary
DJANGO_VAR_DIR, or a `loadtest_<pid>` database on the PostgreSQL server DATABASE_URL names,
dropped at the end), migrated and seeded through scoring.services; then gunicorn on 127.0.0.1
(with `--servers 2`, two servers on two ports sharing the PostgreSQL database, every client
alternating its requests between them). With --redis the servers also share a throwaway
redis-server it starts and stops (REDIS_URL: cache, sessions, signed-in accounts); without it,
a REDIS_URL in the environment is passed on. Clients are threads speaking HTTP/1.1 with the
standard library, one keep-alive connection per server each.

Run (the default):
  logging in   every scorekeeper opens the login page and posts its password (not timed in
               the load: each login costs one password hash, about 1.5 s of CPU here)
  phase A      for --seconds: scorekeepers record random deals of their own game with htmx,
               0.5-1.5 s apart, starting a new game when one ends; viewers follow a game's
               poll every ~2 s, reloading the whole game page every ~5th time and the
               standings of the 1,000-game season every ~10th
  phase B      closed loop, --bench-threads threads, --bench-seconds per page: /ping/ (the
               bare view through the whole middleware: the yardstick), the game page's poll
               answering 204 (the floor of any members-only page: session, user, one query;
               with a shared Redis the session and user come from it), a game page,
               recording a deal, the season's standings; each as a share of /ping/'s
               throughput
Crash: scorekeepers record deals with little think time while every server is killed with
SIGKILL (master and workers, the whole process group) and started again; a client whose
request died sends it again with the same token, as the phone does.

Afterwards the database is checked against what the clients were told: every deal a client was
told was recorded is there once with the cards it sent, no deal is there that no client was
told about, every deal has its four scores and its line of history, stored totals are the sum
of the penalties (rules.penalties.replay), and services.recompute would change nothing.
The exit status is 1 when anything was lost, doubled, half-written or answered with an error.

Capacity (`python -m tools.loadtest capacity`, tools/loadtest/capacity.py): how many tables of
four phones one core serves, gunicorn and the ASGI server of the games' event streams pinned to
it together, with `--follow stream` (the page today) or `--follow poll` (every 2 s, before).

The modules: client (HTTP, and reading a page's data attributes and form inputs), log (what
the clients saw), seed (the data), servers (the database, gunicorn, the ASGI server of the
streams), actors (scorekeepers and viewers), phases (logging in, load, crash, closed loop),
capacity (the capacity run's phones), capacity_run (its steps and figures), wire (its HTTP and
event streams on asyncio), verify (the check, and its `Failure` kinds), __main__ (the command
line).
"""

from tools.loadtest.verify import Failure

__all__ = ["Failure"]
