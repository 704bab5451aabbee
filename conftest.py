"""Repository-wide pytest configuration, loaded for every run from the repository root.

``tools/nbval_figures.py`` makes nbval compare each notebook's PNG figures byte for byte (by digest), which
nbval alone skips; it lives here rather than in ``tests/conftest.py`` so that ``pytest chapters/PAGE.ipynb``
checks figures too.

The test command runs pytest-xdist with ``--dist loadscope``, whose scopes are defined here (:func:`scope_of`):
what must share a process stays together (every cell of a notebook, which one kernel runs in order; every check of
one page of the built book, which reads one visit of the page; the rest of a test file), and the units are small
enough for the two workers to finish together. (xdist's own grouping by marker, ``--dist loadgroup``, rewrites
node ids in a way pytest 9 no longer honours.)
"""

from __future__ import annotations

import pytest

pytest_plugins = ["tools.nbval_figures"]

BOOK_PAGES_TESTS = "tests/browser/test_book_pages.py"


def scope_of(nodeid: str) -> str:
    """The unit of work a test belongs to: a notebook, one page's browser checks, or a test file."""
    path, _, rest = nodeid.partition("::")
    if path == BOOK_PAGES_TESTS and rest.endswith("]"):
        param = rest[rest.index("[") + 1 : -1]
        if "/" in param:  # a page of the book, such as chapters/auc: its checks share one visit
            return f"{path}[{param}]"
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
