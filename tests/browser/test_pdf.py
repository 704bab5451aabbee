"""The PDFs as a reader meets them: an outline that reads like the headings, a table of contents, no blank sheet.

Read from the PDFs that ``make book`` and ``make test`` print (``tools/build_pdf.py``) and from the one HTML page
each was printed from (``_build/singlehtml/<language>/book.html``): without them these tests skip on a developer's
machine and fail under ``CI=true``.
"""

from __future__ import annotations

import html.parser
import re
import sys
from collections.abc import Sequence
from functools import cache

import pytest

from ..pdf_sheets import Sheet, read_sheets
from .bookcheck import REPO, skip_or_fail, toc_pages

sys.path.insert(0, str(REPO / "tools"))

from build_pdf import TOC_TITLE, pdf_path  # noqa: E402

pytestmark = pytest.mark.browser

LANGUAGES = ("en", "zh_CN")
SINGLEHTML = REPO / "_build" / "singlehtml"
# a sheet whose text stops above this fraction of its height, with no figure, is nearly blank (unless a book page
# or the contents end on it, or a figure fills the next sheet); the footer ("12 / 345") is left out (..pdf_sheets)
NEARLY_BLANK_EXTENT = 0.2
_FOOTER = re.compile(r"\s*\d+\s*/\s*\d+\s*$")
_TEX_COMMAND = re.compile(r"\\[A-Za-z]+")
_OPERATOR = re.compile(r"\\(min|max|log|ln|exp|lim|sup|inf|det|Pr|arg)\b")


def words(text: str) -> list[str]:
    """The words of a title, in order: Latin words, numbers and CJK characters (math symbols and spaces dropped).

    A formula's TeX is read as its printed text: operator names kept (``\\min``), other commands dropped, a
    subscript joined to its base (``y_D`` reads "yD", as MathJax's MathML does).

    >>> words(r"The \\(t\\)-test over several error rates")
    ['The', 't', 'test', 'over', 'several', 'error', 'rates']
    >>> words(r"\\(F_1\\) lies between \\(\\min(P, R)\\)") == words("F1 lies between min(P,R)")
    True
    >>> words("The ROCcurve") == words("The ROC curve")
    False
    """
    text = text.replace("\\(", " ").replace("\\)", " ")
    text = _OPERATOR.sub(lambda match: f" {match.group(1)} ", text)
    text = re.sub(r"[_^{}]", "", _TEX_COMMAND.sub(" ", text))
    return re.findall(r"[A-Za-z]+|\d+|[\u4e00-\u9fff]", text)


class _Headings(html.parser.HTMLParser):
    """The text of each <h1>-<h6> of a page (formulas as their TeX source), without permalinks.

    The theme's print-only title block is read instead of the article's first <h1>, which the theme hides in print
    (the same text): only the block's own list of sections (``#jb-print-toc``) is skipped.
    """

    def __init__(self):
        super().__init__()
        self.headings: list[str] = []
        self.depth = 0  # 1 inside a heading, 2 inside its permalink
        self.hidden = 0  # inside the theme's print-only copy of the page title (hidden in print)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if self.hidden or attributes.get("id") == "jb-print-toc":
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


def _pdf(language: str):
    path = pdf_path(language)
    if not path.is_file():
        skip_or_fail(f"no PDF at {path.relative_to(REPO)}: run `make pdf` (make book and make test do)")
    return path


@cache
def reader(language: str):
    """The PDF opened with pypdf, for its outline (bookmarks): its text is read by :func:`sheets`."""
    from pypdf import PdfReader

    return PdfReader(_pdf(language))


def sheets(language: str) -> tuple[Sheet, ...]:
    """The text of each sheet of the PDF, how far down it reaches and whether it holds a figure, read once per run
    (``tests/pdf_sheets.py``, shared with ``tests/test_editions.py``)."""
    return read_sheets(_pdf(language))


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
    problems = contents_problems(sheets(language), TOC_TITLE[language], _page_titles(language))
    assert not problems, f"{language}: " + "\n  ".join(problems[:20])


