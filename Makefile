# Commands on a fresh machine (Python 3.11, the lowest version requires-python in pyproject.toml allows and the one
# the book is built on; pip, make); each creates .venv from the pinned lock file if needed:
#   make book   build both editions and their PDFs, executing every page once per edition (a failing cell fails
#               the build): English in _build/html, Chinese (中文版) in _build/html/zh, PDFs in _build/pdf
#   make test   the full check: make lint, a strict build of the English edition from the stored outputs, the Chinese
#               edition (built beside it) and both PDFs, with the tests that need no build beside them (unit,
#               property, cross-check, nbval with figures) and the library's tests on Python 3.12 and 3.13 beside
#               them, then the tests of the built book (catalogues, PDFs, browser tests over both editions); every
#               page is executed exactly once in English (by nbval) and once in Chinese (by the Chinese build)
#   make unit   the inner loop: melearn's doctests and the library tests (no notebooks, no build)
#   make lint   ruff (lint, import order, format check), mypy on melearn/, the CI workflow against its schema; the
#               first step of make test
#   make look   a contact sheet per page a change touched (desktop, phone, dark, first PDF sheet) in _build/look;
#               make look PAGES=all for every page
# Everything runs inside .venv, installed from requirements/lock.txt (exact versions).

SHELL  := /bin/bash
# Python caches compiled modules (in __pycache__/, which git ignores) even where PYTHONDONTWRITEBYTECODE is set:
# without the cache every pytest process rewrites and compiles the asserts of every test module again (about 4 s)
unexport PYTHONDONTWRITEBYTECODE
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# the Python version of the book's environment: the lowest of requires-python = ">=X.Y,..." in pyproject.toml
# (requirements/lock.txt is for it); the library's tests also run on the others (make test-versions)
PYTHON_VERSION := $(shell sed -n 's/^requires-python = ">=\([0-9]*\.[0-9]*\),.*/\1/p' pyproject.toml)
# pytest-xdist on 2 workers; --dist loadscope with the scopes of the root conftest.py: each notebook (all its cells,
# one kernel), each page's browser checks (one visit) and each test file on one worker, small enough to balance
JOBS   ?= 2
XDIST  := -n $(JOBS) --dist loadscope
# the test files that read the built book (BUILT_TESTS of the root conftest.py, which marks their tests "built"):
# the run of the built book collects only them, not the doctests, unit tests and notebooks (about 5 s a worker)
BUILT_TESTS := tests/book/browser tests/book/test_editions.py

.PHONY: book editions pdf test test-times unit lint env notebooks catalogues bench look clean

# (re)install when the lock file or the package metadata changes
$(STAMP): requirements/lock.txt pyproject.toml
	@$(PYTHON) -c 'import sys; v = "%d.%d" % sys.version_info[:2]; sys.exit(0 if v == "$(PYTHON_VERSION)" else \
	  f"Python $(PYTHON_VERSION) is required (requires-python in pyproject.toml; the lock file pins versions for it), " \
	  f"but $(PYTHON) is Python {v}. Install Python $(PYTHON_VERSION) and run make PYTHON=python$(PYTHON_VERSION) $(MAKECMDGOALS) " \
	  f"(delete .venv first if another Python made it).")'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet "pip==26.3"
	$(BIN)/python -m pip install --quiet --no-deps --require-virtualenv -r requirements/lock.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
	$(BIN)/python -m pip check
	touch $@

env: $(STAMP)

# The book's main job: every page executed against the current melearn, once per edition: the site and the PDF of
# an edition share one execution cache, kept per version of melearn, the catalogues and the lock file
# (book/build_edition.py), so a change in the library executes the pages again.
book: $(STAMP)
	$(BIN)/python -m book.build_edition en --execution cache
	$(MAKE) editions PDF_EN_EXECUTION=cache
	@echo "The book is at $(CURDIR)/_build/html/index.html (中文版: _build/html/zh/index.html); PDFs in _build/pdf/"

# The Chinese site (its pages executed in Chinese) and the PDFs of both editions. The English PDF is printed from
# the stored outputs in make test (PDF_EN_EXECUTION=off), from the executed pages in make book.
PDF_EN_EXECUTION ?= off
editions: $(STAMP)
	$(BIN)/python -m book.build_edition zh_CN
	$(MAKE) pdf

pdf: $(STAMP)
	$(BIN)/python -m book.build_pdf en --execution $(PDF_EN_EXECUTION)
	$(BIN)/python -m book.build_pdf zh_CN

# One execution of every page per run: the build renders the stored outputs (MELEARN_BOOK_EXECUTION=off), and
# nbval executes each page and compares every output, figures included, with what the build rendered. A pytest
# run that collects nothing exits 5, which fails make like any other failure.
# Lint comes first: it takes seconds and fails before the slow steps. Then three chains start together (make -j3):
# the Chinese site (its pages executed by one kernel at a time) and its PDF; the English site, and its PDF once the
# Chinese site is built too (the two PDFs side by side); the tests that need no build (doctests, unit tests, nbval:
# pytest -m "not built" on two workers, at a lower priority). Once both PDFs are written, the tests of the built
# book (pytest -m built $(BUILT_TESTS) on two workers: browser tests over both editions, the PDFs, the Chinese
# pages). Each PDF is written from the pages its edition's site build read (book/build_edition.py), and printed
# again only when its one page, a file that page loads, the printing scripts, the browser or the fonts changed
# (book/build_pdf.py; python -m book.build_pdf en --print always prints anyway).
test: $(STAMP)
	@$(BIN)/python -m book.step_times start
	$(call timed,lint (ruff$(COMMA) mypy$(COMMA) workflow schema),$(MAKE) --no-print-directory lint)
	@$(MAKE) --no-print-directory -j3 --output-sync=target test-after-lint
	@$(MAKE) --no-print-directory test-times

