# Two commands matter: `make run` (serve the site) and `make test` (lint and the whole suite).
# Both start from nothing but Python 3.12+ and make: they build .venv themselves.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 0.0.0.0
PORT ?= 8000
WORKERS ?= 3

.PHONY: run run-streams demo test setup install install-test migrate static lint bench messages clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else "Python 3.12 or newer is needed (found " + sys.version.split()[0] + "). Install it, or run make PYTHON=python3.12 ...")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Stamp files record what was installed, so a second `make run` starts at once.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e ".[test,postgres]"
	@touch $@

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

migrate: install
	$(BIN)/python manage.py migrate --noinput

static: install
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0

setup: migrate static

run: setup
	@echo "Serving on http://$(HOST):$(PORT)/ -- from a phone on the same Wi-Fi, open http://<this computer's address>:$(PORT)/"
	$(BIN)/gunicorn bigtwo_site.wsgi --bind $(HOST):$(PORT) --workers $(WORKERS) --access-logfile - \
		--logger-class bigtwo_site.log_redaction.RedactingLogger

# The streams that tell phones a game changed (scoring/live_changes.py), for a server behind a
# proxy that sends /games/N/changes/ here (README, "Deploying"). Without it the pages poll.
STREAM_PORT ?= 8001
run-streams: setup
	$(BIN)/gunicorn bigtwo_site.asgi --worker-class uvicorn_worker.UvicornWorker \
		--bind $(HOST):$(STREAM_PORT) --workers 1 --access-logfile - \
		--logger-class bigtwo_site.log_redaction.RedactingLogger

# A demo club with a season of finished games, its login printed here; `make run` to look.
# It won't seed the same club twice: `$(BIN)/python manage.py seed_demo --club NAME` for another.
demo: setup
	$(BIN)/python manage.py seed_demo

# lint-imports checks the import contracts in pyproject.toml: above all, that the rules engine
# imports nothing from Django, and that each layer (site, scoring, rules.web, common) imports
# only the ones below it.
lint: install-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

# The whole suite runs under coverage, then two gates, each reported on its own: rules/ must
# stay at 100% branch coverage, scoring/ at 95% or more. A run narrowed with PYTEST_ARGS skips
# them, since it can't cover everything.
# The browser tests run in a process of their own: Playwright's event loop and the live
# server's threads then never share a process with the threaded database tests.
test: install-test setup lint
	@if [ -n "$(PYTEST_ARGS)" ]; then \
		$(BIN)/python -m coverage run -m pytest $(PYTEST_ARGS); \
	else \
		$(BIN)/python -m coverage erase && \
		$(BIN)/python -m coverage run --append -m pytest -m "not browser" && \
		$(BIN)/python -m coverage run --append -m pytest -m browser; \
	fi
	@if [ -z "$(PYTEST_ARGS)" ]; then \
		status=0; \
		echo "rules/ (branch coverage, at least 100%):"; \
		$(BIN)/python -m coverage report --include='rules/*' --fail-under=100 || status=1; \
		echo "scoring/ (branch coverage, at least 95%):"; \
		$(BIN)/python -m coverage report --include='scoring/*' --fail-under=95 || status=1; \
		exit $$status; \
	fi

bench: install
	$(BIN)/python -m rules.bench
	$(BIN)/python -m rules.bench_split

# Translations (needs GNU gettext: apt-get install gettext). Collects every marked string into
# locale/zh_Hant/LC_MESSAGES/django.po; translate the new entries, then compile. The .mo is
# committed, so `make run` and the tests need no gettext.
messages: install
	$(BIN)/python manage.py makemessages -l zh_Hant --ignore=.venv --ignore=var --ignore=tests \
		--ignore=test-artifacts
	$(BIN)/python manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) var/static
