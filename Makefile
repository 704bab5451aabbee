# Commands on a fresh machine (Python 3.11, pip, make); each creates .venv from the pinned lock file if needed:
#   make book   build the book into _build/html, executing every page (a failing cell fails the build)
#   make test   the full check: make lint, a strict build from the stored outputs, then one pytest run (unit, property,
#               cross-check, nbval with figures, and browser tests) in which every page is executed exactly once
#   make unit   the inner loop: melearn's doctests and the library tests (no notebooks, no build)
#   make lint   ruff (lint, import order, format check) and mypy on melearn/; the first step of make test
# Everything runs inside .venv, installed from requirements/lock.txt (exact versions).

SHELL  := /bin/bash
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# strict: a warning or a broken reference fails the build; --all: re-read every page (warnings are never stale)
BOOK_FLAGS := -n -W --keep-going --all
# pytest-xdist on 2 workers; --dist loadfile keeps each notebook (all its cells, one kernel) and each browser test
# file (one Chromium) on one worker
JOBS   ?= 2
XDIST  := -n $(JOBS) --dist loadfile

.PHONY: book test unit lint env notebooks bench clean

# (re)install when the lock file or the package metadata changes
$(STAMP): requirements/lock.txt pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info[:2] == (3, 11) else "Python 3.11 is required (the lock file is for 3.11); set PYTHON=python3.11")'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet "pip==26.3"
	$(BIN)/python -m pip install --quiet --no-deps --require-virtualenv -r requirements/lock.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
	$(BIN)/python -m pip check
	touch $@

env: $(STAMP)

# The book's main job: every page executed against the current melearn (execute_notebooks: force in _config.yml).
book: $(STAMP)
	$(BIN)/jupyter-book build . $(BOOK_FLAGS)
	@echo "The book is at $(CURDIR)/_build/html/index.html"

# One execution of every page per run: the build renders the stored outputs (MELEARN_BOOK_EXECUTION=off), and
# nbval, in the pytest run that follows, executes each page and compares every output, figures included, with
# what the build rendered. A pytest run that collects nothing exits 5, which fails make like any other failure.
# Lint comes first: it takes seconds and fails before the slow steps.
test: $(STAMP) lint
	MELEARN_BOOK_EXECUTION=off $(BIN)/jupyter-book build . $(BOOK_FLAGS)
	$(BIN)/python -m pytest $(XDIST)

unit: $(STAMP)
	$(BIN)/python -m pytest $(XDIST) melearn tests --ignore=tests/browser

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# Re-execute every chapter notebook in place, storing its outputs (no timing metadata, so no noisy diffs), then
# fill the landing page's ledger tables from the stored ledgers.
notebooks: $(STAMP)
	$(BIN)/python tools/execute_notebooks.py chapters
	$(BIN)/python tools/ledger_table.py

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf _build