# The steps of make test after lint: chains run side by side, each step timed (the table marks them "beside").
# The run is bound by the cores, so the order only decides what is left at the end: the builds and then the tests
# of the built book wait for one another (the Chinese chain is the longest), and the tests without the build
# (nice -n 10) take what CPU they leave, on two workers, so that neither a lone PDF nor a lone pytest process is
# left running on one core at the end.
.PHONY: test-after-lint test-built test-unbuilt test-versions test-en-site test-en-pdf test-zh-site test-zh-pdf
test-after-lint: test-built test-unbuilt test-versions
test-built: test-zh-pdf test-en-pdf
	$(call timed,tests of the built book: browser$(COMMA) sites$(COMMA) PDFs,$(BIN)/python -m pytest -m built $(BUILT_TESTS) $(XDIST))
test-unbuilt:
	$(call timed,tests without the build: doctests$(COMMA) unit$(COMMA) nbval (beside),nice -n 10 $(BIN)/python -m pytest -m "not built" $(XDIST))
# The library's tests (doctests and unit tests, no notebook, no build) on the other Python versions that
# requires-python allows (3.12, 3.13), each in its venv .venv-3.X from requirements/library-lock.txt; a version
# not found on the machine is skipped with a warning (book/python_versions.py)
test-versions:
	$(call timed,library tests on Python 3.12 and 3.13 (beside),nice -n 10 $(BIN)/python -m book.python_versions --jobs 1)
test-zh-site:
	$(call timed,Chinese site$(COMMA) executes every page (beside),$(BIN)/python -m book.build_edition zh_CN)
test-zh-pdf: test-zh-site
	$(call timed,Chinese PDF (beside),$(BIN)/python -m book.build_pdf zh_CN)
test-en-site:
	$(call timed,English site from the stored outputs (beside),$(BIN)/python -m book.build_edition en --execution off)
# The English PDF waits for the Chinese site too, so that the two PDFs are printed side by side: printed as soon
# as its site was built, the English PDF ended long before the Chinese one, which was then left alone on one core
# (a fresh clone's make test left 165 core-seconds idle that way)
test-en-pdf: test-en-site test-zh-site
	$(call timed,English PDF (beside),$(BIN)/python -m book.build_pdf en --execution $(PDF_EN_EXECUTION))

# Each step of make test is timed into $(TIMES) (the path book/step_times.py reads); the table is printed at the
# end, and after a failing step, with how much of the processors the machine gave the run (busy, idle, taken by its
# host). Steps marked "beside" ran at the same time as others, so the steps add up to more than make test took.
TIMES := _build/test-times.tsv
COMMA := ,
define timed
	@echo ">> $(1)"; start=$$(date +%s%N); $(2); status=$$?; \
	printf '%s\t%s\t%s\n' "$(1)" "$$(( ($$(date +%s%N) - start) / 1000000 ))" "$$status" >> $(TIMES); \
	if [ $$status -ne 0 ]; then $(MAKE) --no-print-directory test-times; fi; exit $$status
endef

test-times:
	@$(BIN)/python -m book.step_times table

# The inner loop: no notebook, no build, no browser; tests/book/test_editions.py builds whole editions and PDFs, and
# tests/melearn/test_light_install.py installs melearn with numpy and SciPy into a fresh environment (1-3 minutes), so
# they run in make test only.
unit: $(STAMP)
	$(BIN)/python -m pytest $(XDIST) melearn tests --ignore=tests/book/browser --ignore=tests/book/test_editions.py \
	  --ignore=tests/melearn/test_light_install.py

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/check-jsonschema --builtin-schema vendor.github-workflows .github/workflows/*.yml

# Re-execute every chapter notebook in place, storing its outputs (no timing metadata, so no noisy diffs), then
# fill the landing page's ledger tables from the stored ledgers and its formula map from the pages' labels.
notebooks: $(STAMP)
	$(BIN)/python -m book.execute_notebooks chapters
	$(BIN)/python -m book.ledger_table
	$(BIN)/python -m book.formula_map

# After a change of the English pages: extract their messages and merge them into the Chinese catalogues (then
# translate what is new or fuzzy: make test fails until the catalogues are complete), and collect the new text the
# pages generate into the output catalogues.
catalogues: $(STAMP)
	$(BIN)/python -m book.catalogues update
	$(BIN)/python -m book.output_catalogues collect
	$(BIN)/python -m book.catalogues check

# A contact sheet per page (desktop, phone, dark mode, first PDF sheet) in _build/look/, for the pages a change
# touched; make look PAGES=all for every page (book/look.py). Needs a built site.
look: $(STAMP)
	$(BIN)/python -m book.look $(PAGES)

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf _build
