# Two commands matter: `make run` (serve the site) and `make test` (lint and the whole suite).
# Both start from nothing but Python 3.12+ and make: they build .venv themselves.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 0.0.0.0
PORT ?= 8000
WORKERS ?= 1

.PHONY: run run-server demo test test-services test-load gates setup prepare install install-test migrate static lint bench messages clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else "Python 3.12 or newer is needed (found " + sys.version.split()[0] + "). Install it, or run make PYTHON=python3.12 ...")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Stamp files record what was installed, so a second `make run` starts at once.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	@touch $@

# The test extras bring the site's own packages with them, in one install (a second, of the site
# alone first, cost a fresh clone's `make test` 10 s): both stamps.
$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[test,postgres]"
	@touch $(VENV)/.installed $@

# The Redis clients: `make run-server` always has a Redis.
$(VENV)/.installed-redis: pyproject.toml $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e ".[redis]"
	@touch $@

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

# What the settings read and never write: the var directory (DJANGO_VAR_DIR, else var/), mode
# 700, its secret key (unless DJANGO_SECRET_KEY gives one) and the SQLite database file, 600
# (bigtwo_site/prepare_var.py). It keeps what is already there.
prepare: install
	$(BIN)/python manage.py prepare_var

migrate: prepare
	$(BIN)/python manage.py migrate --noinput

static: prepare
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0

setup: migrate static

# One uvicorn process serves the pages and the games' live streams on one port. With REDIS_URL
# set, WORKERS=N runs N processes sharing the cache, sessions and streams through Redis;
# without it, one process keeps them in its own memory, so keep WORKERS at 1.
# --no-proxy-headers: the client's address behind a proxy is DJANGO_PROXY_COUNT's business.
# --lifespan off: Django has no start-up or shutdown hooks, and uvicorn, asking for them, would
# print "ASGI 'lifespan' protocol appears unsupported" on every start.
# --timeout-graceful-shutdown 3: stopped (Ctrl-C, SIGTERM, a restart), uvicorn closes its port at
# once and gives the answers under way 3 s, then ends what is left, the games' open streams
# among them (logging "Cancel N running task(s)"). Without it a stream held the old process for
# up to its 10 minutes, telling its phone the game was quiet while the deals went to the new one;
# ended, the page opens its stream again on the new process, which says the game's version.
run: setup
	@echo "Serving on http://$(HOST):$(PORT)/ -- from a phone on the same Wi-Fi, open http://<this computer's address>:$(PORT)/"
	$(BIN)/uvicorn bigtwo_site.asgi:application --host $(HOST) --port $(PORT) \
		--workers $(WORKERS) --lifespan off --no-proxy-headers --no-server-header \
		--timeout-graceful-shutdown 3

# The server layout of docs/deploying.md on this machine, from the files in deploy/: nginx on
# HOST:PORT in front of gunicorn (pages) and uvicorn (the games' streams), with REDIS_URL's Redis
# between them or a throwaway redis-server (apt-get install nginx redis-server), all stopped
# together on Ctrl-C (tools/server_layout.py). SQLite in var/ as `make run`, or DATABASE_URL.
run-server: setup $(VENV)/.installed-redis
	$(BIN)/python -m tools.server_layout --host $(HOST) --port $(PORT)

# A demo club with a season of finished games, its login printed here, at the address `make run`
# serves with the same HOST and PORT; `make run` to look. It won't seed the same club twice:
# `$(BIN)/python manage.py seed_demo --club NAME` for another.
demo: setup
	$(BIN)/python manage.py seed_demo --host $(HOST) --port $(PORT)

# lint-imports checks the import contracts in pyproject.toml: above all, that the rules engine
# imports nothing from Django, and that each layer (site, scoring, checker, common) imports
# only the ones below it.
lint: install-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

