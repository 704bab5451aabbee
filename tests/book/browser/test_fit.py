"""Every derivation fits its column: display formulas, chain rows and rule lists, on a desktop, a phone and paper.

Each page of both editions is opened once in headless Chromium and measured twice: at 1366x900 and at 390x844. On
paper each page is measured where it is printed: in the one page each PDF is printed from, laid out as on the
sheet (print media, the text width of A4 minus the 14 mm margins of ``book/build_pdf.py``: 182 mm), which the PDF
build measures and keeps beside the PDF (``_build/pdf/melearn-en.fit.json``). The measure is one script for all
three (``book/column_fit.py``). A formula is *wide* when its mathematics reaches past its box or past the text
column. The targets:

* on a desktop and on paper, no display formula and no chain row is wide;
* on a phone, at most 5% of the display formulas of an edition are wide, and every wide one scrolls in its own box
  with a shadow that shows there is more;
* a reason, a rule's name, kind and source are never cut, at any width;
* an equation number never sits on its formula.

Run ``make book`` first; without a built book or without Chromium the tests are skipped (failed under ``CI=true``).
"""

from __future__ import annotations

import json
from functools import cache

import pytest

from book.build_pdf import fit_path, pdf_path
from book.column_fit import FIT_JS
from melearn.plotting.figure import PHONE_COLUMN_PX

from .bookcheck import CHINESE, REPO, html_dir, measure_on_every_visit, skip_or_fail, toc_pages

pytestmark = pytest.mark.browser

PAGES = toc_pages()
EDITION_PAGES = PAGES + [f"{CHINESE}/{page}" for page in PAGES]
# the modes of a page of the site (measured in its one visit); "print" is the page in its edition's PDF
SCREENS = {
    "desktop": ({"width": 1366, "height": 900}, "screen"),
    "phone": ({"width": 390, "height": 844}, "screen"),
}
MODES = (*SCREENS, "print")
PHONE_SHARE = 0.05


# measured in the one visit of each page (tests/book/browser/bookcheck.py), loaded at the desktop width, on each screen
measure_on_every_visit("fit", FIT_JS, SCREENS)


@cache
def on_paper(language: str) -> dict:
    """The fit of the one page ``language``'s PDF was printed from, as ``book/build_pdf.py`` measured it."""
    path = fit_path(pdf_path(language))
    if not path.is_file():
        skip_or_fail(f"no {path.relative_to(REPO)}: run `make pdf` (make book and make test do)")
    return json.loads(path.read_text(encoding="utf-8"))


def findings_on(fit: dict, document: str, root: str) -> dict | None:
    """The findings of ``fit`` (a PDF's) on the page ``document``, or ``None`` if the PDF does not hold it.

    The one page a PDF is printed from is the root page of the book (its findings name no page) followed by each
    other page, which its findings name (``book/column_fit.py``).
    """
    if document != root and document not in fit["pages"]:
        return None
    mine = (lambda item: item["page"] in ("", root)) if document == root else (lambda item: item["page"] == document)
    return {key: [item for item in fit[key] if mine(item)] for key in ("display", "rows", "cut", "overlaps")}


def printed(name: str) -> dict:
    """What :func:`on_paper` found on the page ``name`` (``chapters/auc``, ``zh/chapters/auc``) of its PDF."""
    language, document = ("zh_CN", name.removeprefix(CHINESE + "/")) if name.startswith(CHINESE + "/") else ("en", name)
    found = findings_on(on_paper(language), document, PAGES[0])
    if found is None:
        pytest.fail(f"{document} is not in the {language} PDF (it holds {on_paper(language)['pages']})", pytrace=False)
    return found


def test_each_page_is_held_to_its_own_findings_on_paper():
    wide = {"page": "chapters/b", "where": "#b", "wide": True}
    fit = {
        "pages": ["chapters/a", "chapters/b"],
        "display": [{"page": "", "where": "#intro", "wide": False}, wide],
        "rows": [],
        "cut": [{"page": "chapters/a", "where": "#a"}],
        "overlaps": [],
    }
    assert findings_on(fit, "chapters/b", "chapters/intro")["display"] == [wide]
    assert findings_on(fit, "chapters/a", "chapters/intro") == {
        "display": [],
        "rows": [],
        "cut": [{"page": "chapters/a", "where": "#a"}],
        "overlaps": [],
    }
    assert findings_on(fit, "chapters/intro", "chapters/intro")["display"] == [fit["display"][0]]
    assert findings_on(fit, "chapters/c", "chapters/intro") is None  # a page the PDF does not hold


