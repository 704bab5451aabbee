"""Open one page of the built book in Chromium and list everything a reader would see go wrong.

:func:`visit` loads a page, waits until MathJax has typeset it, and returns a :class:`PageReport`: MathJax errors,
TeX left untypeset in the prose, images that did not load, console errors, failed or non-local requests, links
and equation references that do not resolve, the title and the equation numbers the page shows, and whether the
page overflows sideways on a phone. The tests turn each kind of problem into an assertion; the same code checks a
small deliberately broken page in ``test_checker.py``, so a checker that stopped seeing problems would fail too.

Each page of the book is opened once per test run, whichever tests read it (:class:`PageVisits`): a test module
that measures something more on every page registers a script with :func:`measure_on_every_visit`, and the one
visit runs it in each mode it asks for (a desktop, a phone, print media), after the checks above, each time once
the page's layout has settled (:func:`settle`: its transitions ended, not a fixed time). Under pytest-xdist the
visits are shared between the workers through files, so no page is opened twice.
"""

from __future__ import annotations

import fcntl
import html.parser
import os
import pickle
import re
import urllib.error
import urllib.parse
import urllib.request
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import pytest

# one list of flags, shared with book/build_pdf.py (re-exported for conftest.py)
# the book's pages and a local server over the built site, shared with book/look.py (re-exported for the tests)
from book.book_site import LocalServer as LocalServer
from book.book_site import toc_pages as toc_pages
from book.chromium import CHROMIUM_ARGS as CHROMIUM_ARGS
from book.chromium import chromium_executable as chromium_executable

REPO = Path(__file__).resolve().parents[3]


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def skip_or_fail(reason: str) -> None:
    """Skip loudly on a developer's machine; fail under ``CI=true``, where a skipped check is a silent hole."""
    if in_ci():
        pytest.fail(f"{reason} (CI=true: this is a failure, not a skip)", pytrace=False)
    warnings.warn(f"skipped: {reason}", stacklevel=2)
    pytest.skip(reason)


def html_dir() -> Path:
    return Path(os.environ.get("MELEARN_BOOK_HTML", REPO / "_build" / "html")).resolve()


CHINESE = "zh"  # the Chinese edition's folder inside the English site (see book/ext/editions.py)


def edition_pages() -> list[str]:
    """Every page of the table of contents, in English and then in Chinese (``zh/...``)."""
    pages = toc_pages()
    return pages + [f"{CHINESE}/{page}" for page in pages]


def visit_page(page_visits: PageVisits, name: str) -> PageReport:
    """The one visit of a page, made on first use and shared by every browser test that reads it.

    A Chinese page needs the Chinese edition built beside the English one: without it the test is skipped (failed
    under ``CI=true``).
    """
    if name.startswith(CHINESE + "/") and not (html_dir() / CHINESE / "chapters").is_dir():
        skip_or_fail(f"no Chinese edition in {html_dir() / CHINESE}: run `make book` first")
    return page_visits.get(name)


def on_every_page(test):
    """Run ``test(report)`` once for each page of both editions (:func:`edition_pages`), ``report`` its one visit."""
    pages = edition_pages()
    return pytest.mark.parametrize("report", pages, indirect=True, ids=pages)(test)


def fail_if(problems: list[str], what: str, report: PageReport) -> None:
    """Fail with one readable message naming the page and listing every problem of one kind."""
    if problems:
        listed = "\n  - " + "\n  - ".join(problems)
        pytest.fail(f"{report.url}: {what}:{listed}", pytrace=False)


def screenshot_dir() -> Path:
    return Path(os.environ.get("MELEARN_BOOK_SCREENSHOTS", REPO / "_build" / "screenshots")).resolve()


DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
# the viewport (and media) of each mode a registered measure can ask for; desktop is the width a page is loaded at
MODE_DESKTOP, MODE_PHONE = (DESKTOP, "screen"), (PHONE, "screen")

