"""What a reader meets around the pages: the menu, the downloads, search, and the landing page's tables.

* **One header, working menus.** The theme (sphinx-book-theme over pydata-sphinx-theme) draws two headers: the
  pydata header, which on a desktop holds a second search box, and the article header with the book's own
  navigation and contents buttons. pydata's script opens the sidebars from the *first* button of each kind on
  the page (``document.querySelector(".primary-toggle")``), which is the pydata header's; below 992 px the
  theme's style sheet hides that header's buttons, so the visible ones opened nothing. With no item in the
  pydata header (``navbar_persistent = []``) that header is not drawn at all: the visible buttons are the first
  ones, and the search box in the sidebar is the only one.
* **The PDF in the download menu.** The theme's ".pdf" item prints the current page from the browser; it is
  replaced by a link to the edition's PDF (``book/build_pdf.py`` writes it into the edition's site, next to
  its ``index.html``), and the landing page links the PDF at its top, and the reference's PDF (the API and the
  benchmarks, printed apart) under it. In the Chinese edition the notebook
  download says what it is: the English notebook, whose generated text is Chinese when it is run with
  ``MELEARN_LANGUAGE=zh_CN``.
* **Chinese search.** Sphinx splits Chinese text into words with jieba (pinned in the lock file). jieba does not
  know the book's terms (查准率, 留出法, 排序损失, ...), so it would index them as pieces a search never matches;
  the Chinese names of the glossary (``chapters/glossary.md``) are given to it as a user dictionary. Sphinx's
  Chinese indexer (7.4) keeps the Latin words it has met in a list shared by every instance and asks it
  ``word in terms`` for each word it stems, which grows quadratically with the book: :class:`ChineseSearch` asks
  a set. The one page printed to PDF has no search, so it builds no index.
* **Search results show math, not TeX.** Sphinx puts a page title's formula in the results as its TeX source
  (``\\(F_1\\)``); on the search page the results are typeset by the book's MathJax as they arrive. The script
  is given to every page (it does nothing where there are no results): added to the search page alone, from
  ``html-page-context``, it was not written into it (by then the page's list of scripts is the copy, each script
  once, that ``build_settings`` made of it).
"""

from __future__ import annotations

import re
import urllib.parse
from pathlib import Path

from docutils import nodes
from sphinx.transforms import SphinxTransform

GLOSSARY = "chapters/glossary.md"
SEARCH_WORDS_FILE = "search-words-zh.txt"  # written into the build's doctree folder
LANDING_TABLE_CLASS = "landing-table"
SOURCE_BUTTONS = ("download-source-button", "download-notebook-button")  # sphinx-book-theme's download items
# a run of CJK characters: the words of the glossary's "Chinese" column
_CJK_RUN = re.compile(r"[\u4e00-\u9fff]{2,}")

LABELS = {
    "en": {
        "pdf": "PDF (whole book)",
        "pdf_tip": "Download the whole book as a PDF (A4)",
        "landing": "The whole book as a PDF: ",
        "reference": "The API reference and the benchmarks, a PDF of their own: ",
    },
    "zh_CN": {
        "pdf": "PDF（全书）",
        "pdf_tip": "下载全书的 PDF（A4）",
        "landing": "全书 PDF：",
        "reference": "API 参考与基准测试（单独的 PDF）：",
        "original": "（英文原稿）",
        "source_tip": "本页的英文原稿（MyST Markdown）",
        "ipynb_tip": "本页的 Jupyter 笔记本（英文原稿）；以 MELEARN_LANGUAGE=zh_CN 运行，其输出与图为中文",
        "ipynb_note": (
            "每页右上角的下载菜单提供本页的 Jupyter 笔记本（英文原稿）。以 "
            "<code>MELEARN_LANGUAGE=zh_CN jupyter lab</code> 启动后运行，它打印和绘制的内容即为中文。"
        ),
    },
}

# typeset the search results with the book's MathJax as Sphinx adds them (titles hold TeX such as \(F_1\)); the
# results say when what they hold is typeset (data-typeset: "pending", then "done"), which the browser tests wait for
SEARCH_MATH_JS = """
document.addEventListener("DOMContentLoaded", () => {
  const results = document.getElementById("search-results");
  if (!results) return;
  let pending = null;
  const typeset = () => {
    pending = null;
    if (window.MathJax && MathJax.typesetPromise) {
      MathJax.startup.promise.then(() => MathJax.typesetPromise([results])).catch(() => {})
        .then(() => { if (!pending) results.dataset.typeset = "done"; });
    } else {
      results.dataset.typeset = "done";  // no MathJax: nothing more will change
    }
  };
  // a change counts when Sphinx makes it: MathJax's own (a formula put in, then its speech, added in a web worker
  // after typesetting) would call for typesetting again, for ever, and the results would never say "done"
  const bySphinx = (record) => !(record.target.closest && record.target.closest("mjx-container"))
    && Array.from(record.addedNodes).some((node) => !node.nodeName.startsWith("MJX-"));
  new MutationObserver((records) => {
    if (!records.some(bySphinx)) return;
    if (!pending) { results.dataset.typeset = "pending"; pending = setTimeout(typeset, 100); }
  }).observe(results, {childList: true, subtree: true});
});
"""


def edition_language(config) -> str:
    return "zh_CN" if (config.language or "en") == "zh_CN" else "en"


def pdf_name(language: str, volume: str = "book") -> str:
    """The PDF of ``language``'s edition, as ``book/build_pdf.py`` names it in ``_build/pdf`` and in the site: the
    book's chapters, or (``volume="reference"``) its API reference and benchmarks."""
    return f"melearn-{language}.pdf" if volume == "book" else f"melearn-{language}-{volume}.pdf"