# The suite in two processes at once (pytest-xdist), under coverage (pytest-cov): everything but
# the browser tests and the sweeps (UNMEASURED, below), then the sweeps without coverage, then the
# browser tests in three processes of their own (Playwright's event loop and the live server's
# threads then never share a process with the threaded database tests; a browser test waits on
# its pages as much as it works, so a third process fills two cores), then
# the WebKit suite (tests/webkit, marked `webkit`): the main flows in WebKit, the engine of every
# iPhone browser, as Debian's MiniBrowser driven by WebKitWebDriver through Selenium, on an Xvfb
# display the suite starts itself. It runs in one process (-n 0), so that one WebKit, which takes
# seconds to start, serves the whole pass. Without WebKitWebDriver, MiniBrowser or Xvfb
# (apt-get install webkit2gtk-driver xvfb xauth) it is skipped and says so; with
# REQUIRE_BROWSER=1 (CI) it fails instead. Then the gates, each reported on its own: rules/ and
# checker/ at 100% branch coverage, scoring/, accounts/ and nights/ at 95% or more, measured in
# the first pass alone: the browser passes drive the same views through a browser, and under
# coverage's tracing their server took a third longer for lines the first pass covers already.
# A run narrowed with PYTEST_ARGS skips them, since it can't cover everything. The load tool's
# runs (marked `loadtest`) are left out: `make test-load`. `make test-services` is CI's pass on
# PostgreSQL and Redis: the suite without what is the same on any database, namely the rules
# engine and the rest that is pure Python (the engine's benchmarks, names, charts, wording), the
# hand checker (no database, cache or session), what servers and the
# proxy do with requests' bytes (bodies, static files, slow clients, the access log's
# redaction) and the checks of the code's own layout; and of the browser
# tests those of writes (BROWSER_TESTS_OF_WRITES), in Chromium (WebKit's pass is `make test`'s).
# It runs without coverage, which costs about a
# third more time: the gates are `make test`'s. Each says how long it took.
TEST_PROCESSES ?= 2
BROWSER_PROCESSES ?= 3
# Every test process imports the same few hundred test modules, which pytest rewrites for its
# assertions (about 6 s of CPU a process): kept in __pycache__ (which git ignores), the first
# pass's work serves every process after it, so the suite writes them even where
# PYTHONDONTWRITEBYTECODE is set (as on CI's machines).
PYTEST_RUN := env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest
PYTEST := $(PYTEST_RUN) -n $(TEST_PROCESSES) --cov --cov-report=

test: install-test setup lint
	@started=$$(date +%s); \
	if [ -n "$(PYTEST_ARGS)" ]; then \
		$(PYTEST_RUN) $(PYTEST_ARGS); \
	else \
		$(PYTEST) -m "not browser and not webkit and not loadtest" $(UNMEASURED:%=--ignore=%) && \
		$(PYTEST_RUN) -n $(TEST_PROCESSES) -m "not browser and not webkit and not loadtest" $(UNMEASURED) && \
		$(PYTEST_RUN) -n $(BROWSER_PROCESSES) --dist worksteal -m browser tests/browser && \
		$(PYTEST_RUN) -n 0 -m webkit tests/webkit && \
		$(MAKE) --no-print-directory gates GATES="rules:100 checker:100 scoring:95 accounts:95 nights:95"; \
	fi; \
	status=$$?; echo "make test took $$(( $$(date +%s) - started )) s"; exit $$status

# The sweeps: hundreds of generated requests and races over views the rest of the suite covers
# line by line (the fuzz tests, every URL for every kind of visitor, reads torn at every query).
# Under coverage's tracing they took twice as long; the gates hold without them.
UNMEASURED := tests/test_fuzz.py tests/test_access_matrix.py \
	tests/scoring/selectors/test_torn_reads.py