# After a change of width or media the theme rearranges its sidebars, with CSS transitions (its off-canvas sidebars
# slide out in 0.2-0.25 s when the width drops below 992 px), and the book breaks its display formulas again for the
# new column (book/static/math-reflow.js: MathJax measures and typesets again): a page is measured once both are done.
# Two animation frames first, so that the new width's styles are applied, its transitions have started and the
# column's change has been seen; then the fonts, MathJax's work (its startup promise, and the book's reflow when
# the page has it) and every finite animation's end, in turn until none is left. (Nothing else changes what is
# measured: the theme's own resize handlers, run 300 ms later, only set tabindex on scrolling boxes and mark the
# contents entry in view.) The bound is generous: on a loaded machine typesetting a long page again takes seconds.
SETTLE_SECONDS = 60
_SETTLED_JS = r"""
async (seconds) => {
  const frames = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const deadline = performance.now() + seconds * 1000;
  const left = () => new Promise((done) => setTimeout(done, Math.max(0, deadline - performance.now())));
  const running = () => document.getAnimations().filter((a) => a.playState === 'running'
      && a.effect && Number.isFinite(a.effect.getComputedTiming().endTime));
  const pending = () => !!(window.melearnMathPending && window.melearnMathPending());
  while (performance.now() < deadline) {  // an animation's end may start another, a reflow a transition
    await frames();
    await Promise.race([document.fonts.ready, left()]);
    const math = window.melearnMathSettled ? window.melearnMathSettled()
      : window.MathJax && MathJax.startup && MathJax.startup.promise;
    if (math) await Promise.race([math, left()]);
    const animations = running();
    if (!animations.length && !pending()) return [];
    await Promise.race([Promise.all(animations.map((a) => a.finished.catch(() => null))), left()]);
  }
  const named = (el) => el ? el.tagName.toLowerCase() + '.' + Array.from(el.classList).join('.') : '?';
  return running().map((a) => `${a.animationName || a.transitionProperty || 'animation'} on ${named(a.effect.target)}`)
    .concat(pending() ? ['formulas still being broken again for the new width'] : []);
}
"""


def settle(page) -> None:
    """Wait until the page's layout has settled after a change of viewport, media or colour mode (see above)."""
    still = page.evaluate(_SETTLED_JS, SETTLE_SECONDS)
    if still:
        raise AssertionError(
            f"{page.url}: not settled {SETTLE_SECONDS} s after a change of viewport or media: {', '.join(still)}"
        )


@dataclass(frozen=True)
class Measure:
    """A script run on every visited page in each of ``modes`` (name: (viewport, media)), in that order."""

    script: str
    modes: dict[str, tuple[dict, str]]


MEASURES: dict[str, Measure] = {}


def measure_on_every_visit(name: str, script: str, modes: dict[str, tuple[dict, str]]) -> None:
    """Run ``script`` (a JavaScript function returning JSON) in each of ``modes`` in the one visit of every page.

    Its results are the visit's ``measures[name][mode]``. A test module calls this when it is imported, so every
    pytest-xdist worker (each imports every collected module) visits with the same measures.
    """
    if not modes or any(media not in ("screen", "print") for _, media in modes.values()):
        raise ValueError(f"modes of {name!r} must name a viewport and 'screen' or 'print': {modes!r}")
    MEASURES[name] = Measure(script, dict(modes))


# Console messages that are no fault of the book (none: every error a page logs or throws is reported). A page
# error is never harmless: an uncaught exception stops the script that threw it.
HARMLESS_CONSOLE: tuple[re.Pattern, ...] = ()

# TeX delimiters or commands that should never be left as visible text outside code.
UNTYPESET = re.compile(r"\\\(|\\\)|\\\[|\\\]|\$\$|\\begin\{|\\end\{|\\frac\{|\\mathrm\{|\\sum_")

