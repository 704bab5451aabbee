"""What a reader does besides reading: opening the menus on a phone or tablet, searching, downloading the PDF.

Run on the built site of both editions (``make book`` or ``make test`` builds them, and the PDFs): the menus at
390 px (a phone) and 800 px (a tablet), where the theme puts the navigation and the page's contents behind two
buttons; the Chinese search terms of the textbook; the search results' titles; and the download menu and the
landing page, which must lead to the edition's PDF.
"""

from __future__ import annotations

import html.parser
import re
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from .bookcheck import CHINESE, HARMLESS_CONSOLE, html_dir, settle, skip_or_fail, toc_pages

pytestmark = pytest.mark.browser

EDITIONS = {"en": "", "zh_CN": f"{CHINESE}/"}
PDF_NAMES = {"en": "melearn-en.pdf", "zh_CN": "melearn-zh_CN.pdf"}
NARROW_WIDTHS = (390, 800)  # a phone and a tablet: below the theme's 992 px, the sidebars are behind buttons
MENU_PAGES = ("chapters/intro", "chapters/auc")
MENUS = {  # the button and the dialog it opens (pydata-sphinx-theme's markup)
    "navigation": (".primary-toggle", "#pst-primary-sidebar-modal", "nav.bd-docs-nav a"),
    "contents": (".secondary-toggle", "#pst-secondary-sidebar-modal", "nav.page-toc a, .toc-entry a"),
}
# each Chinese term of the textbook and the page that defines it (either page, where two share the term)
CHINESE_TERMS = {
    "查准率": ["chapters/precision_recall_f"],
    "偏差": ["chapters/bias_variance"],
    "自助法": ["chapters/evaluation_methods"],
    "留出法": ["chapters/evaluation_methods"],
    "排序损失": ["chapters/rank_loss"],
    "代价曲线": ["chapters/cost_curves"],
    "二项检验": ["chapters/binomial_test", "chapters/binomial_test_corrected"],
}


def _edition_site(language: str) -> Path:
    site = html_dir() / EDITIONS[language]
    if not (site / "chapters").is_dir():
        skip_or_fail(f"no {language} edition in {site}: run `make book` first")
    return site


def _open(context, url: str, width: int, typeset: bool = True):
    """A new tab at ``width`` x 844 px with ``url`` loaded, and the list its console errors are collected in.

    Without ``typeset``, MathJax is not loaded: the page's formulas stay TeX (see ``narrow_pages``).
    """
    errors: list[str] = []
    page = context.new_page()
    page.set_viewport_size({"width": width, "height": 844})
    if not typeset:
        page.route("**/_static/mathjax/**", lambda route: route.abort())

    def on_console(message):
        # a page's failed request is reported with its address by on_response; the browser's own (its favicon
        # request on a first visit) only as this console line, which names nothing the book loads
        if message.text.startswith("Failed to load resource"):
            return
        if message.type == "error" and not any(p.search(message.text) for p in HARMLESS_CONSOLE):
            errors.append(message.text)

    def on_page_error(error):
        if not any(p.search(str(error)) for p in HARMLESS_CONSOLE):
            errors.append(f"uncaught: {error}")

    def on_response(response):
        if response.status >= 400:
            errors.append(f"{response.url}: HTTP {response.status}")

    page.on("console", on_console)
    page.on("pageerror", on_page_error)
    page.on("response", on_response)
    page.goto(url, wait_until="load")
    if not typeset:
        assert page.evaluate("() => document.querySelectorAll('mjx-container').length") == 0  # nothing typeset
    settle(page)
    return page, errors


# how long a menu may take to open or close after a tap before the test calls it broken
MENU_MS = 5000


_OPEN_JS = """async ([selector, wanted, ms]) => {
  const open = () => { const d = document.querySelector(selector); return !!(d && d.open); };
  const end = performance.now() + ms;
  while (open() !== wanted && performance.now() < end) await new Promise((done) => setTimeout(done, 20));
  return open();
}"""


def _is_open(page, dialog: str, wanted: bool = True) -> bool:
    """Whether ``dialog`` is open, read once it is as ``wanted`` (or MENU_MS have passed) and its animations ended."""
    page.evaluate(_OPEN_JS, [dialog, wanted, MENU_MS])
    settle(page)
    return page.evaluate(_OPEN_JS, [dialog, wanted, 0])


@pytest.fixture(scope="module")
def narrow_pages(browser_context, server):
    """One load of each page at each narrow width, shared by the tests of its two menus (each leaves them closed).

    MathJax is not loaded: the menus hold no formula they need typeset (a title's TeX is a link all the same),
    and typesetting the page would run beside every tap on a menu (it doubled the time of these tests). The
    formulas of every page, and whether it fits a phone, are checked in its one visit (bookcheck.py).
    """
    opened: dict[tuple[str, str, int], tuple[object, list[str]]] = {}

    def open_page(language: str, page_name: str, width: int):
        key = (language, page_name, width)
        if key not in opened or opened[key][0].is_closed():
            url = f"{server.url}/{EDITIONS[language]}{page_name}.html"
            opened[key] = _open(browser_context, url, width, typeset=False)
        else:
            opened[key][0].bring_to_front()  # a tab in the background gets no animation frames
        return opened[key]

    yield open_page
    for page, _ in opened.values():
        page.close()