# What `make test-services` leaves out, beside the doctests of rules/ and checker/ (it collects
# tests/ alone: --ignore leaves a folder of testpaths collected). The benchmarks' tests of the
# engine (all 2,598,960 hands among them), names, charts, wording and the offline lookups against
# the engine are pure Python too, and the load tool's bounds and its handling of the layout's
# processes are the same on any database (its runs on PostgreSQL and Redis are `make test-load`'s),
# and so is the access matrix: who may see each URL is decided by the same filters of the same
# ORM on any database (its thousand requests cost the pass 18 s).
SAME_ON_ANY_DATABASE := --ignore=tests/rules --ignore=tests/checker \
	--ignore=tests/tools/bench/test_hands.py --ignore=tests/tools/bench/test_seating.py \
	--ignore=tests/tools/bench/test_split.py --ignore=tests/tools/bench/test_split_page.py \
	--ignore=tests/tools/test_traditional_only.py --ignore=tests/scoring/test_names.py \
	--ignore=tests/scoring/presenters/test_charts.py --ignore=tests/scoring/presenters/test_wording.py \
	--ignore=tests/bigtwo_site/test_request_bodies.py --ignore=tests/bigtwo_site/test_static_files.py \
	--ignore=tests/bigtwo_site/test_log_redaction.py --ignore=tests/test_slow_clients.py \
	--ignore=tests/test_layout.py --ignore=tests/test_suite_imports.py \
	--ignore=tests/tools/test_loadtest_limits.py --ignore=tests/scoring/presenters/test_offline_sheet.py \
	--ignore=tests/test_access_matrix.py

# The browser tests where phones race, resend or queue their writes, or follow a game through the
# stream (the channel layer on Redis): the rest drive the same views the suite tests on any
# database, and are left to `make test`. Of the own-counts tests, the whole game on four phones
# (each figure followed by the stream, one kept offline, a seat filled in): the rest are one phone's.
BROWSER_TESTS_OF_WRITES := tests/browser/test_at_the_table.py tests/browser/test_board_delta.py \
	tests/browser/test_live.py tests/browser/test_live_stream.py \
	tests/browser/test_offline_game.py \
	tests/browser/test_own_counts.py::test_four_phones_play_a_whole_game_each_sending_their_own_cards \
	tests/browser/test_server_restart.py \
	tests/browser/test_waiting_deal.py

test-services: install-test setup
	@started=$$(date +%s); \
	$(PYTEST_RUN) -n $(TEST_PROCESSES) -m "not browser and not webkit and not loadtest" tests $(SAME_ON_ANY_DATABASE) && \
	$(PYTEST_RUN) -n $(BROWSER_PROCESSES) --dist worksteal -m browser $(BROWSER_TESTS_OF_WRITES); \
	status=$$?; echo "make test-services took $$(( $$(date +%s) - started )) s"; exit $$status

test-load: install-test setup
	$(PYTEST_RUN) -m loadtest $(PYTEST_ARGS)

gates:
	@status=0; for gate in $(GATES); do \
		echo "$${gate%%:*}/ (branch coverage, at least $${gate##*:}%):"; \
		$(BIN)/python -m coverage report --include="$${gate%%:*}/*" --fail-under=$${gate##*:} \
			|| status=1; \
	done; exit $$status

# The engine's and the hand checker's benchmarks (tools/bench/); docs/development.md lists the
# others, each run on its own.
bench: install
	$(BIN)/python -m tools.bench.hands
	$(BIN)/python -m tools.bench.split
	$(BIN)/python -m tools.bench.split_page

# Translations (needs GNU gettext: apt-get install gettext). Collects every marked string into
# locale/zh_Hans/LC_MESSAGES/django.po and locale/zh_Hant/LC_MESSAGES/django.po; translate the
# new entries in both, then run it again to compile. The .mo is
# committed, so `make run` and the tests need no gettext.
messages: install
	$(BIN)/python manage.py makemessages -l zh_Hans -l zh_Hant --ignore=.venv --ignore=var --ignore=tests \
		--ignore=test-artifacts
	$(BIN)/python manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) var/static
