"""The PDFs as a reader meets them: an outline that reads like the headings, a table of contents, no blank sheet.

Read from the PDFs that ``make book`` and ``make test`` print (``book/build_pdf.py``) and from the one HTML page
each was printed from (``_build/singlehtml/<language>/book.html``): without them these tests skip on a developer's
machine and fail under ``CI=true``.
"""

from __future__ import annotations

import html.parser
import re
from collections.abc import Sequence
from functools import cache

import pytest

from book.build_pdf import CHAIN_PROBE, REFERENCE_PAGES, TOC_TITLE, VOLUMES, destination_pages, fit_path, pdf_path

from ..pdf_sheets import Sheet, read_sheets
from .bookcheck import REPO, skip_or_fail, toc_pages

pytestmark = pytest.mark.browser

LANGUAGES = ("en", "zh_CN")
SINGLEHTML = REPO / "_build" / "singlehtml"
# a sheet whose text stops above this fraction of its height, with no figure, is nearly blank (unless a book page
# or the contents end on it, or a figure fills the next sheet); the footer ("12 / 345") is left out (..pdf_sheets)
NEARLY_BLANK_EXTENT = 0.2
# the last sheet of the contents may end high, if it holds at least this many lines (an entry or two alone on a
# sheet, "References 226", is a nearly blank sheet)
CONTENTS_LINES = 4
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


def _pdf(language: str, volume: str = "book"):
    path = pdf_path(language, volume)
    if not path.is_file():
        skip_or_fail(f"no PDF at {path.relative_to(REPO)}: run `make pdf` (make book and make test do)")
    return path


@cache
def reader(language: str):
    """The PDF opened with pypdf, for its outline (bookmarks): its text is read by :func:`sheets`."""
    from pypdf import PdfReader

    return PdfReader(_pdf(language))


def sheets(language: str, volume: str = "book") -> tuple[Sheet, ...]:
    """The text of each sheet of the PDF, how far down it reaches and whether it holds a figure, read once per run
    (``tests/book/pdf_sheets.py``, shared with ``tests/book/test_editions.py``)."""
    return read_sheets(_pdf(language, volume))


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