@pytest.mark.parametrize("width", NARROW_WIDTHS)
@pytest.mark.parametrize("menu", list(MENUS))
@pytest.mark.parametrize("language", list(EDITIONS))
@pytest.mark.parametrize("page_name", MENU_PAGES)
def test_menu_opens_and_closes_below_992px(narrow_pages, language, page_name, menu, width):
    """The visible button opens its menu (with links in it); Escape and a tap beside it close it again."""
    _edition_site(language)
    button, dialog, items = MENUS[menu]
    page, errors = narrow_pages(language, page_name, width)
    try:
        visible = [element for element in page.query_selector_all(button) if element.is_visible()]
        assert len(visible) == 1, f"{page_name} at {width} px: {len(visible)} visible {menu} buttons ({button})"
        for close in ("Escape", "tap beside"):
            visible[0].click()
            assert _is_open(page, dialog), f"{page_name} ({language}) at {width} px: the {menu} button opens nothing"
            links = page.eval_on_selector_all(f"{dialog} a", "links => links.filter(a => a.offsetParent).length")
            assert links > 0, f"{page_name} ({language}) at {width} px: the {menu} menu opened empty"
            if close == "Escape":
                page.keyboard.press("Escape")
            else:  # the backdrop: the side of the screen the menu does not cover
                box = page.eval_on_selector(dialog, "d => d.getBoundingClientRect().toJSON()")
                x = box["right"] + 10 if box["right"] + 10 < width else box["left"] - 10
                page.mouse.click(x, 400)
            assert not _is_open(page, dialog, wanted=False), (
                f"{page_name} at {width} px: the {menu} menu does not close ({close})"
            )
        scroll = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        assert scroll[0] <= scroll[1] + 1, f"{page_name} at {width} px: the page scrolls sideways ({scroll})"
    except BaseException:
        page.close()  # a menu left open: the page's other menu is tested on a new load
        raise
    assert not errors, f"{page_name} ({language}) at {width} px: console errors: {errors}"


def test_one_search_box_on_a_desktop_page(browser_context, server):
    """The sidebar's search box, and no second one in a header above it."""
    page, errors = _open(browser_context, f"{server.url}/chapters/auc.html", 1366)
    try:
        boxes = [box for box in page.query_selector_all(".search-button-field") if box.is_visible()]
    finally:
        page.close()
    assert len(boxes) == 1, f"{len(boxes)} search boxes on a desktop page"
    assert not errors, errors


def _search(context, base: str, query: str) -> tuple[list[str], list[str]]:
    """The result pages of a search (in order, without suffix) and the titles as the reader sees them."""
    page = context.new_page()
    try:
        page.goto(f"{base}/search.html?q={urllib.parse.quote(query)}", wait_until="load")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # Sphinx adds the results one by one, then writes a summary
            summary = page.locator("#search-results p.search-summary").text_content() or ""
            if summary.strip() and "Preparing" not in summary and "准备" not in summary:
                break
            page.wait_for_timeout(200)
        # the results are typeset as they arrive (book/ext/reader.py): wait until what they hold is typeset
        page.wait_for_selector("#search-results[data-typeset='done']", state="attached", timeout=30_000)
        hrefs = page.eval_on_selector_all("#search-results ul.search li > a", "links => links.map(a => a.href)")
        titles = page.eval_on_selector_all(
            "#search-results ul.search li > a",
            """links => links.map(a => { const c = a.cloneNode(true);
                 c.querySelectorAll('mjx-container').forEach(m => m.replaceWith(
                   (m.querySelector('mjx-assistive-mml') || {textContent: ''}).textContent));
                 return c.textContent; })""",
        )
    finally:
        page.close()
    pages = [urllib.parse.urlsplit(href).path.lstrip("/").removesuffix(".html") for href in hrefs]
    return pages, titles


@pytest.mark.parametrize("term", list(CHINESE_TERMS))
def test_chinese_search_finds_the_page_in_the_first_three(browser_context, server, term):
    _edition_site("zh_CN")
    found, _ = _search(browser_context, f"{server.url}/{CHINESE}", term)
    found = [page.removeprefix(f"{CHINESE}/") for page in found]
    expected = CHINESE_TERMS[term]
    assert any(page in expected for page in found[:3]), (
        f"searching {term!r} in the Chinese edition: {expected} not among the first three results {found[:5]}"
    )