_PAGE_FACTS_JS = r"""
() => {
  const skip = 'pre, code, script, style, textarea, mjx-container, mjx-assistive-mml, .highlight, kbd, samp';
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const prose = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest(skip)) continue;
    if (node.textContent.trim()) prose.push(node.textContent);
  }
  const describe = (el) => {
    let label = el.tagName.toLowerCase();
    if (el.id) label += '#' + el.id;
    if (el.classList.length) label += '.' + Array.from(el.classList).join('.');
    const section = el.closest('section[id]');
    return section ? `${label} in section #${section.id}` : label;
  };
  // MathJax's own record of what it typeset: an merror node (a TeX error), or the red text that
  // MathJax's noundefined package puts in place of an unknown macro such as \fracc
  const merrors = [];
  if (window.MathJax && MathJax.startup && MathJax.startup.document && MathJax.startup.document.math) {
    for (const item of MathJax.startup.document.math) {
      const source = (item.math || '').trim().slice(0, 80);
      const node = item.start && item.start.node;
      const holder = node && (node.nodeType === 1 ? node : node.parentElement);
      const section = holder && holder.closest ? holder.closest('section[id]') : null;
      const where = section ? ` in section #${section.id}` : '';
      if (!item.root || !item.root.walkTree) continue;
      item.root.walkTree((mml) => {
        if (mml.isKind('merror')) {
          merrors.push(`${mml.attributes.get('data-mjx-error') || 'TeX error'} in "${source}"${where}`);
        } else if (mml.isKind('mtext') && mml.attributes.get('mathcolor') === 'red') {
          const text = mml.childNodes.map((c) => (c.getText ? c.getText() : '')).join('');
          merrors.push(`undefined control sequence ${text} in "${source}"${where}`);
        }
      });
    }
  }
  // and, should MathJax's internals ever change, the error elements in the page itself
  const domErrors = document.querySelectorAll('mjx-merror').length;
  if (domErrors && !merrors.some((e) => !e.startsWith('undefined'))) {
    merrors.push(`${domErrors} MathJax error element(s) (mjx-merror) on the page`);
  }
  const images = Array.from(document.images).map((img) => ({
    src: img.currentSrc || img.src, ok: img.complete && img.naturalWidth > 0, where: describe(img)}));
  const links = Array.from(document.querySelectorAll('a[href]')).map((a) => ({
    href: a.href, raw: a.getAttribute('href'), text: a.textContent.trim(), classes: a.className,
    parent_classes: a.parentElement ? a.parentElement.className : ''}));
  const eqnos = Array.from(document.querySelectorAll('.eqno')).map((span) => {
    const holder = span.closest('[id]');
    const link = span.querySelector('a.headerlink');
    return {text: span.textContent.replace('#', '').trim(), id: holder ? holder.id : null,
            headerlink: link ? link.getAttribute('href') : null};
  });
  const h1 = document.querySelector('main h1, article h1, h1');
  return {
    title: document.title,
    lang: document.documentElement.lang,
    h1: h1 ? h1.textContent.replace(/#$/, '').trim() : '',
    prose: prose.join('\n'),
    mathElements: document.querySelectorAll('.math, span.math, div.math').length,
    mathjaxContainers: document.querySelectorAll('mjx-container').length,
    merrors,
    images, links, eqnos,
    ids: Array.from(document.querySelectorAll('[id]')).map((el) => el.id),
  };
}
"""

_OVERFLOW_JS = r"""
() => {
  const width = window.innerWidth;
  const scrollWidth = document.documentElement.scrollWidth;
  if (scrollWidth <= width + 1) return {scrollWidth, width, culprits: []};
  // an element widens the page unless it, or an ancestor, is fixed (off-canvas menus) or clips/scrolls it
  const contained = (el) => {
    for (let p = el; p && p !== document.documentElement; p = p.parentElement) {
      const style = getComputedStyle(p);
      if (style.position === 'fixed' || style.display === 'none') return true;
      if (p !== el && ['auto', 'scroll', 'hidden', 'clip'].includes(style.overflowX)) return true;
    }
    return false;
  };
  const culprits = [];
  for (const el of document.body.querySelectorAll('*')) {
    const box = el.getBoundingClientRect();
    if (box.right <= width + 1 || box.width === 0 || contained(el)) continue;
    if (Array.from(el.children).some((c) => c.getBoundingClientRect().right > width + 1 && !contained(c))) continue;
    let label = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
                (el.classList.length ? '.' + Array.from(el.classList).join('.') : '');
    const text = (el.textContent || '').trim().slice(0, 40);
    if (text) label += ` "${text}"`;
    const section = el.closest('section[id]');
    if (section) label += ` in section #${section.id}`;
    culprits.push(`${label} (right edge at ${Math.round(box.right)} px)`);
    if (culprits.length >= 5) break;
  }
  return {scrollWidth, width, culprits};
}
"""

