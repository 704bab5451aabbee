r"""The state of one page: everything a check reads or writes beyond its own chain, in one object.

A page's checks share four things: the definitions made on the page (an expectation decides what is random on
what a name means), the side conditions a rule found unmet while rewriting (read back by the refusal that
names them), the chains checked (the ledger counts them) and the claims recorded without a chain
(``record_enumeration`` and the rest). They live in a :class:`Page`, never in module-level variables.

A page's code does not pass its page around: there is always a current page, and ``Rule.definition``,
``Derivation.check``, ``page_ledger`` and the ``record_*`` functions use it unless given one (``page=``).
``melearn.derivation.ledger.clear`` starts the current page afresh: its definitions, unmet conditions, chains and
claims are all forgotten, so that nothing of one page is seen by the next.

Examples
--------
>>> import sympy as sp
>>> from melearn.derivation import Derivation, Rule, page_ledger
>>> first, second = Page(), Page()
>>> x, y = sp.symbols("x y")
>>> definition = Rule.definition("y", {y: 2 * x}, page=first)
>>> _ = Derivation(y).step(2 * x, "", rules=[definition]).check(page=first)
>>> len(first.definitions), len(first.chains), len(second.definitions), len(second.chains)
(1, 1, 0, 0)
>>> page_ledger(page=first).steps, page_ledger(page=second).steps
(1, 0)
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["Page", "current"]


class Page:
    """What the checks of one page read and write.

    Attributes
    ----------
    definitions : list of (sympy expression, sympy expression)
        Every definition made on the page, as (name, meaning), in the order made.
    unmet : list of str
        Side conditions a rule found unmet while rewriting, since the checker last read them.
    chains : dict
        The chains checked on the page, by what they say (``melearn.derivation.ledger.content_key``).
    claims : list of (str, str, str)
        The claims recorded without a chain: (how, claim, scope).
    """

    __slots__ = ("chains", "claims", "definitions", "unmet")

    def __init__(self) -> None:
        self.definitions: list[tuple] = []
        self.unmet: list[str] = []
        self.chains: dict = {}
        self.claims: list[tuple[str, str, str]] = []

    def clear(self) -> None:
        """Forget everything: definitions, unmet conditions, chains and claims (a fresh page)."""
        self.definitions.clear()
        self.unmet.clear()
        self.chains.clear()
        self.claims.clear()

    def define(self, name, meaning) -> None:
        """Note the definition ``name := meaning`` (once)."""
        if not any(name == n and meaning == m for n, m in self.definitions):
            self.definitions.append((name, meaning))

    def note_unmet(self, note: str) -> None:
        """Note a side condition found unmet (once)."""
        if note not in self.unmet:
            self.unmet.append(note)

    def take_unmet(self) -> list[str]:
        """The side conditions noted since the last call, and forget them."""
        notes = list(self.unmet)
        self.unmet.clear()
        return notes

    @contextmanager
    def active(self) -> Iterator[Page]:
        """Make this page the current one for the duration of a ``with`` block (a check on an explicit page)."""
        before = _Current.page
        _Current.page = self
        try:
            yield self
        finally:
            _Current.page = before

    def __repr__(self) -> str:
        return (
            f"<Page: {len(self.definitions)} definitions, {len(self.chains)} chains, {len(self.claims)} claims, "
            f"{len(self.unmet)} unmet conditions>"
        )


class _Current:
    # the page a page's code uses when it names none: the one pointer the package keeps, not state of a check
    page = Page()


def current() -> Page:
    """The current page (the one a page's code uses when it names none)."""
    return _Current.page


def resolve(page: Page | None) -> Page:
    """``page`` itself, or the current page when it is None (a ``TypeError`` for anything else)."""
    if page is None:
        return current()
    if not isinstance(page, Page):
        raise TypeError(f"page must be a Page, got {type(page).__name__}")
    return page
