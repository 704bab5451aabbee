"""What a reader who does not see the page, or does not use a mouse, gets: figures in words, formulas read aloud.

* **Every figure described.** A figure drawn by ``melearn.plotting`` carries its own words in the notebook: the
  PNG output's metadata ``{"alt": ..., "description": ...}`` (``melearn/plotting/description.py``, generated from
  the plotted data, in the language the page was executed in). MyST-NB renders a PNG output with an ``alt``
  taken from the cell's options only, so its image renderer is wrapped here: the image gets the output's ``alt``,
  and a figure with a long description gets a closed ``<details>`` box under it ("Description of the figure").
  A figure with no alt text is a warning, which fails the strict build: a screen reader would read the PNG's
  file name.
* **The ✓ of a chain is read "checked".** A chain's tick is the character ✓ with a tooltip; a screen reader
  reads "check mark", or nothing. It is given ``role="img"`` and the tooltip as its ``aria-label`` ("checked",
  in Chinese 已检验).
* **Formulas in the Chinese edition.** MathJax's speech rules exist for English and several European languages,
  not Chinese: the English edition reads its formulas with MathJax's English speech and shows them in Nemeth
  Braille (``_config.yml``); the Chinese edition turns MathJax's speech and Braille off, so that a screen reader
  gets the hidden MathML MathJax puts beside every formula (which NVDA with MathCAT, JAWS and VoiceOver read
  in their own language) instead of English words read with a Chinese voice. The figures' alt texts and
  descriptions, and the ✓, are Chinese.
* **Formulas out of the tab order.** ``_config.yml`` sets MathJax's ``inTabOrder`` off: a keyboard reader moves
  through a page by its links and controls (the rank-loss page had 337 formulas among 506 tab stops). A part of a
  derivation too wide for its column, which scrolls sideways, is a tab stop while it overflows (a keyboard must be
  able to scroll it; :data:`SCROLL_STOPS_JS`).
* **A way to report a mistake.** With ``MELEARN_REPOSITORY_URL`` set (``book/ext/build_settings.py``), a "report a
  problem" link beside each numbered formula and before each derivation chain opens a new issue naming the
  formula (or the page's derivation), the page, the edition and the book's version; without it, no link.
* **The version and build date** on the landing page (``#book-version``): ``melearn.__version__`` and the day of
  ``SOURCE_DATE_EPOCH``, else of the last commit.
"""

from __future__ import annotations

import datetime
import functools
import html
import json
import os
import re
import subprocess
import urllib.parse
from pathlib import Path

from sphinx.util import logging

logger = logging.getLogger(__name__)

DESCRIPTION_CLASS = "figure-description"
LABELS = {
    "en": {
        "description": "Description of the figure",
        "edition": "English edition",
        "report": "Report a problem",
        "report_formula": "Report a problem with formula ({number})",
        "report_chain": "Report a problem with derivation {k} of this page",
        "version": "Version {version}, built {date}",
        "scroll": "formula, scrolls sideways",
        "scroll_output": "output, scrolls sideways",
    },
    "zh_CN": {
        "description": "图的文字描述",
        "edition": "中文版",
        "report": "报告问题",
        "report_formula": "报告公式 ({number}) 的问题",
        "report_chain": "报告本页第 {k} 个推导的问题",
        "version": "版本 {version}，构建于 {date}",
        "scroll": "公式，可左右滚动",
        "scroll_output": "输出，可左右滚动",
    },
}
REPORT_CLASS = "report-problem"
VERSION_ID = "book-version"  # the landing page's line with the version and build date (the PDF's cover shows it)
# a numbered formula as Sphinx writes it: <div class="math ..." id="equation-eq-2-20"><span class="eqno">(2.20)<a
_EQNO = re.compile(r'(<span class="eqno">\((?P<number>\d+\.\d+)\)<a class="headerlink"[^>]*>[^<]*</a>)')
_CHAIN = re.compile(r'<div class="melearn-chain ')
# the tick of a chain as melearn.derivation.render writes it: <span class="chain-tick" title="checked">✓</span>
_TICK = re.compile(r'<span class="chain-tick" title="([^"]*)">\u2713</span>')