@pytest.mark.parametrize("volume", VOLUMES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_pdf_has_a_table_of_contents_with_page_numbers(language, volume):
    """The first sheets list every page of the volume with the sheet it starts on."""
    problems = contents_problems(sheets(language, volume), TOC_TITLE[language], _page_titles(language, volume))
    assert not problems, f"{language} {volume}: " + "\n  ".join(problems[:20])


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
    numbers = contents_numbers(read, toc_title, page_titles)
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


def contents_numbers(read: Sequence[Sheet], toc_title: str, page_titles: Sequence[str]) -> list[int]:
    """The page numbers of the contents' entries, in order (see :func:`contents_problems`); none without contents."""
    front = "\n".join(_FOOTER.sub("", sheet.text) for sheet in read[:4])
    if toc_title not in front:
        return []
    contents = front.split(toc_title, 1)[1]
    found = [int(n) for n in re.findall(r"(?<![\d.(])(\d{1,3})\s*$", contents, flags=re.MULTILINE)]
    return [n for n in found if 1 < n <= len(read)][: len(page_titles) - 1]


def _letters(text: str) -> str:
    return "".join(re.findall(r"[a-z0-9\u4e00-\u9fff]", text.lower()))


def _starts_a_page(sheet: Sheet, page_titles: Sequence[str]) -> bool:
    """Whether a book page starts on ``sheet``: the start of its title (:func:`_page_titles`) opens the sheet."""
    return any(title and title in _letters(_FOOTER.sub("", sheet.text)[:400]) for title in page_titles)


def volume_pages(volume: str = "book") -> list[str]:
    """The pages of the book (``toc_pages``) printed in ``volume``: the root page, then the chapters or the
    reference's pages (``build_pdf.REFERENCE_PAGES``)."""
    pages = toc_pages()
    return pages[:1] + [name for name in pages[1:] if (name in REFERENCE_PAGES) == (volume == "reference")]


@cache
def _page_titles(language: str, volume: str = "book") -> tuple[str, ...]:
    """The letters of the start of each title (its first heading on the site) of the pages printed in ``volume``,
    the root page first, read once per run."""
    site = REPO / "_build" / "html" / ("zh" if language == "zh_CN" else "")
    titles = []
    for name in volume_pages(volume):
        path = site / f"{name}.html"
        if not path.is_file():
            skip_or_fail(f"no {language} site at {site.relative_to(REPO)}: run `make book`")
        parser = _Headings()
        parser.feed(path.read_text(encoding="utf-8"))
        titles.append(_letters(parser.headings[0])[:12])
    return tuple(titles)


@pytest.mark.parametrize("volume", VOLUMES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_blank_sheet(language, volume):
    """No sheet is blank or nearly so: its text reaches below the upper part of the sheet, or it holds a figure,
    or it is the last sheet of a book page (the next one starts a page, as each page of the book does). A sheet
    with nothing on it but its number is blank wherever it stands."""
    blank = blank_sheets(sheets(language, volume), TOC_TITLE[language], _page_titles(language, volume))
    assert not blank, f"{language} {volume}: {len(blank)} nearly blank sheets:\n  " + "\n  ".join(blank[:20])


def blank_sheets(read: Sequence[Sheet], toc_title: str, page_titles: Sequence[str]) -> list[str]:
    """The sheets of a PDF (``read``) that are blank or nearly so (see :func:`test_no_blank_sheet`)."""
    blank = []
    for number, sheet in enumerate(read, start=1):
        text, extent, images = sheet.text, sheet.extent, sheet.images
        if number == len(read) or extent >= NEARLY_BLANK_EXTENT or images:
            continue
        if not _FOOTER.sub("", text).strip():
            blank.append(f"sheet {number}: nothing on it")
            continue
        body = _FOOTER.sub("", text)
        if toc_title in "".join(_FOOTER.sub("", sheet.text) for sheet in read[:number]) and (
            number <= 4 and re.search(r"\d{1,3}\s*$", body) and len(body.strip().splitlines()) >= CONTENTS_LINES
        ):
            continue  # the last sheet of the table of contents, which ends its sheet (but not one or two entries)
        if read[number].images:
            continue  # a figure, which is never split, fills the next sheet
        if _starts_a_page(read[number], page_titles[1:]):  # (the root page starts on the first sheet)
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


# -- a book a student would print ----------------------------------------------------------------------------------
# the faces of the text: Latin Modern, and for Chinese Noto Serif CJK; a sans-serif face is the web's, not the book's
SERIF_FACE = re.compile(r"^LMRoman")
CJK_SERIF_FACE = re.compile(r"^NotoSerifCJK")
SANS_FACE = re.compile(r"DejaVuSans(?!Mono)|NotoSansCJK|WenQuanYi|LiberationSans|Arial|Helvetica", re.IGNORECASE)
# the textbook's chapters: from the first page of section 2.2 to the last exercise (what comes before and after is
# the front and back matter)
FIRST_CHAPTER, FIRST_BACK_MATTER = "chapters/evaluation_methods", "chapters/glossary"
# the share of the book's sheets that are chapters (397 sheets, 66%, when the reference was printed with them)
CHAPTER_SHARE = 0.85
# a figure on paper fits the text area of its sheet (book/build_pdf.py's margins, in points) and its height cap
MARGINS_PT = {"top": 18 / 25.4 * 72, "bottom": 16 / 25.4 * 72, "left": 14 / 25.4 * 72, "right": 14 / 25.4 * 72}
FIGURE_HEIGHT_PT = 190 / 25.4 * 72


@cache
def faces_by_sheet(path) -> tuple[frozenset[str], ...]:
    """The name of each font each sheet of the PDF at ``path`` uses (without the subset's prefix "ABCDEF+")."""
    from pypdf import PdfReader

    found = []
    for page in PdfReader(path).pages:
        fonts = (page.get("/Resources") or {}).get("/Font") or {}
        names = set()
        for font in fonts.values():
            font = font.get_object()
            descriptor = font.get("/FontDescriptor")
            name = font.get("/BaseFont") or (descriptor.get_object().get("/FontName") if descriptor else None)
            if name is None and "/DescendantFonts" in font:
                descendant = font["/DescendantFonts"][0].get_object()
                name = descendant.get("/BaseFont")
            if name is not None:
                names.add(str(name).lstrip("/").split("+")[-1])
        found.append(frozenset(names))
    return tuple(found)


def face_problems(faces: Sequence[frozenset[str]], language: str) -> list[str]:
    """The sheets set in a sans-serif face, or too few in the book's serif faces (:data:`SERIF_FACE`, and for the
    Chinese edition :data:`CJK_SERIF_FACE`)."""
    problems = [
        f"sheet {number}: {sorted(f for f in names if SANS_FACE.search(f))}"
        for number, names in enumerate(faces, start=1)
        if any(SANS_FACE.search(f) for f in names)
    ]
    wanted = [SERIF_FACE] + ([CJK_SERIF_FACE] if language == "zh_CN" else [])
    for face in wanted:
        serif = sum(any(face.search(f) for f in names) for names in faces)
        if serif < 0.9 * len(faces):
            problems.append(f"only {serif} of {len(faces)} sheets set in {face.pattern!r}")
    return problems


@pytest.mark.parametrize("volume", VOLUMES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_book_is_set_in_a_serif_face_and_its_chinese_in_a_matching_one(language, volume):
    """The text is set in Latin Modern, the Chinese in Noto Serif CJK SC: no sheet uses the web's sans-serif
    faces (DejaVu Sans, WenQuanYi, Noto Sans CJK); code keeps its monospace."""
    problems = face_problems(faces_by_sheet(_pdf(language, volume)), language)
    assert not problems, f"{language} {volume}: {len(problems)} problems:\n  " + "\n  ".join(problems[:20])


def test_the_face_check_catches_a_sans_serif_sheet_and_a_missing_face():
    """The face check can fail: a sheet in DejaVu Sans, and a Chinese book without its serif CJK face."""
    serif = [frozenset({"LMRoman10-Regular", "NotoSerifCJKsc-Regular", "DejaVuSansMono"})] * 10
    assert face_problems(serif, "zh_CN") == []
    assert face_problems(serif[:9] + [frozenset({"DejaVuSans"})], "en")[0] == "sheet 10: ['DejaVuSans']"
    latin = [frozenset({"LMRoman10-Regular"})] * 10
    assert face_problems(latin, "en") == []
    assert face_problems(latin, "zh_CN") == ["only 0 of 10 sheets set in '^NotoSerifCJK'"]


def running_head_problems(read: Sequence[Sheet], toc_title: str, page_titles: Sequence[str]) -> list[str]:
    """The sheets of a page of the book whose running head (the text in the top margin) does not name that page
    (the start of its title, ``page_titles``), from the sheet the contents give for it to the next page's."""
    numbers = contents_numbers(read, toc_title, page_titles)
    if len(numbers) < len(page_titles) - 1:
        return [f"{len(numbers)} page numbers in the contents, for {len(page_titles)} pages"]
    problems = []
    for index, start in enumerate(numbers):
        end = numbers[index + 1] if index + 1 < len(numbers) else len(read) + 1
        for number in range(start, end):
            if page_titles[index + 1] not in _letters(read[number - 1].head):
                problems.append(f"sheet {number}: head {read[number - 1].head[:80]!r}")
    return problems


@pytest.mark.parametrize("volume", VOLUMES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_sheet_of_a_page_has_a_running_head_naming_it(language, volume):
    """Each sheet of a page of the book carries a running head with the page's title (and its part)."""
    problems = running_head_problems(sheets(language, volume), TOC_TITLE[language], _page_titles(language, volume))
    assert not problems, f"{language} {volume}: {len(problems)} sheets:\n  " + "\n  ".join(problems[:20])


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_running_head_check_catches_a_missing_and_a_wrong_head(language):
    """The running-head check can fail: a sheet without its head, and a sheet with the next page's head."""
    read, titles, toc_title = list(sheets(language)), _page_titles(language), TOC_TITLE[language]
    assert running_head_problems(read, toc_title, titles) == []
    numbers = contents_numbers(read, toc_title, titles)
    middle = numbers[len(numbers) // 2] + 1  # the second sheet of a page in the middle of the book
    headless = read[: middle - 1] + [read[middle - 1]._replace(head="")] + read[middle:]
    assert running_head_problems(headless, toc_title, titles) == [f"sheet {middle}: head ''"]
    other = read[numbers[-1] - 1].head  # the last page's head, on a sheet of another page
    wrong = read[: middle - 1] + [read[middle - 1]._replace(head=other)] + read[middle:]
    assert running_head_problems(wrong, toc_title, titles) == [f"sheet {middle}: head {other[:80]!r}"]


def chapter_share(read: Sequence[Sheet], toc_title: str, page_titles: Sequence[str]) -> float:
    """The share of the book's sheets on which the textbook's chapters are printed (:data:`FIRST_CHAPTER` up to
    :data:`FIRST_BACK_MATTER`), by the sheets the contents give."""
    pages = volume_pages("book")[1:]
    numbers = contents_numbers(read, toc_title, page_titles)
    first, last = numbers[pages.index(FIRST_CHAPTER)], numbers[pages.index(FIRST_BACK_MATTER)]
    return (last - first) / len(read)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_reference_is_printed_apart_and_the_book_is_its_chapters(language):
    """The API reference and the benchmarks are a PDF of their own (``melearn-<language>-reference.pdf``): the
    book holds none of their pages, the reference holds both, and the chapters fill most of the book's sheets."""
    book, reference = sheets(language), sheets(language, "reference")
    all_titles = _page_titles(language, "reference")[1:]
    in_book = [n for n, sheet in enumerate(book, start=1) if _starts_a_page(sheet, all_titles)]
    assert not in_book, f"{language}: the reference's pages start on sheets {in_book} of the book"
    starts = [any(_starts_a_page(sheet, [title]) for sheet in reference) for title in all_titles]
    lacking = [title for title, started in zip(all_titles, starts, strict=True) if not started]
    assert not lacking, f"{language}: the reference lacks {lacking}"
    share = chapter_share(book, TOC_TITLE[language], _page_titles(language))
    assert share >= CHAPTER_SHARE, f"{language}: the chapters fill {share:.0%} of the book's {len(book)} sheets"


@pytest.mark.parametrize("volume", VOLUMES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_links_lead_inside_the_pdf_or_to_the_web(language, volume):
    """Every link of the PDF leads to a place in it or to a web address: none to a file of the machine that
    printed it (the one page's links to itself were written relative to the root page, which the PDF made
    file:/// links)."""
    from pypdf import PdfReader

    wrong = []
    for number, page in enumerate(PdfReader(_pdf(language, volume)).pages, start=1):
        for annotation in page.get("/Annots") or []:
            action = annotation.get_object().get("/A")
            uri = action.get_object().get("/URI") if action is not None else None
            if uri is not None and not str(uri).startswith(("https://", "http://", "mailto:")):
                wrong.append(f"sheet {number}: {str(uri)[:90]}")
    assert not wrong, f"{language} {volume}: {len(wrong)} links out of the PDF:\n  " + "\n  ".join(wrong[:10])


def figure_problems(path) -> list[str]:
    """The images of the PDF at ``path`` that reach out of the text area of their sheet (cut at an edge, or split
    over two sheets: each part is the whole image, clipped) or are taller than :data:`FIGURE_HEIGHT_PT`."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    problems = []
    pdf = pdfium.PdfDocument(str(path))
    try:
        for number in range(len(pdf)):
            page = pdf[number]
            left, bottom, right, top = page.get_mediabox()
            area = (
                left + MARGINS_PT["left"] - 1,
                bottom + MARGINS_PT["bottom"] - 1,
                right - MARGINS_PT["right"] + 1,
                top - MARGINS_PT["top"] + 1,
            )
            for image in page.get_objects(filter=[raw.FPDF_PAGEOBJ_IMAGE], max_depth=1):
                x0, y0, x1, y1 = image.get_bounds()
                if x0 < area[0] or y0 < area[1] or x1 > area[2] or y1 > area[3]:
                    problems.append(f"sheet {number + 1}: an image at {x0:.0f},{y0:.0f}-{x1:.0f},{y1:.0f} pt")
                elif y1 - y0 > FIGURE_HEIGHT_PT + 1:
                    problems.append(f"sheet {number + 1}: an image {y1 - y0:.0f} pt high")
            page.close()
    finally:
        pdf.close()
    return problems


@pytest.mark.parametrize("volume", VOLUMES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_figure_is_cut_or_split(language, volume):
    """Each figure is printed whole on one sheet, inside its text area, at most 190 mm high."""
    problems = figure_problems(_pdf(language, volume))
    assert not problems, f"{language} {volume}: {len(problems)} figures:\n  " + "\n  ".join(problems[:20])


def chain_splits(path) -> tuple[int, list[str]]:
    """How many chains the PDF at ``path`` holds and those whose left-hand side is on another sheet than their
    first step (the ids ``book/build_pdf.py`` gives them, which the PDF names as link targets)."""
    pages = destination_pages(path)
    lhs = {
        name.removesuffix("-lhs"): page
        for name, page in pages.items()
        if name.startswith(CHAIN_PROBE) and name.endswith("-lhs")
    }
    split = [
        f"{name}: {page} then {pages.get(name + '-step')}"
        for name, page in lhs.items()
        if pages.get(name + "-step") != page
    ]
    return len(lhs), split


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_chain_is_split_from_its_left_hand_side(language):
    """A chain's left-hand side (a line of its own on paper) is printed on the sheet of its first step."""
    count, split = chain_splits(_pdf(language))
    assert count >= 100, f"{language}: {count} chains found in the PDF (their ids are missing?)"
    assert not split, f"{language}: {len(split)} of {count} chains split:\n  " + "\n  ".join(split[:20])


@pytest.mark.parametrize("language", LANGUAGES)
def test_equation_numbers_stand_beside_their_formulas(language):
    """On paper each numbered formula has its number beside it, on its level, right of it (not on a line of its
    own above it), as measured in the page as it is printed (``book/build_pdf.py``)."""
    import json

    path = fit_path(_pdf(language))
    numbers = json.loads(path.read_text(encoding="utf-8")).get("numbers", []) if path.is_file() else []
    assert len(numbers) >= 42, f"{language}: {len(numbers)} numbered formulas measured"
    above = [item["number"] for item in numbers if not item["beside"]]
    assert not above, f"{language}: {len(above)} numbers not beside their formula: {above[:20]}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_landing_page_links_the_reference_pdf(language):
    """The landing page leads to the reference's PDF (the API and the benchmarks, printed apart from the book),
    which the PDF build copied into the edition's site."""
    site = REPO / "_build" / "html" / ("zh" if language == "zh_CN" else "")
    landing = site / f"{toc_pages()[0]}.html"
    if not landing.is_file():
        skip_or_fail(f"no {language} site at {site.relative_to(REPO)}: run `make book`")
    name = pdf_path(language, "reference").name
    links = re.findall(rf'<p class="reference-pdf">.*?href="([^"]*{re.escape(name)})"', landing.read_text("utf-8"))
    assert links, f"{language}: the landing page does not link {name}"
    target = (landing.parent / links[0]).resolve()
    assert target.is_file() and target.read_bytes()[:4] == b"%PDF", f"{language}: {links[0]} is not the PDF"
