"""The Chinese edition's own labels are Chinese: the tooltips and screen-reader labels of the theme's buttons, menus
and landmarks, read from the built HTML of every page outside its article (the article is the page's text, checked
by the catalogues).

sphinx-book-theme writes a few of these as plain English in its templates; ``book/templates/`` makes them
translatable and ``locale/zh_CN/LC_MESSAGES/sphinx.po`` translates them.
"""

from __future__ import annotations

import html.parser
import re

import pytest

from .bookcheck import CHINESE, html_dir, skip_or_fail, toc_pages

pytestmark = pytest.mark.browser

LABELS = ("title", "aria-label", "placeholder", "data-tooltip")
# what stays as it is in Chinese: names of software, file formats and keys, and a setting written as code
KEPT = re.compile(r"\b(?:PDF|ipynb|md|MathJax|MyST|Markdown|GitHub|Jupyter|Ctrl|Cmd|K|melearn)\b|\b[A-Z_]+=[A-Za-z_]+")
ENGLISH = re.compile(r"(?=[A-Za-z]*[a-z])[A-Za-z]{2,}")  # a word; acronyms (ROC, AUC) are Chinese usage too


class _Labels(html.parser.HTMLParser):
    """The label attributes of every element outside ``<article>`` (and outside the print-only table of contents)."""

    def __init__(self):
        super().__init__()
        self.depth = 0  # inside <article> or the print-only block when > 0
        self.stack: list[bool] = []
        self.found: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        skipped = tag == "article" or attributes.get("id") in {"print-main-content", "jb-print-toc"}
        if tag not in {"meta", "link", "img", "input", "br", "hr", "source", "wbr"}:
            self.stack.append(skipped)
            self.depth += skipped
        if self.depth or tag == "link":  # a <link>'s title is a page's title: translated by the catalogues
            return
        for name in LABELS:
            value = attributes.get(name)
            if value:
                self.found.append((tag, name, value))

    def handle_endtag(self, tag):
        if tag not in {"meta", "link", "img", "input", "br", "hr", "source", "wbr"} and self.stack:
            self.depth -= self.stack.pop()


def english_labels(text: str) -> list[str]:
    """The labels of a page that still hold English words.

    >>> english_labels('<button title="Toggle primary sidebar"></button><article title="Anything"></article>')
    ['button title="Toggle primary sidebar"']
    >>> english_labels('<a title="下载 PDF"></a><nav aria-label="全书目录"></nav>')
    []
    """
    parser = _Labels()
    parser.feed(text)
    return [f'{tag} {name}="{value}"' for tag, name, value in parser.found if ENGLISH.search(KEPT.sub("", value))]


@pytest.mark.parametrize("page", toc_pages())
def test_the_chinese_edition_labels_its_buttons_and_menus_in_chinese(page):
    path = html_dir() / CHINESE / f"{page}.html"
    if not path.is_file():
        skip_or_fail(f"no Chinese edition in {html_dir() / CHINESE}: run `make book` first")
    english = sorted(set(english_labels(path.read_text(encoding="utf-8"))))
    assert not english, f"{page}: labels left in English in the Chinese edition:\n  " + "\n  ".join(english)