def edition(config) -> str:
    return "zh_CN" if (config.language or "en") == "zh_CN" else "en"


def tick_html(body: str) -> str:
    """``body`` with each chain tick given ``role="img"`` and its tooltip as ``aria-label``.

    >>> tick_html('<span class="chain-tick" title="checked">\u2713</span>')
    '<span class="chain-tick" role="img" aria-label="checked" title="checked">\u2713</span>'
    """
    return _TICK.sub(
        lambda m: f'<span class="chain-tick" role="img" aria-label="{m[1]}" title="{m[1]}">\u2713</span>', body
    )


def description_html(text: str, summary: str) -> str:
    """The closed box holding a figure's long description (one paragraph per line of ``text``)."""
    paragraphs = "".join(f"<p>{html.escape(line)}</p>" for line in text.splitlines() if line.strip())
    return (
        f'<details class="{DESCRIPTION_CLASS}"><summary>{html.escape(summary)}</summary>'
        f'<div class="{DESCRIPTION_CLASS}-text">{paragraphs}</div></details>'
    )


def _wrap_render_image() -> None:
    """Give MyST-NB's images the alt text and description stored with them (once per process)."""
    from docutils import nodes
    from myst_nb.core.render import NbElementRenderer

    original = NbElementRenderer.render_image
    if getattr(original, "_book_described", False):
        return

    @functools.wraps(original)
    def render_image(self, data):
        rendered = original(self, data)
        words = data.output_metadata.get(data.mime_type, {}) if isinstance(data.output_metadata, dict) else {}
        alt = str(words.get("alt", "")).strip() if isinstance(words, dict) else ""
        images = [node for node in rendered if isinstance(node, nodes.image)]
        if not alt:
            if images and not all(image.get("alt") for image in images):
                self.logger.warning(
                    "a figure has no alt text: draw it with melearn.plotting.subplots (which describes it) "
                    "or give the output an alt in its metadata",
                    subtype="image",
                    line=data.line,
                )
            return rendered
        for image in images:
            image["alt"] = alt
        description = str(words.get("description", "")).strip()
        if description:
            language = edition(self.renderer.sphinx_env.config) if hasattr(self.renderer, "sphinx_env") else "en"
            box = description_html(description, LABELS[language]["description"])
            rendered = [*rendered, nodes.raw("", box, format="html")]
        return rendered

    render_image._book_described = True
    NbElementRenderer.render_image = render_image


def _chinese_formulas(app, config) -> None:
    """In the Chinese edition, no English speech or Braille: the hidden MathML (see the module's description)."""
    if edition(config) == "zh_CN":
        _without_speech(config)


def _printed_formulas(app) -> None:
    """In the one page the PDF is printed from (``singlehtml``), no speech or Braille: paper carries neither, and
    enriching every formula of the whole book for speech kept MathJax's startup from ending within the printing's
    wait (5 minutes)."""
    if app.builder.name == "singlehtml":
        _without_speech(app.config)


def _without_speech(config) -> None:
    """MathJax's menu settings with speech and Braille off, the assistive MathML kept."""
    mathjax = dict(config.mathjax3_config or {})
    options = dict(mathjax.get("options") or {})
    menu = dict(options.get("menuOptions") or {})
    settings = dict(menu.get("settings") or {})
    settings.update(speech=False, braille=False, assistiveMml=True)
    menu["settings"] = settings
    options["menuOptions"] = menu
    mathjax["options"] = options
    config.mathjax3_config = mathjax


def book_version() -> str:
    """``melearn.__version__``, read from the package's source (the build does not import the library)."""
    source = (Path(__file__).resolve().parents[2] / "melearn" / "__init__.py").read_text(encoding="utf-8")
    match = re.search(r'^__version__ = "([^"]+)"', source, re.M)
    if match is None:
        raise RuntimeError("melearn/__init__.py has no __version__")
    return match[1]