class PageFit(dict):
    """The fit of one page in each mode, ``{mode: {"display": [...], "rows": [...], "cut": [...], ...}}``: the
    screens from its visit, paper (``"print"``) from its PDF when first asked for."""

    def __init__(self, name: str, screens: dict):
        super().__init__(screens)
        self.name = name

    def __missing__(self, mode: str) -> dict:
        if mode != "print":
            raise KeyError(mode)
        self[mode] = printed(self.name)
        return self[mode]


def measure(page_visits, name: str) -> PageFit:
    """The fit of the page ``name`` in each mode (see :class:`PageFit`)."""
    report = page_visits.get(name)
    if not report.typeset:
        pytest.fail(f"{report.url}: MathJax did not load", pytrace=False)
    return PageFit(name, report.measures["fit"])


@pytest.fixture
def fit(request, page_visits) -> dict:
    name = request.param
    if name.startswith(CHINESE + "/") and not (html_dir() / CHINESE / "chapters").is_dir():
        skip_or_fail(f"no Chinese edition in {html_dir() / CHINESE}: run `make book` first")
    return measure(page_visits, name)


def pages(test):
    return pytest.mark.parametrize("fit", EDITION_PAGES, indirect=True, ids=EDITION_PAGES)(test)


def _list(items) -> str:
    return "\n  - " + "\n  - ".join(items)


# the narrowest column a figure is shown in on a 390 px phone (inside an exercise's solution): melearn.plotting draws
# every text of a figure at least 9 px high when the figure is shown this wide
PHONE_FIGURE_PX = PHONE_COLUMN_PX


@pages
def test_on_a_phone_every_figure_is_shown_wide_enough_for_its_text(fit):
    narrow = [
        f"{f['where']} ({f['shown']} px of {f['natural']} px)"
        for f in fit["phone"]["figures"]
        if f["shown"] < min(f["natural"], PHONE_FIGURE_PX) - 1
    ]
    assert not narrow, f"figures shown too narrow on a phone for 9 px text:{_list(narrow)}"


@pages
@pytest.mark.parametrize("mode", ["desktop", "print"])
def test_no_display_formula_wider_than_its_column(fit, mode):
    wide = [f"{d['where']} ({d['need']} px in {d['room']} px)" for d in fit[mode]["display"] if d["wide"]]
    assert not wide, f"{mode}: {len(wide)} display formulas wider than their column:{_list(wide)}"


@pages
@pytest.mark.parametrize("mode", ["desktop", "print"])
def test_no_chain_row_wider_than_its_column(fit, mode):
    wide = [f"{r['kind']} {r['where']}" for r in fit[mode]["rows"] if r["wide"]]
    assert not wide, f"{mode}: {len(wide)} chain rows or rule statements wider than their column:{_list(wide)}"


@pages
def test_on_a_phone_a_wide_formula_shows_that_it_scrolls(fit):
    hidden = [d["where"] for d in fit["phone"]["display"] + fit["phone"]["rows"] if d["wide"] and not d["scrolls"]]
    assert not hidden, f"formulas cut on a phone with nothing to say they scroll:{_list(hidden)}"


@pages
@pytest.mark.parametrize("mode", MODES)
def test_reasons_and_rule_kinds_are_never_cut(fit, mode):
    cut = [c["where"] for c in fit[mode]["cut"]]
    assert not cut, f"{mode}: reasons or rule headings cut:{_list(cut)}"


@pages
@pytest.mark.parametrize("mode", MODES)
def test_equation_numbers_never_sit_on_their_formula(fit, mode):
    overlaps = [o["where"] for o in fit[mode]["overlaps"]]
    assert not overlaps, f"{mode}: equation numbers drawn over formulas:{_list(overlaps)}"


@pytest.mark.parametrize("edition", ["en", CHINESE])
def test_on_a_phone_at_most_five_percent_of_formulas_are_wide(edition, page_visits):
    names = PAGES if edition == "en" else [f"{CHINESE}/{page}" for page in PAGES]
    if edition == CHINESE and not (html_dir() / CHINESE / "chapters").is_dir():
        skip_or_fail(f"no Chinese edition in {html_dir() / CHINESE}: run `make book` first")
    total, wide = 0, []
    for name in names:
        # display formulas; chain rows and rule statements are held by the scroll-cue test above (an open target)
        shown = measure(page_visits, name)["phone"]["display"]
        total += len(shown)
        wide += [f"{name} {d['where']}" for d in shown if d["wide"]]
    assert total, "no formulas measured"
    assert len(wide) <= PHONE_SHARE * total, (
        f"{len(wide)} of {total} formulas ({len(wide) / total:.0%}) are wider than a 390 px phone's column:"
        f"{_list(wide[:40])}"
    )
