"""The Chinese edition (中文版) and the PDFs: complete catalogues, current catalogues, and PDFs that hold the book.

``make test`` builds both editions and both PDFs before it runs these tests (all marked ``built`` by the root
``conftest.py``); without them these tests skip on a developer's machine and fail under ``CI=true``.
"""

from __future__ import annotations

import html.parser
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from book import catalogues
from book.build_edition import output_dir
from book.build_pdf import VOLUMES, pdf_path

from .browser.bookcheck import skip_or_fail, toc_pages
from .pdf_sheets import read_sheets

REPO = Path(__file__).resolve().parents[2]

HTML = REPO / "_build" / "html"
EDITIONS = {"en": HTML, "zh_CN": HTML / "zh"}


class _Heading(html.parser.HTMLParser):
    """The text of the first <h1> of a page, without its permalink sign."""

    def __init__(self):
        super().__init__()
        self.depth = 0
        self.text = ""
        self.done = False

    def handle_starttag(self, tag, attrs):
        if tag == "h1" and not self.done:
            self.depth = 1
        elif self.depth and tag == "a" and ("class", "headerlink") in attrs:
            self.depth = 2  # the permalink "#"

    def handle_endtag(self, tag):
        if tag == "a" and self.depth == 2:
            self.depth = 1
        elif tag == "h1" and self.depth:
            self.depth, self.done = 0, True

    def handle_data(self, data):
        if self.depth == 1:
            self.text += data


def heading(page: Path) -> str:
    parser = _Heading()
    parser.feed(page.read_text(encoding="utf-8"))
    return " ".join(parser.text.split())


def _squeeze(text: str) -> str:
    """Text without whitespace and hyphenation, so line breaks of the PDF do not matter."""
    text = text.replace("\\(", "").replace("\\)", "")  # inline math in a heading: its TeX source in the HTML
    text = re.sub(r"[\s_{}\u00ad]", "", text)  # subscripts, line breaks and hyphenation are the PDF's layout
    return text.replace("ﬁ", "fi").replace("ﬂ", "fl").replace("ﬀ", "ff")


def pdf_text(language: str) -> tuple[int, str]:
    """The page count and the whole text of an edition's PDFs, its chapters and its reference (``VOLUMES``), read
    once per run (``tests/book/pdf_sheets.py``)."""
    sheets = []
    for volume in VOLUMES:
        path = pdf_path(language, volume)
        if not path.is_file():
            skip_or_fail(f"no PDF at {path.relative_to(REPO)}: run `make editions` (make test does)")
        sheets += read_sheets(path)
    return len(sheets), "".join(sheet.text for sheet in sheets)


# -- catalogues --------------------------------------------------------------------------------------------------
def test_every_message_is_translated_and_consistent():
    """No catalogue entry is missing, fuzzy, or loses a formula, a role, a link target or a number placeholder."""
    problems = [p for path in catalogues.catalogue_files() for p in catalogues.problems(path)]
    assert catalogues.catalogue_files(), "no catalogue found"
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])


def test_the_checker_catches_a_missing_translation_and_a_lost_formula(tmp_path):
    """The catalogue check can fail: an empty, a fuzzy and a formula-dropping entry are each reported."""
    bad = tmp_path / "bad.po"
    bad.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
        'msgid "The area $A_i$ under it"\nmsgstr "它下面的面积"\n\n'
        'msgid "Untranslated"\nmsgstr ""\n\n'
        '#, fuzzy\nmsgid "Stale"\nmsgstr "过时"\n\n'
        'msgid "See {eq}`eq-2-20`"\nmsgstr "见式"\n',
        encoding="utf-8",
    )
    found = catalogues.problems(bad, generated=False)
    assert len(found) == 4, found
    assert any("untranslated" in p for p in found) and any("fuzzy" in p for p in found)
    assert sum("markup differs" in p for p in found) == 2
    generated = tmp_path / "outputs.po"
    generated.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
        'msgid "AUC = {0} from {1} pairs"\nmsgstr "AUC = {0}，共若干对"\n',
        encoding="utf-8",
    )
    assert [p for p in catalogues.problems(generated, generated=True) if "placeholders differ" in p]


