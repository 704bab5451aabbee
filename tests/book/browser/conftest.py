"""Fixtures for the browser tests: the built HTML, a local web server over it, one headless Chromium, and the one
visit of each page that every test of the page reads (``page_visits``, see ``bookcheck.PageVisits``).

The tests read the book exactly as a reader does: the HTML that ``make book`` built, served over
``http://127.0.0.1`` and opened in Chromium through Playwright. Environment variables:

``MELEARN_BOOK_HTML``
    the built HTML folder (default: ``_build/html`` at the repository root);
``MELEARN_BOOK_TOC``
    the table of contents whose pages are opened (default: ``_toc.yml`` at the repository root);
``MELEARN_CHROMIUM``
    the Chromium executable (default: ``/usr/bin/chromium``);
``MELEARN_BOOK_SCREENSHOTS``
    where the screenshots go (default: ``_build/screenshots`` at the repository root);
``CI``
    under ``CI=true`` a missing build or a missing browser is a failure, not a skip.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

from .bookcheck import (
    CHROMIUM_ARGS,
    LocalServer,
    PageReport,
    PageVisits,
    chromium_executable,
    html_dir,
    skip_or_fail,
    visit_page,
)


@pytest.fixture(scope="session")
def book_html() -> Path:
    directory = html_dir()
    if not (directory / "chapters").is_dir():
        skip_or_fail(f"no built book in {directory}: run `make book` first (or set MELEARN_BOOK_HTML)")
    return directory


@pytest.fixture(scope="session")
def server(book_html):
    with LocalServer(book_html) as running:
        yield running


@pytest.fixture(scope="session")
def browser_context():
    """One headless Chromium for the whole session, with a new empty profile (deleted afterwards)."""
    executable = chromium_executable()
    if not (Path(executable).is_file() or shutil.which(executable)):
        skip_or_fail(f"Chromium is not installed at {executable} (apt-get install chromium, or set MELEARN_CHROMIUM)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        skip_or_fail("Playwright for Python is not installed (it is in requirements/lock.txt: run `make env`)")
    profile = tempfile.mkdtemp(prefix="melearn-chromium-")
    playwright = sync_playwright().start()
    try:
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=executable,
            headless=True,
            args=list(CHROMIUM_ARGS),
            viewport={"width": 1280, "height": 900},
            color_scheme="light",
            service_workers="block",
        )
    except Exception as error:  # noqa: BLE001 - any launch failure means "no usable browser"
        playwright.stop()
        shutil.rmtree(profile, ignore_errors=True)
        skip_or_fail(f"Chromium at {executable} did not start: {error}")
    try:
        yield context
    finally:
        context.close()
        playwright.stop()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="session")
def page_visits(request, tmp_path_factory, browser_context, server) -> PageVisits:
    """Each page of the book opened once in this run: under pytest-xdist, once among all the workers.

    The workers of one run share the parent of their temporary folders (a new one each run), where the visits are
    kept; a run without xdist keeps them in memory.
    """
    shared = hasattr(request.config, "workerinput")  # an xdist worker
    store = tmp_path_factory.getbasetemp().parent / "page-visits" if shared else None
    return PageVisits(browser_context, server, store)


@pytest.fixture
def report(request, page_visits) -> PageReport:
    """The visit of the page a test is parametrised with (``bookcheck.on_every_page``), made on first use and shared
    by every check of that page, in whichever test file."""
    return visit_page(page_visits, request.param)
