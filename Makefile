# Two commands on a fresh machine (Python 3.11, pip, make):
#   make book   build the book strictly into _build/html (creates .venv from the pinned lock file if needed)
#   make test   build the book, then run every test: unit, property, cross-check, nbval and browser tests
# Everything runs inside .venv, installed from requirements/lock.txt (exact versions).

SHELL  := /bin/bash
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
BOOK_FLAGS := -n -W --keep-going --all  # --all: re-read and re-execute every page, even if its source is unchanged

.PHONY: book test env notebooks bench clean

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

book: $(STAMP)
	$(BIN)/jupyter-book build . $(BOOK_FLAGS)
	@echo "The book is at $(CURDIR)/_build/html/index.html"

test: book
	$(BIN)/python -m pytest

# Re-execute every chapter notebook in place, storing its outputs (no timing metadata, so no noisy diffs).
notebooks: $(STAMP)
	$(BIN)/python tools/execute_notebooks.py chapters

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf _build
