"""Every page of the built book, in both editions, opened in headless Chromium as a reader would open it.

Run ``make book`` first (``make test`` does): it builds the English site in ``_build/html`` and the Chinese one
(中文版) in ``_build/html/zh``. Each test is parametrised by page, so a failure names the page;
each page is loaded once per run and every check reads that one visit (which ``test_fit.py`` measures too).
Screenshots at desktop and phone width (and desktop in dark mode) go to ``_build/screenshots/``.
"""

from __future__ import annotations

import os
import time
import urllib.parse

import pytest

from .bookcheck import CHINESE, claimed_formulas, fail_if, on_every_page, toc_pages

pytestmark = pytest.mark.browser

PAGES = toc_pages()


@on_every_page
def test_formulas_typeset_without_errors(report):
    assert report.typeset, f"{report.url}: MathJax never finished typesetting"
    fail_if(report.math_errors, "MathJax could not typeset", report)
    fail_if(report.untypeset_tex, "raw TeX left in the text (a formula MathJax did not typeset)", report)


@on_every_page
def test_images_load(report):
    fail_if(report.broken_images, "images that did not load", report)


@on_every_page
def test_no_console_errors(report):
    fail_if(report.console_errors, "errors in the browser console", report)


@on_every_page
def test_no_page_errors(report):
    """No script of a page throws: not the theme's, not an extension's (sphinx-thebe's settings, loaded twice by
    Jupyter Book 1, threw "Identifier 'THEBE_JS_URL' has already been declared" on every page), not the book's."""
    fail_if(report.page_errors, "uncaught errors (page errors)", report)


@on_every_page
def test_no_failed_or_external_requests(report):
    fail_if(report.failed_requests, "failed requests", report)
    fail_if(report.external_requests, "requests to the network (the book must work offline)", report)


@on_every_page
def test_links_and_equation_references_resolve(report):
    fail_if(report.broken_links + report.bad_equation_refs, "broken links or equation references", report)


@on_every_page
def test_title_and_claimed_formula_numbers(report):
    assert report.title.strip(), f"{report.url}: the page has no <title>"
    assert report.h1.strip(), f"{report.url}: the page has no heading"
    claimed = claimed_formulas(report.h1)
    shown = {number.strip("()") for number in report.equation_numbers}
    # a formula labelled on another page (its home) may be shown here through an equation reference
    shown |= {link["text"].strip("()") for link in report.links if "#equation-" in link["href"]}
    missing = [f"({number})" for number in claimed if number not in shown]
    assert not missing, (
        f"{report.url}: the title {report.h1!r} claims {', '.join(f'({n})' for n in claimed)} "
        f"but shows neither an equation numbered {', '.join(missing)} nor a reference to it (shown: {sorted(shown)})"
    )
    duplicates = sorted({n for n in report.equation_numbers if report.equation_numbers.count(n) > 1})
    assert not duplicates, f"{report.url}: equation numbers shown twice: {duplicates}"


@on_every_page
def test_each_page_links_to_itself_in_the_other_edition(report):
    """The edition switch at the top of every page leads to the same page in the other language."""
    page = report.url.split("/", 3)[3].removesuffix(".html")
    chinese = page.startswith(CHINESE + "/")
    other = page.removeprefix(CHINESE + "/") if chinese else f"{CHINESE}/{page}"
    switches = [link["href"] for link in report.links if "edition-switch" in link.get("parent_classes", [])]
    targets = [urllib.parse.urlsplit(href).path.lstrip("/") for href in switches]
    assert targets == [other + ".html"], f"{report.url}: edition switch leads to {targets}, not {other}.html"
    assert report.lang == ("zh-CN" if chinese else "en"), f"{report.url}: <html lang={report.lang!r}>"


@on_every_page
def test_equation_numbers_link_to_themselves(report):
    fail_if(report.equation_headerlinks_missing, "numbered equations without a permalink", report)


@on_every_page
def test_no_horizontal_overflow_on_a_phone(report):
    assert not report.phone_overflow, f"{report.url}: {report.phone_overflow}"


@on_every_page
def test_figures_readable_in_dark_mode(report):
    fail_if(report.dark_image_backgrounds, "output images without a white background in dark mode", report)


@on_every_page
def test_reader_buttons(report):
    """A download button everywhere; repository, issue and launch buttons only when a repository is configured.

    ``MELEARN_REPOSITORY_URL`` (read by the build, see ``book/ext/build_settings.py``) is the one setting that turns
    them on; without it no button may lead a reader to an address nobody checked.
    """
    hrefs = [link["href"] for link in report.links]
    downloads = [h for h in hrefs if "/_sources/" in h]
    assert downloads, f"{report.url}: no download button"
    buttons = [
        link["href"]
        for link in report.links
        if any(
            name in link["classes"]
            for name in ("btn-source-repository-button", "btn-source-issues-button", "btn-source-edit-button")
        )
    ]
    launch = [h for h in hrefs if h.startswith(("https://mybinder.org", "https://colab.research.google.com"))]
    repository = os.environ.get("MELEARN_REPOSITORY_URL", "").strip().rstrip("/")
    if not repository:
        assert not buttons and not launch, (
            f"{report.url}: repository or launch buttons though no repository is configured: {buttons + launch}"
        )
        return
    assert any(h.rstrip("/") == repository for h in hrefs), f"{report.url}: no repository button"
    assert any(h.startswith(repository + "/issues") for h in hrefs), f"{report.url}: no issue button"
    if any(h.endswith(".ipynb") for h in downloads):
        assert any(h.startswith("https://mybinder.org/v2/") for h in launch), (
            f"{report.url}: notebook page without a Binder launch button"
        )


def test_screenshots_saved(page_visits):
    """Every visited page left a desktop and a phone screenshot (the artifacts of this run)."""
    reports = page_visits.reports()
    assert reports, "no page was visited"
    for page, report in reports.items():
        missing = [str(path) for path in report.screenshots if not path.is_file() or path.stat().st_size == 0]
        assert len(report.screenshots) == 3 and not missing, f"{page}: screenshots missing: {missing}"


@pytest.mark.parametrize(
    "query, expected",
    [
        ("AUC", ["chapters/auc.html", "chapters/rank_loss.html"]),
        ("ROC", ["chapters/roc_curve.html", "chapters/auc.html"]),
    ],
)
def test_search_finds_pages(browser_context, server, query, expected):
    expected = [page for page in expected if page[: -len(".html")] in PAGES]
    if not expected:
        pytest.skip("the expected pages are not in this table of contents")
    page = browser_context.new_page()
    try:
        page.goto(f"{server.url}/search.html?q={urllib.parse.quote(query)}", wait_until="load")
        page.wait_for_selector("#search-results ul.search li", timeout=30_000)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # Sphinx adds the results one by one
            summary = page.locator("#search-results p.search-summary").text_content() or ""
            if summary.strip() and "Preparing" not in summary:
                break
            page.wait_for_timeout(200)
        found = page.eval_on_selector_all("#search-results ul.search li a", "links => links.map(a => a.href)")
    finally:
        page.close()
    found_pages = {urllib.parse.urlsplit(href).path.lstrip("/") for href in found}
    missing = [page for page in expected if page not in found_pages]
    assert not missing, f"searching {query!r} does not find {missing}; it finds {sorted(found_pages)}"