def build_date() -> str:
    """The day the book was built, as ``YYYY-MM-DD``: ``SOURCE_DATE_EPOCH`` if set, else the last commit's day.

    Reproducible: two builds of one commit say the same date (without git, today's date in UTC).
    """
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch:
        return datetime.datetime.fromtimestamp(int(epoch), datetime.UTC).date().isoformat()
    try:
        day = subprocess.run(
            ["git", "log", "-1", "--format=%cd", "--date=format-local:%Y-%m-%d"],
            cwd=Path(__file__).resolve().parents[2],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "TZ": "UTC"},
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        day = ""
    return day or datetime.datetime.now(datetime.UTC).date().isoformat()


def issue_url(repository: str, title: str, body: str) -> str:
    """The address that opens a new issue of ``repository`` (GitHub or GitLab) with its title and text filled in.

    >>> issue_url("https://github.com/o/n", "a b", "c")
    'https://github.com/o/n/issues/new?title=a%20b&body=c'
    >>> issue_url("https://gitlab.com/o/n", "a", "c")
    'https://gitlab.com/o/n/-/issues/new?issue%5Btitle%5D=a&issue%5Bdescription%5D=c'
    """
    repository = repository.rstrip("/")
    if "gitlab.com" in repository:
        query = {"issue[title]": title, "issue[description]": body}
        return f"{repository}/-/issues/new?{urllib.parse.urlencode(query, quote_via=urllib.parse.quote)}"
    query = {"title": title, "body": body}
    return f"{repository}/issues/new?{urllib.parse.urlencode(query, quote_via=urllib.parse.quote)}"


def report_links(body: str, *, repository: str, page: str, title: str, language: str, version: str) -> str:
    """``body`` with a "report a problem" link beside each numbered formula and before each derivation chain."""
    labels = LABELS[language]
    edition_name = LABELS[language]["edition"]

    def issue(what: str) -> str:
        text = (
            f"What is wrong, and what should it say?\n\n\n---\nWhere: {what}\nPage: {page} ({title})\n"
            f"Edition: {edition_name}\nVersion: {version}\n"
        )
        return issue_url(repository, f"{what} on {page}", text)

    def link(what: str, label: str) -> str:
        return (
            f'<a class="{REPORT_CLASS}" href="{html.escape(issue(what))}" aria-label="{html.escape(label)}" '
            f'title="{html.escape(label)}" target="_blank" rel="noopener">{html.escape(labels["report"])}</a>'
        )

    body = _EQNO.sub(
        lambda m: m[1] + link(f"formula ({m['number']})", labels["report_formula"].format(number=m["number"])), body
    )
    count = iter(range(1, 100000))

    def chain(match: re.Match) -> str:
        k = next(count)
        label = labels["report_chain"].format(k=k)
        return f'<div class="chain-report">{link(f"derivation {k}", label)}</div>{match[0]}'

    return _CHAIN.sub(chain, body)