_WAIT_FOR_MATHJAX_JS = r"""
async () => {
  if (!window.MathJax || !MathJax.startup || !MathJax.startup.promise) return false;
  await MathJax.startup.promise;
  return true;
}
"""


@dataclass
class PageReport:
    """What one visit of one page found. Empty lists mean "nothing wrong"."""

    url: str
    title: str = ""
    h1: str = ""
    typeset: bool = False
    math_errors: list[str] = field(default_factory=list)
    untypeset_tex: list[str] = field(default_factory=list)
    broken_images: list[str] = field(default_factory=list)
    image_count: int = 0
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)  # uncaught exceptions (also among console_errors)
    failed_requests: list[str] = field(default_factory=list)
    external_requests: list[str] = field(default_factory=list)
    broken_links: list[str] = field(default_factory=list)
    bad_equation_refs: list[str] = field(default_factory=list)
    links: list[dict] = field(default_factory=list)
    lang: str = ""
    equation_numbers: list[str] = field(default_factory=list)
    equation_headerlinks_missing: list[str] = field(default_factory=list)
    phone_overflow: str = ""
    dark_image_backgrounds: list[str] = field(default_factory=list)
    screenshots: list[Path] = field(default_factory=list)
    measures: dict[str, dict[str, object]] = field(default_factory=dict)  # see measure_on_every_visit


class LinkChecker:
    """Fetches each local URL once (over the whole session): its status, its element ids, its equation numbers."""

    def __init__(self):
        self._status: dict[str, int] = {}
        self._ids: dict[str, set[str]] = {}
        self._equations: dict[str, dict[str, str]] = {}

    def status(self, url: str) -> int:
        if url not in self._status:
            try:
                with urllib.request.urlopen(url, timeout=20) as response:
                    body = response.read()
                    self._status[url] = response.status
                    if url.endswith((".html", "/")):
                        text = body.decode("utf-8", "replace")
                        self._ids[url] = _ids_in(text)
                        self._equations[url] = {m["id"]: m["number"] for m in _EQNO.finditer(text)}
            except urllib.error.HTTPError as error:
                self._status[url] = error.code
        return self._status[url]

    def ids(self, url: str) -> set[str]:
        self.status(url)
        return self._ids.get(url, set())

    def equation_number(self, url: str, element_id: str) -> str | None:
        """The number (``"2.20"``) shown by the numbered equation ``element_id`` of the page ``url``."""
        self.status(url)
        return self._equations.get(url, {}).get(element_id)


# a numbered equation as Sphinx writes it: <div class="math ..." id="equation-eq-2-20"><span class="eqno">(2.20)
_EQNO = re.compile(r'id="(?P<id>equation-[^"]+)"[^>]*>\s*<span class="eqno">\((?P<number>[^)<]+)\)')


