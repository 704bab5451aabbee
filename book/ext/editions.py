"""The book's two editions, English and Chinese (中文版), built from one source.

The Chinese edition is the same pages built with ``language: zh_CN`` (see ``book/build_edition.py``): Sphinx
replaces each paragraph, heading, formula and admonition by its translation from the catalogues in
``locale/zh_CN/LC_MESSAGES/`` (one ``.po`` file per page), and the pages are executed with
``MELEARN_LANGUAGE=zh_CN``, so that what the code prints and draws is in Chinese too (``melearn.i18n``).

For both editions, this extension sees to it that:

* **Outputs are not messages.** What a code cell printed or drew comes from executing the page in the edition's
  language, not from a catalogue, so every node inside a cell's output is marked untranslatable: the gettext
  builder does not extract it, and a translated build leaves it as executed.
* **Display formulas are translated as formulas.** Sphinx 7 re-parses a translated display formula as
  reStructuredText (``::`` and an indented block), which a MyST page does not read: the formula would show as
  ``::``. So the words in a display formula's ``\\text{...}`` are translated here, before Sphinx's own
  translation step, by replacing the formula's source with its translation from the page's catalogue.
* **Exercises are 习题**, as in the textbook (sphinx-exercise's own Chinese label is 练习), and their titles are
  messages like any heading; a solution is titled with its exercise's translated title.
* **Hidden code stays hidden in print.** In the one-page build that is printed (``book/build_pdf.py``), the
  source of a code cell hidden behind a button on the site (``hide-input``, ``hide-cell``) is left out, and its
  outputs are shown: the PDF prints what a reader reads. A hidden output (``hide-output``) is shown.
* **The one page printed is the same from one build to the next.** Sphinx 7.4 links a page's styles and scripts
  as ``_static/proof.css?v=8c6b312c``, the checksum of the file found in the output folder when the page is
  written. The one-page builder writes its page before it copies the static files (and sphinx-proof, MyST-NB and
  sphinx-exercise copy theirs after the build), so a first build linked them bare and every later build with the
  previous build's files: the page's bytes changed with nothing changed, and its PDF, printed again only when what
  it is printed from changed (``book/build_pdf.py``), was printed again for nothing. The one page links its files
  without the checksum; it is printed, never served to a browser's cache, and the files themselves are part of
  what the PDF's digest covers.
* **Each page links to itself in the other edition**, at the top of the page, with a relative address (the book
  reads offline). The English site is ``_build/html/``, the Chinese one ``_build/html/zh/``.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from docutils import nodes
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform

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


def page_catalogue(transform: SphinxTransform):
    """The translations of the page being read, or ``None`` in English or without a catalogue."""
    if not transform.config.language or transform.config.language == "en":
        return None
    from os import path

    from sphinx.locale import init as init_locale
    from sphinx.util.i18n import docname_to_domain

    domain = docname_to_domain(transform.env.docname, transform.config.gettext_compact)
    dirs = [path.join(transform.env.srcdir, directory) for directory in transform.config.locale_dirs]
    catalog, has_catalog = init_locale(dirs, transform.config.language, domain)
    return catalog if has_catalog else None


class TranslateTocCaptions(SphinxTransform):
    """Translate the part captions of the table of contents (``_toc.yml``), shown in every page's sidebar.

    sphinx-external-toc inserts the toctrees into the root page after Sphinx's translation step, so their
    captions (messages of the root page's catalogue) are translated here.
    """

    default_priority = 101  # just after sphinx_external_toc's InsertToctrees (100)

    def apply(self, **kwargs) -> None:
        from sphinx import addnodes

        catalog = page_catalogue(self)
        if catalog is None:
            return
        for toctree in self.document.findall(addnodes.toctree):
            caption = toctree.get("caption")
            if caption:
                toctree["caption"] = toctree["rawcaption"] = catalog.gettext(caption)


class TranslateDisplayFormulas(SphinxTransform):
    """Replace each display formula by its translation (see the module's description)."""

    default_priority = 19  # just before sphinx.transforms.i18n.Locale (20)

    def apply(self, **kwargs) -> None:
        catalog = page_catalogue(self)
        if catalog is None:
            return
        for node in list(self.document.findall(nodes.math_block)):
            if not node.get("translatable", True):
                continue  # a cell's output
            source = node.rawsource or node.astext()
            translated = catalog.gettext(source)
            if translated and translated != source:
                node.rawsource = translated
                node.children = [nodes.Text(translated)]
            node["translatable"] = False  # done: Sphinx's own step must not re-parse it


class HiddenCodeStaysHiddenInPrint(SphinxPostTransform):
    """In the one-page build for the PDF, leave out the source of a hidden code cell and show its outputs.

    Paper has no button to open a box: what the site shows only on demand is the code that computes a page, and
    the PDF prints what the site shows (MyST-NB's collapsible box also has no writer for the theme's one-page
    translator). An output hidden behind a button (``hide-output``) is printed open.
    """

    default_priority = 200  # after MyST-NB's HideInputCells (199), which wraps the hidden cells
    builders = ("singlehtml",)

    def run(self, **kwargs) -> None:
        from myst_nb.sphinx_ import HideCodeCellNode

        for node in list(self.document.findall(HideCodeCellNode)):
            shown = node.children
            if "above-input" in node["classes"]:  # hide-input or hide-cell: the cell's source is the hidden part
                shown = [child for child in node.children if child.get("nb_element") != "cell_code_source"]
            if shown:
                node.replace_self(shown)
            else:
                node.parent.remove(node)


class ExerciseTitlesAreMessages(SphinxTransform):
    """Make the title of each exercise (``:::{exercise} 2.5 Prove (2.22)``) a message, translated when read.

    sphinx-exercise builds it from the directive's argument without a source, so Sphinx would neither extract
    nor translate it.
    """

    default_priority = 5

    def apply(self, **kwargs) -> None:
        from sphinx_exercise.nodes import exercise_subtitle

        for node in self.document.findall(exercise_subtitle):
            node.source = node.source or self.document["source"]
            node.line = node.line or getattr(node.parent, "line", None) or 1
            node.rawsource = node.rawsource or node.astext()


class ExtractExerciseTitles(SphinxPostTransform):
    """For the gettext builder: keep each exercise title where the extraction finds it.

    sphinx-exercise merges the title into a plain heading after reading (a post-transform), which the gettext
    builder would see instead; a copy of the title as a message-only node is left beside it.
    """

    default_priority = 19  # before sphinx-exercise's ResolveTitlesInExercises (20)
    builders = ("gettext",)

    def run(self, **kwargs) -> None:
        from sphinx_exercise.nodes import exercise_subtitle

        for node in list(self.document.findall(exercise_subtitle)):
            if node.rawsource:
                copy = nodes.paragraph(node.rawsource, node.rawsource)
                copy.source, copy.line = node.source, node.line
                copy.uid = ""  # the builder adds only nodes with a uid (given at read time; this one is new)
                self.document.append(copy)  # where it stands does not matter: the gettext builder renders nothing


class SolutionTitlesAsTheirExercise(SphinxPostTransform):
    """Title each solution with its exercise's title as the page shows it (translated), not as first read.

    sphinx-exercise builds "Solution to Exercise (2.5 ...)" from the exercise node it registered before the
    page was translated, so in Chinese the solution kept the English title; the exercise on the same page has
    the translated one.
    """

    default_priority = 22  # after sphinx-exercise's ResolveTitlesInSolutions (21)

    def run(self, **kwargs) -> None:
        if not self.config.language or self.config.language == "en":
            return
        from sphinx_exercise.nodes import exercise_enumerable_node, exercise_node, solution_node

        titles = {}
        for kind in (exercise_node, exercise_enumerable_node):
            for exercise in self.document.findall(kind):
                if exercise.children and isinstance(exercise.children[0], nodes.title):
                    titles[exercise.get("label")] = exercise.children[0]
        for solution in self.document.findall(solution_node):
            title = titles.get(solution.get("target_label"))
            heading = solution.children[0] if solution.children else None
            reference = next(iter(heading.findall(nodes.reference)), None) if heading is not None else None
            if title is None or reference is None:
                continue
            reference.children = []
            reference += nodes.Text(" ")
            for child in title.children:
                # the node's own deepcopy copies it and what it holds; copy.deepcopy would follow the parent links
                # and copy the whole document once per child (in the one-page book, 100 s a build)
                reference += child.deepcopy()


def _textbook_exercise_label(app, config) -> None:
    """Call an exercise 习题, as the textbook does, not 练习 (sphinx-exercise's own Chinese word).

    ``locale/<language>/LC_MESSAGES/sphinx_exercise.po`` translates sphinx-exercise's messages; it is put in front
    of that extension's own catalogue.
    """
    language = config.language or "en"
    po = Path(app.srcdir) / "locale" / language / "LC_MESSAGES" / "sphinx_exercise.po"
    if language == "en" or not po.is_file():
        return
    import gettext
    import io

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from sphinx import locale

    with po.open("rb") as handle:
        catalogue = read_po(handle)
    buffer = io.BytesIO()
    write_mo(buffer, catalogue)
    buffer.seek(0)
    ours = gettext.GNUTranslations(buffer)
    key = ("general", "exercise")  # sphinx.locale keys a catalogue by (namespace, name)
    if key in locale.translators:
        ours.add_fallback(locale.translators[key])
    locale.translators[key] = ours


def _chinese_search_box(app, config) -> None:
    """The search box's placeholder in the edition's language (Jupyter Book sets an English one)."""
    if (config.language or "en") == "zh_CN":
        config.html_theme_options = {**(config.html_theme_options or {}), "search_bar_text": "搜索本书……"}


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


ASSET_CHECKSUM = re.compile(r'\?v=[0-9a-f]{8}(?=")')  # Sphinx's cache-busting query, at the end of a src or href


def _one_page_links_files_without_checksums(app, pagename, templatename, context, doctree) -> None:
    """In the one-page build, link the styles and scripts as ``_static/proof.css`` (see the module docstring)."""
    if app.builder.name != "singlehtml":
        return
    for tag in ("css_tag", "js_tag"):  # set by Sphinx for every page before this event
        context[tag] = functools.partial(_without_checksum, context[tag])


def _without_checksum(tag, asset) -> str:
    """The HTML of ``tag(asset)`` without Sphinx's ``?v=`` checksum (``tests/book/test_build_config.py``)."""
    return ASSET_CHECKSUM.sub("", tag(asset))


def _one_page_writes_every_html_node(app) -> None:
    """Give the one-page builder every node writer registered for HTML.

    Sphinx looks up node writers by builder name and falls back to the format (``html``) only when no extension
    registered a writer for ``singlehtml`` itself; one does, so the writers of MyST-NB, sphinx-proof and the
    others would be missing from the one-page build. Merge them, the ``singlehtml`` ones taking precedence.
    """
    handlers = app.registry.translation_handlers
    if app.builder.name == "singlehtml" and "singlehtml" in handlers:
        handlers["singlehtml"] = {**handlers.get("html", {}), **handlers["singlehtml"]}


def setup(app):
    app.add_transform(OutputsAreNotMessages)
    app.connect("config-inited", _textbook_exercise_label, priority=400)  # before sphinx-exercise's numfig format
    app.connect("config-inited", _chinese_search_box)
    app.add_transform(TranslateDisplayFormulas)
    app.add_transform(TranslateTocCaptions)
    app.add_transform(ExerciseTitlesAreMessages)
    app.add_post_transform(ExtractExerciseTitles)
    app.add_post_transform(HiddenCodeStaysHiddenInPrint)
    app.add_post_transform(SolutionTitlesAsTheirExercise)
    app.connect("html-page-context", _add_switch)
    app.connect("html-page-context", _one_page_links_files_without_checksums)
    app.connect("builder-inited", _one_page_writes_every_html_node)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
