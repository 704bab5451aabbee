"""Repository-wide pytest configuration, loaded for every run from the repository root.

``book/nbval_figures.py`` makes nbval compare each notebook's PNG figures byte for byte (by digest), which
nbval alone skips; it lives here rather than in ``tests/conftest.py`` so that ``pytest chapters/PAGE.ipynb``
checks figures too.

The test command runs pytest-xdist with ``--dist loadscope``, whose scopes are defined here (:func:`scope_of`):
what must share a process stays together (every cell of a notebook, which one kernel runs in order; every browser
check of one page of the built book, which reads one visit of the page; the rest of a test file), and the units are
small enough for the two workers to finish together. (xdist's own grouping by marker, ``--dist loadgroup``, rewrites
node ids in a way pytest 9 no longer honours.)
"""

from __future__ import annotations

import functools

import pytest

pytest_plugins = ["book.nbval_figures"]

BROWSER_TESTS = "tests/book/browser/"
# the test files that read the book as built in _build: the browser tests, and the edition tests (the sites, the
# PDFs, and the catalogues they were built from)
BUILT_TESTS = (BROWSER_TESTS, "tests/book/test_editions.py")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark ``built`` every test of the files that read the built book (:data:`BUILT_TESTS`).

    ``make test`` runs the tests that need no build (``-m "not built"``: doctests, unit tests, nbval) beside the
    builds, and the ``built`` ones after them.
    """
    for item in items:
        if item.nodeid.startswith(BUILT_TESTS):
            item.add_marker(pytest.mark.built)


@functools.cache
def _book_pages() -> frozenset[str]:
    """The pages of both editions, as the browser tests name them (``chapters/auc``, ``zh/chapters/auc``)."""
    from tests.book.browser.bookcheck import toc_pages

    return frozenset(page for name in toc_pages() for page in (name, f"zh/{name}"))


def scope_of(nodeid: str) -> str:
    """The unit of work a test belongs to: a notebook, one page's browser checks, or a test file.

    Every browser check of one page, in whichever file, reads the page's one visit
    (``tests/book/browser/bookcheck.py``),
    so they go to one worker together: ``page:zh/chapters/auc`` for ``test_x[zh/chapters/auc-print]``.
    """
    path, _, rest = nodeid.partition("::")
    if path.startswith(BROWSER_TESTS) and rest.endswith("]"):
        param = rest[rest.index("[") + 1 : -1]
        for part in param.split("-"):  # parameter ids are joined by "-"; no page name holds one
            if part in _book_pages():
                return f"page:{part}"
    return path  # a notebook (its cells on one kernel) or a test file


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """Under ``--dist loadscope``, deal out the units of :func:`scope_of`, the largest first."""
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByUnit(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return scope_of(nodeid)

    return ByUnit(config, log)
