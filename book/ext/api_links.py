"""Link the API reference to the book: a docstring's ``chapters/<page>.ipynb`` becomes a link to that page.

Every public function of ``melearn`` names, in its docstring, the formula it implements and the book page that
derives it, as plain text (``chapters/roc_curve.ipynb``) so that it reads well in ``help()``. When autodoc renders
the docstring for the book's API page, this extension rewrites each such mention into a ``:doc:`` reference to
the page, provided the page is part of the book (a page not in the table of contents stays plain text rather
than becoming a broken link).

It also checks that the API page is complete: a name in ``melearn.__all__`` that no autodoc directive documented
is a warning, which fails the strict build.
"""

from __future__ import annotations

import re

from sphinx.util import logging

logger = logging.getLogger(__name__)

PAGE_MENTION = re.compile(r"``chapters/(?P<name>[A-Za-z0-9_\-/]+)\.(?:ipynb|md)``")


def _link_pages(app, what, name, obj, options, lines) -> None:
    found = app.env.found_docs

    def replace(match: re.Match) -> str:
        docname = f"chapters/{match.group('name')}"
        return f":doc:`/{docname}`" if docname in found else match.group(0)

    lines[:] = [PAGE_MENTION.sub(replace, line) for line in lines]


def _ignore_pairs_as_tuples(app, config) -> None:
    # _config.yml can only give nitpick_ignore as a list of [type, target] lists; Sphinx matches tuples
    config.nitpick_ignore = [tuple(entry) for entry in config.nitpick_ignore]


def _check_complete(app, env) -> None:
    if not app.config.api_links_package:
        return
    package = __import__(app.config.api_links_package)
    documented = set(env.get_domain("py").objects)
    for public in getattr(package, "__all__", []):
        qualified = f"{package.__name__}.{public}"
        if qualified not in documented:
            logger.warning("the API page does not document %s (it is in %s.__all__)", qualified, package.__name__)


def setup(app):
    app.add_config_value("api_links_package", "", "env")
    app.connect("config-inited", _ignore_pairs_as_tuples)
    app.connect("autodoc-process-docstring", _link_pages)
    app.connect("env-check-consistency", _check_complete)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