def test_catalogues_hold_exactly_the_messages_of_the_current_pages(tmp_path):
    """A page changed without `make catalogues` leaves a message the catalogue does not know: the test fails."""
    from babel.messages.pofile import read_po

    out = tmp_path / "gettext"
    result = subprocess.run(
        [sys.executable, "-m", "book.build_edition", "en", "--builder", "gettext", "--out", str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    stale = []
    for kept in catalogues.KEPT_BY_HAND:  # labels of the book's templates: in their hand-kept catalogue
        with (out / kept).open("rb") as handle:
            labels = {m.id for m in read_po(handle) if m.id}
        with (catalogues.CATALOGUES / kept).with_suffix(".po").open("rb") as handle:
            known = {m.id for m in read_po(handle)}
        stale += [f"{kept}: no translation of {label!r}" for label in sorted(labels - known)]
    for pot in catalogues.page_templates(out):
        name = pot.relative_to(out).with_suffix(".po")
        po = catalogues.CATALOGUES / name
        with pot.open("rb") as handle:
            wanted = {m.id for m in read_po(handle) if m.id}
        if not po.is_file():
            stale.append(f"{name}: no catalogue")
            continue
        with po.open("rb") as handle:
            known = {m.id for m in read_po(handle) if m.id}
        stale += [f"{name}: new message {message[:70]!r}" for message in sorted(wanted - known)]
        stale += [f"{name}: message no longer on the page {message[:70]!r}" for message in sorted(known - wanted)]
    assert not stale, "run `make catalogues` and translate:\n" + "\n".join(stale[:40])


def test_edition_links_are_relative_and_symmetric():
    from book.ext.editions import edition_link

    for page in ("chapters/intro", "chapters/exercises/ex2_5"):
        there = edition_link(page, "en")
        depth = page.count("/")
        assert there == "../" * depth + f"zh/{page}.html"
        back = edition_link(page, "zh_CN")
        assert back == "../" * (depth + 1) + f"{page}.html"


# -- the Chinese site ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("page", toc_pages())
def test_chinese_page_is_in_chinese(page):
    """Each Chinese page has a Chinese heading (formula numbers kept) and its code's text is Chinese too."""
    path = EDITIONS["zh_CN"] / f"{page}.html"
    if not path.is_file():
        skip_or_fail(f"no Chinese edition at {path.relative_to(REPO)}: run `make editions`")
    english, chinese = heading(EDITIONS["en"] / f"{page}.html"), heading(path)
    assert re.search(r"[\u4e00-\u9fff]", chinese), f"{page}: heading {chinese!r} has no Chinese"
    assert re.findall(r"\(2\.\d+\)", english) == re.findall(r"\(2\.\d+\)", chinese), (english, chinese)
    text = path.read_text(encoding="utf-8")
    if "proof-ledger" in text:  # a page with checked derivations: its ledger was generated in Chinese
        assert "Proof ledger of this page" not in text and "本页证明账本" in text, page


# -- the PDFs ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("language", list(EDITIONS))
def test_pdf_holds_every_page_and_the_formula_numbers(language):
    pages, text = pdf_text(language)
    problems = pdf_problems(language, pages, text)
    assert not problems, f"{language}: " + "\n".join(problems)


@pytest.mark.parametrize("language", list(EDITIONS))
def test_the_printed_page_links_its_files_as_every_build_writes_them(language):
    """The one page printed links its styles and scripts without Sphinx's ``?v=`` checksums, which a first build
    of the page leaves out and a later one takes from the last build's files (``book/ext/editions.py``): its bytes, and
    so the digest its PDF is kept by (``book/build_pdf.py``), would change with nothing changed."""
    page = output_dir(language, "singlehtml") / "book.html"
    if not page.is_file():
        skip_or_fail(f"no one-page build at {page.relative_to(REPO)}: run `make editions`")
    linked = re.findall(r'(?:href|src)="(_static/[^"]+)"', page.read_text(encoding="utf-8"))
    assert any(address.startswith("_static/mathjax/") for address in linked), linked
    assert [address for address in linked if "?v=" in address] == []


@cache
def _page_headings(language: str) -> tuple[tuple[str, str], ...]:
    """(page, heading) of each page of the book on the edition's site, read once per run."""
    site = EDITIONS[language]
    for page in toc_pages():
        if not (site / f"{page}.html").is_file():
            skip_or_fail(f"no {language} site to compare the PDF with: run `make editions`")
    return tuple((page, heading(site / f"{page}.html")) for page in toc_pages())


def pdf_problems(language: str, pages: int, text: str) -> list[str]:
    """What a PDF of ``pages`` sheets and text ``text`` lacks: pages (over 100), the formula numbers (2.20) and
    (2.41), the heading of each page of the book, and (Chinese edition) the pages' Chinese outputs."""
    flat = _squeeze(text)
    problems = [f"only {pages} pages"] if pages <= 100 else []
    problems += [f"{number} not found in the PDF" for number in ("(2.20)", "(2.41)") if number not in flat]
    missing = [f"{page}: {title!r}" for page, title in _page_headings(language) if _squeeze(title) not in flat]
    if missing:
        problems.append("chapter pages missing from the PDF:\n" + "\n".join(missing))
    if language == "zh_CN" and "本页证明账本" not in flat:
        problems.append("the Chinese PDF does not show the pages' Chinese outputs")
    return problems


def test_the_pdf_check_catches_a_missing_page_a_lost_formula_number_and_few_pages():
    """The check above can fail: each thing it looks for, taken out of the English PDF's text, is reported."""
    pages, text = pdf_text("en")
    flat = _squeeze(text)
    page = toc_pages()[len(toc_pages()) // 2]
    title = _squeeze(heading(EDITIONS["en"] / f"{page}.html"))
    assert pdf_problems("en", pages, flat) == []
    assert pdf_problems("en", pages, flat.replace(title, "")) == [
        f"chapter pages missing from the PDF:\n{page}: {heading(EDITIONS['en'] / f'{page}.html')!r}"
    ]
    assert "(2.20) not found in the PDF" in pdf_problems("en", pages, flat.replace("(2.20)", "(2.2)"))
    assert "(2.41) not found in the PDF" in pdf_problems("en", pages, flat.replace("(2.41)", "(2.4)"))
    assert pdf_problems("en", 100, flat) == ["only 100 pages"]
    chinese_pages, chinese = pdf_text("zh_CN")
    assert pdf_problems("zh_CN", chinese_pages, chinese.replace("本页证明账本", "本页账本")) == [
        "the Chinese PDF does not show the pages' Chinese outputs"
    ]
