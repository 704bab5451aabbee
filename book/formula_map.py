"""Link every formula of the landing page's formula map to the page that restates and checks it.

Usage: ``python -m book.formula_map [--check]``.

The first column of the formula map in ``chapters/intro.md`` (the first table between the ``ledger-table``
markers) names the formulas of each row's page. It is generated from the pages themselves: a page restates a
formula under the book label of its number (``$$ ... $$ (eq-2-20)``), and the row of that page lists every formula
the page labels, each one a link (``{eq}`eq-2-20```) to the formula on its page, in number order. A row whose page
labels no formula (a page that corrects or extends another's formula) keeps the references written by hand.
``--check`` rewrites nothing and exits with status 1 when the map is out of date; :func:`labelled_formulas` is
what the tests read to find a formula that no page restates.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from . import book_site

ROOT = Path(__file__).resolve().parents[1]
INTRO = ROOT / "chapters" / "intro.md"
START, END = "<!-- ledger-table:start -->", "<!-- ledger-table:end -->"
LABEL = re.compile(r"\$\$\s*\((eq-(\d+)-(\d+))\)")
PAGE_LINK = re.compile(r"\]\(([\w/]+)\.ipynb\)")


def toc_pages() -> list[str]:
    """The pages of the book's table of contents, as paths under ``chapters/`` without suffix, in order."""
    return [page.removeprefix("chapters/") for page in book_site.toc_pages() if page.startswith("chapters/")]


def page_labels(page: str) -> list[str]:
    """The book labels a page gives its display formulas, in number order (``["eq-2-21", "eq-2-22"]``)."""
    path = INTRO.parent / f"{page}.ipynb"
    if not path.is_file():
        return []
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    text = "\n".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "markdown")
    labels = {match.group(1): (int(match.group(2)), int(match.group(3))) for match in LABEL.finditer(text)}
    return sorted(labels, key=labels.get)


def labelled_formulas() -> dict[str, list[str]]:
    """Each book label of the table of contents' pages, with the pages that label it."""
    found: dict[str, list[str]] = {}
    for page in toc_pages():
        for label in page_labels(page):
            found.setdefault(label, []).append(page)
    return found


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip()[1:-1])]


def filled(text: str) -> str:
    """``text`` (the landing page) with the first column of its formula map generated from the pages' labels."""
    head, rest = text.split(START, 1)
    table, tail = rest.split(END, 1)
    lines = table.strip().splitlines()
    out = lines[:2]
    for line in lines[2:]:
        cells = _cells(line)
        page = next((match.group(1) for cell in cells if (match := PAGE_LINK.search(cell))), None)
        labels = page_labels(page) if page else []
        if labels:
            cells[0] = " ".join(f"{{eq}}`{label}`" for label in labels)
        out.append("| " + " | ".join(cells) + " |")
    return f"{head}{START}\n" + "\n".join(out) + f"\n{END}{tail}"


def main(argv: list[str]) -> int:
    text = INTRO.read_text(encoding="utf-8")
    new = filled(text)
    if new == text:
        return 0
    if "--check" in argv:
        print(f"{INTRO.relative_to(ROOT)}: the formula map is out of date; run python -m book.formula_map")
        return 1
    INTRO.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
