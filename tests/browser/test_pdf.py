"""The PDFs as a reader meets them: an outline that reads like the headings, a table of contents, no blank sheet.

Read from the PDFs that ``make book`` and ``make test`` print (``tools/build_pdf.py``) and from the one HTML page
each was printed from (``_build/singlehtml/<language>/book.html``): without them these tests skip on a developer's
machine and fail under ``CI=true``.
"""

from __future__ import annotations

import html.parser
import re
import sys
from functools import cache

import pytest

from .bookcheck import REPO, skip_or_fail, toc_pages

sys.path.insert(0, str(REPO / "tools"))

from build_pdf import TOC_TITLE, pdf_path  # noqa: E402

pytestmark = pytest.mark.browser

LANGUAGES = ("en", "zh_CN")
SINGLEHTML = REPO / "_build" / "singlehtml"
# a sheet with less text than this (its footer, "12 / 345", left out) and no image is blank, or nearly so
NEARLY_BLANK_CHARACTERS = 80
_FOOTER = re.compile(r"\s*\d+\s*/\s*\d+\s*$")
_TEX_COMMAND = re.compile(r"\\[A-Za-z]+")


def words(text: str) -> list[str]:
    """The words of a title, in order: Latin words, numbers and CJK characters (math symbols and spaces dropped).

    >>> words(r"The \\(t\\)-test over several error rates")
    ['The', 't', 'test', 'over', 'several', 'error', 'rates']
    >>> words("The ROCcurve") == words("The ROC curve")
    False
    """
    text = _TEX_COMMAND.sub(" ", text.replace("\\(", " ").replace("\\)", " "))
    return re.findall(r"[A-Za-z]+|\d+|[\u4e00-\u9fff]", text)


class _Headings(html.parser.HTMLParser):
    """The text of each <h1>-<h6> of a page (formulas as their TeX source), without permalinks."""

    def __init__(self):
        super().__init__()
        self.headings: list[str] = []
        self.depth = 0  # 1 inside a heading, 2 inside its permalink
        self.hidden = 0  # inside the theme's print-only copy of the page title (hidden in print)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if self.hidden or attributes.get("id") == "jb-print-docs-body":
            self.hidden += tag == "div"
        if re.fullmatch(r"h[1-6]", tag) and not self.hidden:
            self.depth = 1
            self.headings.append("")
        elif self.depth and tag == "a" and "headerlink" in (attributes.get("class") or ""):
            self.depth = 2
        elif self.depth == 1 and tag == "br":
            self.headings[-1] += " "

    def handle_endtag(self, tag):
        if self.hidden and tag == "div":
            self.hidden -= 1
        if tag == "a" and self.depth == 2:
            self.depth = 1
        elif re.fullmatch(r"h[1-6]", tag) and self.depth:
            self.depth = 0
            self.headings[-1] = " ".join(self.headings[-1].split())

    def handle_data(self, data):
        if self.depth == 1:
            self.headings[-1] += data


@cache
def reader(language: str):
    from pypdf import PdfReader

    path = pdf_path(language)
    if not path.is_file():
        skip_or_fail(f"no PDF at {path.relative_to(REPO)}: run `make pdf` (make book and make test do)")
    return PdfReader(path)


def outline_titles(language: str) -> list[str]:
    found: list[str] = []

    def walk(items):
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                found.append(" ".join(str(item.title).split()))

    walk(reader(language).outline)
    return found


def printed_headings(language: str) -> list[str]:
    page = SINGLEHTML / language / "book.html"
    if not page.is_file():
        skip_or_fail(f"no one-page build at {page.relative_to(REPO)}: run `make pdf`")
    parser = _Headings()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.headings + [TOC_TITLE[language]]


