"""Number labelled equations as the textbook does: the label ``eq-2-20`` is shown and referenced as (2.20).

Sphinx numbers labelled equations 1, 2, 3, ... in the order it reads them. A reader holding the textbook wants
the textbook's numbers, so this extension replaces Sphinx's math domain with one that takes the number from the
label. Every labelled equation must carry a book label ``eq-<chapter>-<number>``; any other label is a warning,
which fails the strict build. Equations that are not in the textbook are left unlabelled (or tagged with
``\\tag{...}`` where a page needs to point at them locally).
"""

from __future__ import annotations

import re

from sphinx.domains.math import MathDomain
from sphinx.util import logging

logger = logging.getLogger(__name__)

BOOK_LABEL = re.compile(r"^eq-(\d+)-(\d+)$")


def book_number(label: str) -> str | None:
    """``"eq-2-20"`` -> ``"2.20"``; ``None`` for a label that is not a book label."""
    match = BOOK_LABEL.match(label)
    return f"{int(match.group(1))}.{int(match.group(2))}" if match else None


class BookMathDomain(MathDomain):
    """The math domain, with equation numbers taken from book labels."""

    def note_equation(self, docname: str, labelid: str, location=None) -> None:
        number = book_number(labelid)
        if number is None:
            logger.warning("equation label %r is not a book label such as 'eq-2-20'", labelid, location=location)
            super().note_equation(docname, labelid, location)
            return
        if labelid in self.equations:
            other = self.equations[labelid][0]
            logger.warning(
                "formula (%s) is labelled twice, here and in %s: label it on its own page and use {eq} elsewhere",
                number,
                other,
                location=location,
            )
        self.equations[labelid] = (docname, number)


def setup(app):
    app.add_domain(BookMathDomain, override=True)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