def contents_problems(read: Sequence[Sheet], toc_title: str, page_titles: Sequence[str]) -> list[str]:
    """What is wrong with the table of contents of a PDF whose sheets are ``read``: none at the front, fewer page
    numbers than pages of the book, numbers out of the book's order, or a number whose sheet starts no page
    (``page_titles``: :func:`_page_titles`).

    The contents list every page but the first (the book's title), one entry per page, each ending in its number:
    the entries are the first ``len(page_titles) - 1`` lines after the title that end in a sheet's number. The
    text after them (the book's first page, on the next sheet) is not read: a line of its prose may end in a
    number too ("... and 42\ncited results").
    """
    texts = [_FOOTER.sub("", sheet.text) for sheet in read]
    front = "\n".join(texts[:4])
    if toc_title not in front:
        return [f"no table of contents ({toc_title!r}) at the front"]
    contents = front.split(toc_title, 1)[1]
    found = [int(n) for n in re.findall(r"(?<![\d.(])(\d{1,3})\s*$", contents, flags=re.MULTILINE)]
    numbers = [n for n in found if 1 < n <= len(read)][: len(page_titles) - 1]
    if len(numbers) < len(page_titles) - 1:
        return [f"{len(numbers)} page numbers in the contents, for {len(page_titles)} pages"]
    problems = []
    # the pages follow each other in the book's order, so do their numbers
    backwards = [f"{a} then {b}" for a, b in zip(numbers, numbers[1:], strict=False) if b <= a]
    if backwards:
        problems.append(f"contents numbers out of the book's order: {backwards}")
    # each number leads to a sheet on which a page of the book starts
    wrong = [n for n in numbers if not _starts_a_page(read[n - 1], page_titles[1:])]
    if wrong:
        problems.append(f"contents entries whose sheet starts no page of the book: {sorted(set(wrong))}")
    return problems


def _letters(text: str) -> str:
    return "".join(re.findall(r"[a-z0-9\u4e00-\u9fff]", text.lower()))


def _starts_a_page(sheet: Sheet, page_titles: Sequence[str]) -> bool:
    """Whether a book page starts on ``sheet``: the start of its title (:func:`_page_titles`) opens the sheet."""
    return any(title and title in _letters(_FOOTER.sub("", sheet.text)[:400]) for title in page_titles)


@cache
def _page_titles(language: str) -> tuple[str, ...]:
    """The letters of the start of each book page's title (its first heading on the site), read once per run."""
    site = REPO / "_build" / "html" / ("zh" if language == "zh_CN" else "")
    titles = []
    for name in toc_pages():
        path = site / f"{name}.html"
        if not path.is_file():
            skip_or_fail(f"no {language} site at {site.relative_to(REPO)}: run `make book`")
        parser = _Headings()
        parser.feed(path.read_text(encoding="utf-8"))
        titles.append(_letters(parser.headings[0])[:12])
    return tuple(titles)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_blank_sheet(language):
    """No sheet is blank or nearly so: its text reaches below the upper part of the sheet, or it holds a figure,
    or it is the last sheet of a book page (the next one starts a page, as each page of the book does). A sheet
    with nothing on it but its number is blank wherever it stands."""
    blank = blank_sheets(sheets(language), TOC_TITLE[language], _page_titles(language))
    assert not blank, f"{language}: {len(blank)} nearly blank sheets:\n  " + "\n  ".join(blank[:20])