@pytest.mark.parametrize("language, query", [("en", "precision"), ("zh_CN", "查准率")])
def test_search_result_titles_show_no_tex(browser_context, server, language, query):
    _edition_site(language)
    _, titles = _search(browser_context, f"{server.url}/{EDITIONS[language]}".rstrip("/"), query)
    assert titles, f"searching {query!r} found nothing"
    with_tex = [title for title in titles if "\\(" in title or "\\)" in title or "\\mathrm" in title]
    assert not with_tex, f"search results whose titles show TeX source: {with_tex}"


class _Downloads(html.parser.HTMLParser):
    """The download menu's links and the landing page's PDF link, and any button that prints the page."""

    def __init__(self):
        super().__init__()
        self.pdf_links: list[str] = []
        self.print_buttons = 0
        self.in_book_pdf = False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = (attributes.get("class") or "").split()
        if tag == "p" and "book-pdf" in classes:
            self.in_book_pdf = True
        if tag == "a" and (attributes.get("href") or "").endswith(".pdf"):
            if "dropdown-item" in classes or self.in_book_pdf:
                self.pdf_links.append(attributes["href"])
        if "window.print()" in (attributes.get("onclick") or ""):
            self.print_buttons += 1

    def handle_endtag(self, tag):
        if tag == "p":
            self.in_book_pdf = False


@pytest.mark.parametrize("language", list(EDITIONS))
def test_every_page_links_the_edition_pdf(server, language):
    """Every page's download menu (and the landing page, at its top) leads to this edition's PDF, which exists."""
    site = _edition_site(language)
    problems: list[str] = []
    fetched: dict[str, bytes] = {}
    pages = toc_pages()
    for name in pages:
        parser = _Downloads()
        parser.feed((site / f"{name}.html").read_text(encoding="utf-8"))
        wanted = 2 if name == pages[0] else 1  # the landing page links it twice: at its top and in the menu
        if len(parser.pdf_links) != wanted or parser.print_buttons:
            problems.append(f"{name}: {len(parser.pdf_links)} links to a PDF, {parser.print_buttons} print buttons")
        for href in parser.pdf_links:
            url = urllib.parse.urljoin(f"{server.url}/{EDITIONS[language]}{name}.html", href)
            if url not in fetched:
                try:
                    with urllib.request.urlopen(url, timeout=30) as response:
                        fetched[url] = response.read()
                except OSError as error:
                    fetched[url] = f"{error}".encode()
            if not fetched[url].startswith(b"%PDF") or not url.endswith("/" + PDF_NAMES[language]):
                problems.append(f"{name}: {href} is not the {language} PDF ({fetched[url][:40]!r})")
    assert not problems, f"{language}: pages without a working link to the PDF:\n  " + "\n  ".join(problems[:20])


def test_chinese_source_download_says_what_it_is():
    """The Chinese edition's download of a page's source (the English notebook) is labelled as the English original,
    and the landing page says how to run it in Chinese."""
    site = _edition_site("zh_CN")
    unlabelled = []
    for name in toc_pages():
        text = (site / f"{name}.html").read_text(encoding="utf-8")
        items = re.findall(r"btn-download-source-button[^>]*>(.*?)</a>", text, flags=re.S)
        if not items or not all("英文原稿" in item for item in items):
            unlabelled.append(name)
    assert not unlabelled, f"Chinese pages whose source download is not labelled as the English original: {unlabelled}"
    landing = (site / f"{toc_pages()[0]}.html").read_text(encoding="utf-8")
    assert "MELEARN_LANGUAGE=zh_CN" in landing, "the Chinese landing page does not say how to run a notebook in Chinese"


class _Scripts(html.parser.HTMLParser):
    """The bodies of a page's inline scripts, in order."""

    def __init__(self):
        super().__init__()
        self.bodies: list[str] = []
        self._inline = False

    def handle_starttag(self, tag, attrs):
        self._inline = tag == "script" and "src" not in dict(attrs)
        if self._inline:
            self.bodies.append("")

    def handle_data(self, data):
        if self._inline:
            self.bodies[-1] += data

    def handle_endtag(self, tag):
        self._inline = False


@pytest.mark.parametrize("language", list(EDITIONS))
def test_each_script_once_and_the_search_page_typesets_its_results(language):
    """No inline script is written twice into a page (Sphinx 7.4 wrote each one given after the builder's start
    twice: sphinx-togglebutton's configuration, the book's scroll stops), and the search page has the script that
    typesets its results (given to that page alone, it was not written into it)."""
    site = _edition_site(language)
    twice = []
    for name in ("search", *toc_pages()):
        parser = _Scripts()
        parser.feed((site / f"{name}.html").read_text(encoding="utf-8"))
        bodies = [body.strip() for body in parser.bodies if body.strip()]
        twice += [f"{name}: {body[:60]!r}" for body in sorted(set(bodies)) if bodies.count(body) > 1]
        if name == "search":
            assert any("search-results" in body and "typesetPromise" in body for body in bodies), "search page"
    assert not twice, f"{language}: inline scripts written twice:\n  " + "\n  ".join(twice[:10])