def glossary_words(text: str) -> list[str]:
    """The Chinese terms of the glossary's table (its second column), sorted, each once.

    >>> glossary_words("| Term | Chinese |\\n|---|---|\\n| hold-out | 留出法 | |\\n| P-R curve | P-R曲线 |")
    ['留出法', '曲线']
    """
    words: set[str] = set()
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) >= 2:
            words.update(_CJK_RUN.findall(cells[1]))
    return sorted(words)


def _theme_and_search(app, config) -> None:
    options = dict(config.html_theme_options or {})
    options["navbar_persistent"] = []  # no pydata header: one search box, and the menu buttons that work
    config.html_theme_options = options
    if edition_language(config) != "zh_CN":
        return
    glossary = Path(app.srcdir) / GLOSSARY
    words = glossary_words(glossary.read_text(encoding="utf-8")) if glossary.is_file() else []
    if not words:
        return
    target = Path(app.doctreedir) / SEARCH_WORDS_FILE
    target.parent.mkdir(parents=True, exist_ok=True)
    # jieba's user dictionary: one word a line, with a frequency high enough to be kept whole
    target.write_text("".join(f"{word} 100000\n" for word in words), encoding="utf-8")
    search_options = dict(config.html_search_options or {})
    search_options["dict"] = str(target)
    config.html_search_options = search_options


class _Terms(set):
    """Latin words met by the Chinese indexer: a set, which it extends (as it would a list) and asks ``in``."""

    extend = set.update


def _chinese_search():
    """Sphinx's Chinese search language, with its Latin words kept per index and looked up in a set."""
    from sphinx.search.zh import SearchChinese

    class ChineseSearch(SearchChinese):
        def init(self, options: dict) -> None:
            super().init(options)
            self.latin_terms = _Terms()  # the class's list is shared by every index and never emptied

    return ChineseSearch


def _search_script(app) -> None:
    if app.builder.format == "html":
        app.add_js_file("", body=SEARCH_MATH_JS)


def _one_page_has_no_search(app) -> None:
    """The one-page book (printed to PDF) builds no search index."""
    if app.builder.name == "singlehtml":
        app.builder.search = False


class LandingTables(SphinxTransform):
    """Mark the tables of the root page, which ``book/static/melearn.css`` shows as cards on a phone.

    Each body cell gets its column's name in front of it (``span.card-label``, shown only in the card layout), so
    a card reads "Steps proved: 11 (0 by algebra)". It runs after Sphinx's translation (priority 20), so the names
    are those of the edition, and not for the message catalogues (the gettext builder), which must not see them.
    """

    default_priority = 500

    def apply(self, **kwargs) -> None:
        if self.env.docname != self.config.root_doc or self.app.builder.name == "gettext":
            return
        for table in self.document.findall(nodes.table):
            table["classes"].append(LANDING_TABLE_CLASS)
            heads = [
                [entry.astext().strip() for entry in row.findall(nodes.entry)]
                for head in table.findall(nodes.thead)
                for row in head.findall(nodes.row)
            ]
            if not heads:
                continue
            for body in table.findall(nodes.tbody):
                for row in list(body.findall(nodes.row)):
                    for name, entry in zip(heads[0], list(row.findall(nodes.entry)), strict=False):
                        entry.insert(0, nodes.inline(name, name, classes=["card-label"]))


def _download_menu(app, pagename, templatename, context, doctree) -> None:
    if app.builder.name != "html":
        return
    language = edition_language(app.config)
    labels = LABELS[language]
    pdf_url = context["pathto"](pdf_name(language), 1)
    for group in context.get("header_buttons", []):
        if group.get("label") != "download-buttons":
            continue
        for button in group.get("buttons", []):
            if button.get("label") == "download-pdf-button":
                button.clear()
                button.update(
                    type="link",
                    url=pdf_url,
                    text=labels["pdf"],
                    tooltip=labels["pdf_tip"],
                    icon="fas fa-file-pdf",
                    label="download-book-pdf-button",
                )
            elif button.get("label") in SOURCE_BUTTONS and language == "zh_CN":
                # the page's source is the English original; a notebook prints and draws in Chinese when run so
                suffix = Path(urllib.parse.urlsplit(button.get("url", "")).path).suffix
                notebook = suffix == ".ipynb"
                button.update(
                    text=f"{suffix}{labels['original']}",
                    tooltip=labels["ipynb_tip"] if notebook else labels["source_tip"],
                )
    if pagename == app.config.root_doc and "body" in context:
        note = f"<br>{labels['ipynb_note']}" if "ipynb_note" in labels else ""
        reference = pdf_name(language, "reference")
        context["body"] = (
            f'<p class="book-pdf">{labels["landing"]}<a class="reference external" href="{pdf_url}">'
            f"{pdf_name(language)}</a>{note}</p>\n"
            f'<p class="reference-pdf">{labels["reference"]}<a class="reference external" '
            f'href="{context["pathto"](reference, 1)}">{reference}</a></p>\n' + context["body"]
        )


def setup(app):
    app.connect("config-inited", _theme_and_search, priority=450)  # after build_settings (400), before the theme
    app.add_search_language(_chinese_search())
    app.connect("builder-inited", _one_page_has_no_search)
    app.connect("builder-inited", _search_script)
    app.add_transform(LandingTables)
    app.connect("html-page-context", _download_menu, priority=502)  # after sphinx-book-theme's buttons (501)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