@pytest.mark.parametrize("language", LANGUAGES)
def test_outline_titles_read_as_the_headings(language):
    """Each outline title is a heading of the book, word for word: formulas kept, nothing doubled or fused."""
    headings = printed_headings(language)
    by_letters = {"".join(words(heading)): words(heading) for heading in headings}
    titles = outline_titles(language)
    assert len(titles) >= len(toc_pages()), f"{language}: an outline of {len(titles)} titles"
    problems = []
    for title in titles:
        half = len(title) // 2
        if len(title) % 2 == 0 and title and title[:half] == title[half:]:
            problems.append(f"doubled: {title!r}")
            continue
        expected = by_letters.get("".join(words(title)))
        if expected is None:
            problems.append(f"no heading reads {title!r} (a formula lost?)")
        elif words(title) != expected:
            problems.append(f"words fused or split: {title!r} for the heading {' '.join(expected)!r}")
    assert not problems, f"{language}: {len(problems)} outline titles unlike the headings:\n  " + "\n  ".join(
        problems[:30]
    )
    missing = [h for h in headings[:1] if words(h) not in [words(t) for t in titles]]
    assert not missing, f"{language}: the book's title is not in the outline: {missing}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_pdf_has_a_table_of_contents_with_page_numbers(language):
    """The first sheets list every page of the book with the sheet it starts on."""
    pdf = reader(language)
    front = "\n".join(pdf.pages[index].extract_text() or "" for index in range(min(4, len(pdf.pages))))
    assert TOC_TITLE[language] in front, f"{language}: no table of contents ({TOC_TITLE[language]!r}) at the front"
    contents = front.split(TOC_TITLE[language], 1)[1]
    numbers = [int(match) for match in re.findall(r"\S\s+(\d{1,3})\s*$", contents, flags=re.MULTILINE)]
    numbers = [n for n in numbers if n > 1]
    assert len(numbers) >= len(toc_pages()) - 1, f"{language}: {len(numbers)} numbered entries in the contents"
    assert numbers == sorted(numbers) and numbers[-1] <= len(pdf.pages), f"{language}: page numbers {numbers}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_blank_sheet(language):
    """No sheet is (nearly) empty: each has text beyond its page number, or a figure."""
    blank = []
    for number, page in enumerate(reader(language).pages, start=1):
        text = _FOOTER.sub("", page.extract_text() or "").strip()
        if len(text) >= NEARLY_BLANK_CHARACTERS:
            continue
        if page.images:  # a sheet holding a figure and its caption
            continue
        blank.append(f"sheet {number}: {text[:60]!r}")
    assert not blank, f"{language}: {len(blank)} blank or nearly blank sheets:\n  " + "\n  ".join(blank[:20])


def _hidden_cell_lines() -> list[tuple[str, str]]:
    """(page, longest source line) of every code cell the site hides (tags hide-input or hide-cell)."""
    import nbformat

    found = []
    for name in toc_pages():
        path = REPO / f"{name}.ipynb"
        if not path.is_file():
            continue
        for cell in nbformat.read(path, as_version=4).cells:
            tags = set(cell.get("metadata", {}).get("tags", []))
            if cell.cell_type == "code" and tags & {"hide-input", "hide-cell"} and cell.source.strip():
                found.append((name, max(cell.source.splitlines(), key=len).strip()))
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_hidden_code_stays_hidden_in_print(language):
    """The source of a code cell hidden on the site is not in the page printed to PDF (its outputs are)."""
    import html

    page = SINGLEHTML / language / "book.html"
    if not page.is_file():
        skip_or_fail(f"no one-page build at {page.relative_to(REPO)}: run `make pdf`")
    hidden = _hidden_cell_lines()
    assert hidden, "no code cell is hidden (tag hide-input or hide-cell): nothing to check"
    printed = " ".join(html.unescape(re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8"))).split())
    shown = [f"{name}: {line!r}" for name, line in hidden if " ".join(line.split()) in printed]
    assert not shown, f"{language}: hidden code printed:\n  " + "\n  ".join(shown[:20])