# A part of a derivation wider than its column scrolls sideways in its own box (book/static/chains.css). Its formula is
# not a tab stop (the formulas are out of the tab order), so a keyboard could not scroll it: such a box, while it
# overflows, is a tab stop itself, a region named for what it is. Checked after MathJax typeset the page and
# again whenever the box changes size (a phone turned, a window narrowed). Any overflow counts, as it does for
# axe-core's scrollable-region check (a 13 px allowance left a chain's long left side scrolling with no stop).
SCROLL_STOPS_JS = """
document.addEventListener("DOMContentLoaded", () => {
  const FORMULAS = ".melearn-chain .chain-lhs, .melearn-chain .chain-expr, .melearn-rules .rule-statement";
  // an HTML output (a table, a ledger) scrolls when it is wider than a phone's column, and in dark mode sooner:
  // the theme draws it on a card with padding
  const OUTPUTS = ".cell_output .output.text_html";
  // a display formula wider than a phone's column scrolls in its own box: a stop too, named by MathJax's speech
  const DISPLAYS = ".bd-article mjx-container[display='true']";
  const SELECTOR = FORMULAS + ", " + OUTPUTS + ", " + DISPLAYS;
  const LABELS = %s;
  const mark = (box) => {
    const style = getComputedStyle(box);
    const scrolls = /(auto|scroll)/.test(style.overflowX + " " + style.overflowY)
      && (box.scrollWidth > box.clientWidth || box.scrollHeight > box.clientHeight);
    // (the theme gives an output tabindex -1 when it does not scroll, and 0 when it does, but only as the window
    // is resized: a box out of the tab order is marked too)
    if (scrolls && box.tabIndex < 0) {
      box.tabIndex = 0;
      box.dataset.scrollStop = "";
      if (!box.matches(DISPLAYS)) {
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", box.matches(OUTPUTS) ? LABELS.output : LABELS.formula);
      }
    } else if (!scrolls && "scrollStop" in box.dataset) {
      box.tabIndex = -1;
      delete box.dataset.scrollStop;
      if (!box.matches(DISPLAYS)) {
        box.removeAttribute("role");
        box.removeAttribute("aria-label");
      }
    }
  };
  const observer = new ResizeObserver((entries) => entries.forEach((entry) => mark(entry.target)));
  // the book breaks display formulas again when the column changes width (book/static/math-reflow.js): a box's
  // content can then outgrow the box without the box changing size, which the observer would not see; so can a
  // switch between light and dark mode
  const again = () => document.querySelectorAll(SELECTOR).forEach(mark);
  const start = () => {
    document.querySelectorAll(SELECTOR).forEach((box) => { mark(box); observer.observe(box); });
    if (window.melearnMathSettled) window.melearnMathSettled().then(again, again);
    new MutationObserver(() => requestAnimationFrame(again))
      .observe(document.documentElement, {attributes: true, attributeFilter: ["data-theme"]});
    // a formula broken again for a new column is drawn in new elements: marked and observed afresh
    document.addEventListener("melearn-math-reflowed", () => requestAnimationFrame(() =>
      document.querySelectorAll(SELECTOR).forEach((box) => { mark(box); observer.observe(box); })));
  };
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) MathJax.startup.promise.then(start, start);
  else start();
});
"""


def _page(app, pagename, templatename, context, doctree) -> None:
    if "body" not in context:
        return

    language = edition(app.config)
    body = tick_html(context["body"])
    # docutils marks the bibliography's entries as a list (role="list") whose items are doc-biblioentry entries,
    # which ARIA does not allow in a list (axe: aria-required-children, critical); the entries keep their own role
    body = body.replace('<div role="list" class="citation-list">', '<div class="citation-list">')
    repository = (app.config.html_theme_options or {}).get("repository_url", "")
    if repository:
        title = re.sub(r"<[^>]+>", "", context.get("title", "")) or pagename
        body = report_links(
            body,
            repository=repository,
            page=pagename,
            title=html.unescape(title),
            language=language,
            version=book_version(),
        )
    if pagename == app.config.root_doc:
        line = LABELS[language]["version"].format(version=book_version(), date=build_date())
        body = f'<p class="{VERSION_ID}" id="{VERSION_ID}">{html.escape(line)}</p>\n' + body
    context["body"] = body


def _scripts(app) -> None:
    if app.builder.format == "html":
        labels = LABELS[edition(app.config)]
        stops = {"formula": labels["scroll"], "output": labels["scroll_output"]}
        app.add_js_file("", body=SCROLL_STOPS_JS % json.dumps(stops))


def setup(app):
    _wrap_render_image()
    app.connect("config-inited", _chinese_formulas)
    app.connect("builder-inited", _printed_formulas)
    app.connect("builder-inited", _scripts)
    app.connect("html-page-context", _page, priority=600)  # after the reader's landing line (502)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