class _IdCollector(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name == "id" or (tag == "a" and name == "name"):
                self.ids.add(value or "")


def _ids_in(text: str) -> set[str]:
    collector = _IdCollector()
    collector.feed(text)
    return collector.ids


def _short(text: str, at: int, width: int = 60) -> str:
    start = max(0, at - width // 2)
    return " ".join(text[start : start + width].split())


def visit(
    context,
    url: str,
    base: str,
    links: LinkChecker,
    screenshot_stem: Path | None = None,
    measures: dict[str, Measure] | None = None,
) -> PageReport:
    """Open ``url`` in a new tab of ``context``; ``base`` is the local server's origin (``http://127.0.0.1:N``).

    The page is checked at the desktop width, then, with ``measures``, measured in each mode they name (the phone
    checks are made at the phone width among them) once its layout has settled in that mode, and the tab is closed.
    """
    report = PageReport(url=url)
    local_host = urllib.parse.urlsplit(base).netloc
    page = context.new_page()
    page.set_viewport_size(DESKTOP)

    def on_request(request):
        # the book must work offline: a request for anything but the local server is reported (and fails: Chromium
        # resolves no host but 127.0.0.1, book/chromium.py). Listened to, not intercepted: intercepting every
        # request turns off the browser's cache, and each page would load and compile MathJax again.
        if urllib.parse.urlsplit(request.url).netloc != local_host and not request.url.startswith(("data:", "blob:")):
            report.external_requests.append(request.url)

    def on_console(message):
        if message.type == "error" and not any(p.search(message.text) for p in HARMLESS_CONSOLE):
            report.console_errors.append(message.text)

    def on_page_error(error):
        text = str(error)
        report.page_errors.append(text)
        if not any(p.search(text) for p in HARMLESS_CONSOLE):
            report.console_errors.append(f"uncaught: {text}")

    def on_failed(request):
        if request.url not in report.external_requests:
            report.failed_requests.append(f"{request.url} ({request.failure})")

    def on_response(response):
        if response.status >= 400:
            report.failed_requests.append(f"{response.url} (HTTP {response.status})")

    page.on("request", on_request)
    page.on("console", on_console)
    page.on("pageerror", on_page_error)
    page.on("requestfailed", on_failed)
    page.on("response", on_response)
    try:
        page.goto(url, wait_until="load", timeout=60_000)
        # images below the fold may be lazy: make them all load before judging them
        page.evaluate(
            """async () => {
                 for (const img of document.images) img.loading = 'eager';
                 await Promise.all(Array.from(document.images).map((img) => img.complete ? null :
                   new Promise((done) => { img.onload = img.onerror = done; setTimeout(done, 10000); })));
               }"""
        )
        has_math = page.evaluate("() => document.querySelectorAll('.math').length") > 0
        if has_math:
            try:
                # the longest page (rank loss: hundreds of formulas) loads MathJax late on a busy machine with
                # two browsers running: a slow start is not a failure, a start that never comes is
                page.wait_for_function(
                    "() => window.MathJax && MathJax.startup && MathJax.startup.promise", timeout=120_000
                )
                report.typeset = bool(page.evaluate(_WAIT_FOR_MATHJAX_JS))
            except Exception as error:  # noqa: BLE001 - reported as "MathJax did not run"
                report.math_errors.append(f"MathJax did not load or finish: {error}")
        else:
            report.typeset = True
        facts = page.evaluate(_PAGE_FACTS_JS)
        report.title, report.h1 = facts["title"], facts["h1"]
        report.math_errors.extend(facts["merrors"])
        if has_math and facts["mathjaxContainers"] == 0:
            report.math_errors.append(f"{facts['mathElements']} math elements but MathJax typeset none of them")
        last = -1000
        for match in UNTYPESET.finditer(facts["prose"]):
            if match.start() - last > 60:  # one quote per place, not one per TeX command in it
                report.untypeset_tex.append(f"'...{_short(facts['prose'], match.start() + 20)}...'")
                last = match.start()
        report.image_count = len(facts["images"])
        report.broken_images = [f"{img['src']} ({img['where']})" for img in facts["images"] if not img["ok"]]
        report.links = facts["links"]
        report.lang = facts["lang"]
        report.equation_numbers = [eq["text"] for eq in facts["eqnos"]]
        report.equation_headerlinks_missing = [
            f"{eq['text']} (id {eq['id']})"
            for eq in facts["eqnos"]
            if not eq["headerlink"] or not eq["id"] or eq["headerlink"] != f"#{eq['id']}"
        ]
        _check_links(report, facts, url, base, links)

        if screenshot_stem is not None:
            screenshot_stem.parent.mkdir(parents=True, exist_ok=True)
            shot = screenshot_stem.with_name(screenshot_stem.name + "-desktop.png")
            # the first screen: a full-page shot of a long page (the API page) costs more than all its checks together
            page.screenshot(path=str(shot))
            report.screenshots.append(shot)
        # dark mode, as the theme's switch sets it: figures must keep a white background
        page.evaluate(
            "() => { document.documentElement.dataset.theme = 'dark'; document.documentElement.dataset.mode = 'dark'; }"
        )
        report.dark_image_backgrounds = page.evaluate(
            """() => Array.from(document.querySelectorAll('.cell_output img, .output img'))
                 .map((img) => [img.getAttribute('src'), getComputedStyle(img).backgroundColor])
                 .filter(([src, bg]) => bg !== 'rgb(255, 255, 255)')
                 .map(([src, bg]) => `${src}: ${bg}`)"""
        )
        if screenshot_stem is not None:  # the first figure (if any) in view: that is what dark mode risks
            page.evaluate(
                "() => { const img = document.querySelector('.cell_output img');"
                "        if (img) img.scrollIntoView({block: 'center'}); }"
            )
            shot = screenshot_stem.with_name(screenshot_stem.name + "-desktop-dark.png")
            page.screenshot(path=str(shot), full_page=False)
            report.screenshots.append(shot)
        page.evaluate(
            "() => { document.documentElement.dataset.theme = 'light';"
            " document.documentElement.dataset.mode = 'light'; }"
        )
        # the modes, in the order the measures name them; the phone (where this checker looks for overflow) too
        modes: dict[tuple, tuple[dict, str]] = {}
        for measure in (measures or {}).values():
            for viewport, media in measure.modes.values():
                modes.setdefault((tuple(sorted(viewport.items())), media), (viewport, media))
        modes.setdefault((tuple(sorted(PHONE.items())), "screen"), MODE_PHONE)
        for viewport, media in modes.values():
            page.emulate_media(media=media)
            page.set_viewport_size(viewport)
            settle(page)  # the theme's responsive layout, and the light colours set back above
            for name, measure in (measures or {}).items():
                for mode, wanted in measure.modes.items():
                    if wanted == (viewport, media):
                        report.measures.setdefault(name, {})[mode] = page.evaluate(measure.script)
            if (viewport, media) == MODE_PHONE:
                _phone_checks(page, report, screenshot_stem)
    finally:
        page.close()
    return report


def _phone_checks(page, report: PageReport, screenshot_stem: Path | None) -> None:
    overflow = page.evaluate(_OVERFLOW_JS)
    if overflow["culprits"] or overflow["scrollWidth"] > overflow["width"] + 1:
        report.phone_overflow = (
            f"page is {overflow['scrollWidth']} px wide on a {overflow['width']} px phone; "
            f"widest elements: {'; '.join(overflow['culprits']) or 'not found'}"
        )
    if screenshot_stem is not None:
        shot = screenshot_stem.with_name(screenshot_stem.name + "-phone.png")
        page.screenshot(path=str(shot))
        report.screenshots.append(shot)


class PageVisits:
    """The one visit of each page of the book in a test run, made when a test first asks for it.

    ``store`` is a folder shared by the pytest-xdist workers of one run (``None`` without xdist): a visit is
    written there, under a lock per page, and a worker that asks for a page another one visited reads it.
    """

    def __init__(self, context, server: LocalServer, store: Path | None = None):
        self.context, self.server, self.store = context, server, store
        self.links = LinkChecker()
        self._reports: dict[str, PageReport] = {}
        if store is not None:
            store.mkdir(parents=True, exist_ok=True)

    def _visit(self, page: str) -> PageReport:
        stem = screenshot_dir() / page.replace("/", "__")
        return visit(self.context, f"{self.server.url}/{page}.html", self.server.url, self.links, stem, MEASURES)

    def get(self, page: str) -> PageReport:
        """The report of ``page`` (a document name such as ``chapters/auc`` or ``zh/chapters/auc``)."""
        if page in self._reports:
            return self._reports[page]
        if self.store is None:
            self._reports[page] = self._visit(page)
            return self._reports[page]
        slug = page.replace("/", "__")
        with (self.store / f"{slug}.lock").open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # another worker visiting this page: wait for its report
            saved = self.store / f"{slug}.pickle"
            if saved.is_file():
                report = pickle.loads(saved.read_bytes())
            else:
                report = self._visit(page)
                partial = saved.with_suffix(".part")
                partial.write_bytes(pickle.dumps(report))
                partial.replace(saved)
        self._reports[page] = report
        return report

    def reports(self) -> dict[str, PageReport]:
        """Every visit of this run so far, this worker's and (with a store) the other workers'."""
        found = dict(self._reports)
        if self.store is not None:
            for saved in sorted(self.store.glob("*.pickle")):
                page = saved.stem.replace("__", "/")
                if page not in found:
                    found[page] = pickle.loads(saved.read_bytes())
        return found


def _check_links(report: PageReport, facts: dict, page_url: str, base: str, links: LinkChecker) -> None:
    own_ids = set(facts["ids"])
    own_equations = {eq["id"]: eq["text"] for eq in facts["eqnos"] if eq["id"]}
    page_path = urllib.parse.urlsplit(page_url)._replace(query="", fragment="").geturl()
    for link in facts["links"]:
        href = link["href"]
        if not href.startswith(base):
            continue  # external links (repository, launch buttons, references) are not fetched offline
        target, _, fragment = href.partition("#")
        target = target.split("?")[0]
        fragment = urllib.parse.unquote(fragment)
        if target == page_path:
            if fragment and fragment not in own_ids:
                report.broken_links.append(f"{link['raw']!r} ({link['text']!r}): no element #{fragment} on this page")
            number = own_equations.get(fragment)
            if number and "headerlink" not in link["classes"] and link["text"] != number:
                report.bad_equation_refs.append(
                    f"{link['raw']!r} shows {link['text']!r} but the equation shows {number}"
                )
            continue
        status = links.status(target)
        if status != 200:
            report.broken_links.append(f"{link['raw']!r} ({link['text']!r}): HTTP {status}")
        elif fragment and fragment not in links.ids(target):
            report.broken_links.append(f"{link['raw']!r} ({link['text']!r}): no element #{fragment} on the target page")
        if fragment.startswith("equation-") and status == 200:
            # an equation reference must show the number of the equation it points at
            numbers = links.equation_number(target, fragment)
            if numbers is not None and link["text"] not in (numbers, f"({numbers})"):
                report.bad_equation_refs.append(
                    f"{link['raw']!r} shows {link['text']!r} but the target shows ({numbers})"
                )


def claimed_formulas(title: str) -> list[str]:
    """The formula numbers a page title claims: ``"(2.18)-(2.19) ROC"`` -> ``["2.18", "2.19"]``."""
    head = re.match(r"^\s*((?:\(\d+\.\d+\)\s*(?:[-–—,]|and|&)?\s*)+)", title)
    if not head:
        return []
    numbers: list[str] = []
    parts = re.findall(r"\((\d+)\.(\d+)\)|([-–—])", head.group(1))
    previous = None
    pending_range = False
    for chapter, number, dash in parts:
        if dash:
            pending_range = True
            continue
        current = (int(chapter), int(number))
        if pending_range and previous and previous[0] == current[0]:
            numbers.extend(f"{current[0]}.{n}" for n in range(previous[1] + 1, current[1] + 1))
        else:
            numbers.append(f"{current[0]}.{current[1]}")
        previous, pending_range = current, False
    return numbers
