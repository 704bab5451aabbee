"""The book's two editions, English and Chinese (中文版), built from one source.

The Chinese edition is the same pages built with ``language: zh_CN`` (see ``tools/build_edition.py``): Sphinx
replaces each paragraph, heading, formula and admonition by its translation from the catalogues in
``locale/zh_CN/LC_MESSAGES/`` (one ``.po`` file per page), and the pages are executed with
``MELEARN_LANGUAGE=zh_CN``, so that what the code prints and draws is in Chinese too (``melearn.i18n``).

This extension does two things for both editions:

* **Outputs are not messages.** What a code cell printed or drew comes from executing the page in the edition's
  language, not from a catalogue, so every node inside a cell's output is marked untranslatable: the gettext
  builder does not extract it, and a translated build leaves it as executed.
* **Each page links to itself in the other edition**, at the top of the page, with a relative address (the book
  reads offline). The English site is ``_build/html/``, the Chinese one ``_build/html/zh/``.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.transforms import SphinxTransform

CHINESE_DIR = "zh"  # the Chinese edition, relative to the English site's root
SWITCH_LABEL = {"en": "中文版", "zh_CN": "English edition"}


class OutputsAreNotMessages(SphinxTransform):
    """Mark every text node inside a code cell's output untranslatable (before Sphinx's i18n transform)."""

    default_priority = 5  # sphinx.transforms.i18n.Locale runs at 20

    def apply(self, **kwargs) -> None:
        for container in self.document.findall(nodes.container):
            if "cell_output" not in container.get("classes", []):
                continue
            for node in container.findall(nodes.Element):
                node["translatable"] = False


def edition_link(pagename: str, language: str) -> str:
    """The relative address of ``pagename`` in the other edition, seen from the page itself.

    >>> edition_link("chapters/auc", "en")
    '../zh/chapters/auc.html'
    >>> edition_link("chapters/auc", "zh_CN")
    '../../chapters/auc.html'
    """
    up = "../" * pagename.count("/")
    if language == "zh_CN":
        return f"{up}../{pagename}.html"
    return f"{up}{CHINESE_DIR}/{pagename}.html"


def _add_switch(app, pagename, templatename, context, doctree) -> None:
    if app.builder.name != "html" or doctree is None or "body" not in context:
        return  # the PDF (singlehtml) is one edition on its own
    language = app.config.language or "en"
    label = SWITCH_LABEL.get(language, SWITCH_LABEL["en"])
    lang_attr = "en" if language == "zh_CN" else "zh-CN"
    link = (
        f'<p class="edition-switch"><a class="reference external" href="{edition_link(pagename, language)}" '
        f'hreflang="{lang_attr}" lang="{lang_attr}">{label}</a></p>\n'
    )
    context["body"] = link + context["body"]


def setup(app):
    app.add_transform(OutputsAreNotMessages)
    app.connect("html-page-context", _add_switch)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
