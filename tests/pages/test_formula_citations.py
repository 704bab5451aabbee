r"""A formula number cited beside a symbol is the number of the equation that defines the symbol.

Each textbook formula is labelled once, on its home page (``$$ ... $$ (eq-2-37)``). A labelled formula whose
left-hand side is a single symbol defines it: :math:`\bar f(x)` in (2.37), :math:`\mathrm{var}(x)` in (2.38),
TPR in (2.18), and so on. Wherever the English prose, a docstring of ``melearn`` or a Chinese translation writes
such a symbol in math and cites a formula right after it (``$\bar f$ {eq}`eq-2-37```, ``:math:`\bar f(x)` (2.37)``,
``$\bar f$（式 (2.37)）``), the number cited must be that of the defining equation, or a range holding it.

Skipped: a symbol that two labelled formulas define (``acc`` in (2.5) and (2.7)), and the symbols that a later
formula reuses with another meaning (:data:`REUSED`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from functools import cache
from pathlib import Path

import nbformat
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
DOCS = ("README.md", "CONTRIBUTING.md", "ARCHITECTURE.md")  # the repository's documents in English
# mu and sigma^2 are defined by (2.28)-(2.29) for the error rates of one learner; (2.31)-(2.32) reuse them for the
# differences of two learners' error rates, and "sigma^2 of (2.31)" is right there
REUSED = {r"\mu", r"\sigma^2"}

_LABELLED = re.compile(r"\$\$(.*?)\$\$\s*\(eq-2-(\d+)\)", re.S)
_MATH = re.compile(r"\$([^$]+)\$|\{math\}`([^`]+)`|:math:`([^`]+)`")
_NUMBER = r"(?:\((2\.\d+)\)|\{eq\}`eq-2-(\d+)`)"
# what may stand between a symbol and the number it cites: "of", "in", 式, an opening bracket
_CITED = re.compile(r"\s*(?:[(（]\s*)?(?:式|of|in|formula)?\s*" + _NUMBER)
_RANGE_END = re.compile(r"\s*[-–]\s*" + _NUMBER)


def symbol(tex: str) -> str:
    r"""A symbol's LaTeX reduced to a key: ``\bar{f}(x)``, ``\bar f`` and ``\bar f(x)`` all give ``\barf``."""
    text = re.sub(r"\\(?:left|right|big|Big|bigg|Bigg)\b", "", tex)
    text = re.sub(r"\\(?:operatorname|mathrm|text|mathit)\s*\{([^{}]*)\}", r"\1", text)
    text = re.sub(r"\\[,;:! ]", "", text)
    text = re.sub(r"\s+", "", text.replace("{", "").replace("}", "").replace("&", ""))
    return re.sub(r"\((?:x|x;D|f;D|f;\\mathcalD)\)$", "", text)


def _number(match: re.Match, first: int) -> float:
    return float(match.group(first) or f"2.{match.group(first + 1)}")


@cache
def definitions() -> dict[str, str]:
    """Each symbol that exactly one labelled formula defines, with that formula's number ("2.37")."""
    found: dict[str, set[str]] = defaultdict(set)
    for page in sorted((ROOT / "chapters").rglob("*.ipynb")):
        for cell in nbformat.read(page, as_version=4).cells:
            if cell.cell_type != "markdown":
                continue
            for body, number in _LABELLED.findall(cell.source):
                body = body.replace(r"\begin{aligned}", "")
                if "=" in body:
                    found[symbol(body.split("=")[0])].add(f"2.{number}")
    return {name: numbers.pop() for name, numbers in found.items() if len(numbers) == 1 and name not in REUSED}


def wrong_citations(text: str, defined: dict[str, str] | None = None) -> list[str]:
    """Every symbol of ``text`` written in math and followed by the number of another formula than its own."""
    defined = definitions() if defined is None else defined
    found = []
    for match in _MATH.finditer(text):
        inner = next(group for group in match.groups() if group)
        sides = [symbol(side) for side in inner.split("=")]
        own = {defined[side] for side in sides if side in defined}
        cited = _CITED.match(text, match.end())
        if not own or not cited:
            continue
        low = high = _number(cited, 1)
        until = _RANGE_END.match(text, cited.end())
        if until:
            high = _number(until, 1)
        if not any(low <= float(number) <= high for number in own):
            shown = text[match.start() : (until or cited).end()]
            found.append(f"{' '.join(shown.split())!r}: defined by ({', '.join(sorted(own))})")
    return found


def texts():
    """The English prose of the pages and the repository's documents, melearn's source, every Chinese translation."""
    for page in sorted((ROOT / "chapters").rglob("*.ipynb")):
        for cell in nbformat.read(page, as_version=4).cells:
            if cell.cell_type == "markdown":
                yield page, cell.source
    for path in [*sorted((ROOT / "chapters").rglob("*.md")), *(ROOT / name for name in DOCS)]:
        yield path, path.read_text(encoding="utf-8")
    for path in sorted((ROOT / "melearn").rglob("*.py")):
        yield path, path.read_text(encoding="utf-8")
    catalogues = [*sorted((ROOT / "locale" / "zh_CN").rglob("*.po")), ROOT / "melearn/locale/zh_CN/melearn.po"]
    for path in catalogues:
        with path.open("rb") as handle:
            for message in read_po(handle):
                if message.id and isinstance(message.string, str) and message.string:
                    yield path, message.string


def test_the_defining_equations_are_found():
    defined = definitions()
    assert defined[r"\barf"] == "2.37" and defined["var"] == "2.38" and defined["TPR"] == "2.18"
    assert r"\mu" not in defined and "acc" not in defined  # reused; defined twice


def test_a_symbol_cites_its_own_formula():
    problems = [f"{path.relative_to(ROOT)}: {wrong}" for path, text in texts() for wrong in wrong_citations(text)]
    assert not problems, "\n".join(problems)


def test_the_citation_check_can_fail():
    defined = {r"\barf": "2.37", "var": "2.38", "P": "2.8", "P(+)_cost": "2.24"}
    assert wrong_citations(r"their mean $\bar f$ {eq}`eq-2-38` over all sets", defined)
    assert wrong_citations(r"the mean prediction :math:`\bar f(x)` (2.38) at the test points", defined)
    assert wrong_citations(r"平均预测 $\bar f$（式 (2.38)）", defined)
    assert not wrong_citations(r"their mean $\bar f$ {eq}`eq-2-37` over all sets", defined)
    assert not wrong_citations(r"$\bar f(x)$ and $\mathrm{var}(x)$ (2.37)-(2.42)", defined)  # a range holding it
    assert not wrong_citations(r"the condition $P = P(+)_{cost}$ of {eq}`eq-2-24`", defined)  # one side is (2.24)
    assert not wrong_citations(r"$\bar f$, the variance (2.38)", defined)  # a number not beside the symbol