def blank_sheets(read: Sequence[Sheet], toc_title: str, page_titles: Sequence[str]) -> list[str]:
    """The sheets of a PDF (``read``) that are blank or nearly so (see :func:`test_no_blank_sheet`)."""
    blank = []
    for number, (text, extent, images) in enumerate(read, start=1):
        if number == len(read) or extent >= NEARLY_BLANK_EXTENT or images:
            continue
        if not _FOOTER.sub("", text).strip():
            blank.append(f"sheet {number}: nothing on it")
            continue
        if toc_title in "".join(_FOOTER.sub("", sheet.text) for sheet in read[:number]) and (
            number <= 4 and re.search(r"\d{1,3}\s*$", _FOOTER.sub("", text))
        ):
            continue  # the last sheet of the table of contents, which ends its sheet
        if read[number].images:
            continue  # a figure, which is never split, fills the next sheet
        if _starts_a_page(read[number], page_titles):
            continue  # the end of a book page: the next sheet starts the next page
        text = _FOOTER.sub("", text).strip()
        blank.append(f"sheet {number}: text ends at {extent:.0%} of it: {text[-60:]!r}")
    return blank


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_contents_check_catches_a_wrong_number_a_missing_sheet_and_no_contents(language):
    """The contents check can fail: on the PDF's sheets with one entry's number one too high, with a sheet taken
    out of the middle (the entries after it then name the wrong sheets), with no numbers, and with no contents."""
    read, titles, toc_title = list(sheets(language)), _page_titles(language), TOC_TITLE[language]
    assert contents_problems(read, toc_title, titles) == []
    starts = {number for number, sheet in enumerate(read, start=1) if _starts_a_page(sheet, titles[1:])}
    # an entry of the contents (a line ending in the number of a sheet that starts a page) whose next sheet does not
    at = next(i for i, sheet in enumerate(read[:4]) if toc_title in sheet.text)
    entry = None
    for index in range(at, 4):
        text = read[index].text
        footer = _FOOTER.search(text)
        body_start = text.index(toc_title) + len(toc_title) if index == at else 0
        for line in re.finditer(r"^.*\D(\d{1,3})[ \t]*$", text[: footer.start() if footer else len(text)], re.M):
            number = int(line.group(1))
            if line.start() >= body_start and number in starts and number + 1 not in starts:
                entry = (index, line.start(1), number)
                break
        if entry:
            break
    assert entry, f"{language}: no entry of the contents to change"
    index, position, number = entry
    text = read[index].text
    changed = text[:position] + str(number + 1) + text[position + len(str(number)) :]
    wrong = read[:index] + [read[index]._replace(text=changed)] + read[index + 1 :]
    assert contents_problems(wrong, toc_title, titles) == [
        f"contents entries whose sheet starts no page of the book: [{number + 1}]"
    ]
    middle = len(read) // 2
    problems = contents_problems(read[:middle] + read[middle + 1 :], toc_title, titles)
    assert len(problems) == 1 and problems[0].startswith("contents entries whose sheet starts no page"), problems
    unnumbered = [sheet._replace(text=re.sub(r"\d", "", sheet.text)) for sheet in read[:4]] + read[4:]
    assert contents_problems(unnumbered, toc_title, titles)[0].startswith("0 page numbers in the contents")
    untitled = [sheet._replace(text=sheet.text.replace(toc_title, "")) for sheet in read[:4]] + read[4:]
    assert contents_problems(untitled, toc_title, titles) == [f"no table of contents ({toc_title!r}) at the front"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_blank_sheet_check_catches_a_blank_and_a_nearly_blank_sheet(language):
    """The blank-sheet check can fail: on the PDF's sheets with a sheet holding only its number put in the middle,
    and with a sheet whose text stops at a tenth of it although the next sheet goes on with the same page."""
    read, titles, toc_title = list(sheets(language)), _page_titles(language), TOC_TITLE[language]
    assert blank_sheets(read, toc_title, titles) == []
    middle = len(read) // 2
    numbered = Sheet(f"{middle + 1} / {len(read) + 1}", 0.0, False)
    assert f"sheet {middle + 1}: nothing on it" in blank_sheets(
        read[:middle] + [numbered] + read[middle:], toc_title, titles
    )
    # a sheet inside a book page (the next sheet starts no page), no figure on it or on the next one
    number = next(
        n
        for n in range(5, len(read) - 1)
        if not (read[n - 1].images or read[n].images or _starts_a_page(read[n], titles))
    )
    first_line = read[number - 1].text.split("\n", 1)[0]
    short = read[number - 1]._replace(text=f"{first_line}\n{number} / {len(read)}", extent=0.1)
    problems = blank_sheets(read[: number - 1] + [short] + read[number:], toc_title, titles)
    assert problems == [f"sheet {number}: text ends at 10% of it: {first_line.strip()[-60:]!r}"]


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
