"""Collect the text the pages generate (printed lines, derivation reasons, rule names, figure labels) for translation.

    python -m book.output_catalogues collect            # every page of the book
    python -m book.output_catalogues collect chapters/auc.ipynb

The pages' prose is translated by Sphinx (``book/catalogues.py``); what their code prints and draws is
translated by ``melearn.i18n`` when the Chinese edition executes them. This tool executes each page (in its own
folder, a fresh kernel) with ``MELEARN_LANGUAGE=zh_CN`` and records every text that has no translation yet, then
adds it, untranslated, to a catalogue:

* ``melearn/locale/zh_CN/melearn.po`` if the text comes from the library (it occurs in ``melearn/``'s source);
* ``locale/zh_CN/outputs/<page>.po`` otherwise, for the first page (in the book's order) that generates it.

A text with numbers is recorded by its number skeleton (``AUC = {0}``), which one translation serves whatever the
numbers. Existing translations are kept. ``book/catalogues.py check`` then lists what is left to translate.

Text that a page shows without passing it through ``melearn.i18n`` (the headers and cells of a pandas table, say)
is never recorded as missing. :func:`site_problems` reads what the built Chinese site shows instead: every table
cell of a page's outputs must be Chinese, carry no word, or be a text the catalogues translate as itself (``TP``),
and no output may put half-width punctuation in Chinese text. ``book/build_edition.py`` fails the Chinese build
on what it finds.
"""

from __future__ import annotations

import argparse
import html.parser
import json
import os
import re
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from melearn.i18n import CATALOGUES_ENV, LANGUAGE_ENV, MISSING_ENV, needs_translation, read_po, skeleton

ROOT = Path(__file__).resolve().parent.parent

LANGUAGE = "zh_CN"
PAGE_CATALOGUES = ROOT / "locale" / LANGUAGE / "outputs"
LIBRARY_CATALOGUE = ROOT / "melearn" / "locale" / LANGUAGE / "melearn.po"


def book_pages() -> list[Path]:
    """The notebooks of the book, in the order of ``_toc.yml``."""
    import yaml

    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    files = [toc["root"]] + [c["file"] for part in toc.get("parts", []) for c in part.get("chapters", [])]
    return [ROOT / f"{name}.ipynb" for name in files if (ROOT / f"{name}.ipynb").exists()]


def missing_texts(page: Path, source_root: Path = ROOT) -> list[str]:
    """Execute ``page`` in Chinese; return the texts it generated that have no translation (skeletons), in order."""
    import nbformat
    from nbclient import NotebookClient

    with tempfile.NamedTemporaryFile("r", suffix=".jsonl", delete=False) as handle:
        record = Path(handle.name)
    nb = nbformat.read(page, as_version=4)
    client = NotebookClient(nb, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(page.parent)}})
    env = {**os.environ, LANGUAGE_ENV: LANGUAGE, MISSING_ENV: str(record), CATALOGUES_ENV: str(PAGE_CATALOGUES)}
    if source_root != ROOT:  # pages and melearn of another checkout (e.g. a clean worktree of a commit)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(source_root), env.get("PYTHONPATH", "")]))
    client.execute(env=env)  # the kernel's environment: this page's record file
    seen: dict[str, None] = {}
    for line in record.read_text(encoding="utf-8").splitlines():
        seen.setdefault(json.loads(line)["skeleton"], None)
    record.unlink()
    return list(seen)


def _library_source() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "melearn").rglob("*.py")))


def _from_library(message: str, source: str) -> bool:
    """Whether the longest literal part of ``message`` (between placeholders) occurs in the library's source."""
    import re

    longest = max(re.split(r"\{\w*\}", message), key=len).strip()
    return len(longest) >= 4 and longest in source


def _add_untranslated(path: Path, messages: list[str]) -> int:
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    if path.exists():
        with path.open("rb") as handle:
            catalogue = read_po(handle)
    else:
        catalogue = Catalog(locale=LANGUAGE, project="melearn", charset="utf-8")
    added = 0
    for message in messages:
        if message not in catalogue:
            catalogue.add(message, "")
            added += 1
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        write_po(handle, catalogue, width=76, omit_header=False)
    return added


def collect(pages: list[Path], source_root: Path = ROOT) -> int:
    """Execute the pages in Chinese (two at a time) and file every untranslated text; print what was added."""
    # messages only: the collection itself must not depend on the order in which pages finish
    with ProcessPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(missing_texts, pages, [source_root] * len(pages)))
    source = _library_source()
    placed: set[str] = set()
    library: list[str] = []
    for page, messages in zip(pages, results, strict=True):
        own = []
        for message in messages:
            if message in placed:
                continue
            placed.add(message)
            (library if _from_library(message, source) else own).append(message)
        if own:
            name = page.relative_to(source_root).with_suffix(".po")
            added = _add_untranslated(PAGE_CATALOGUES / name.relative_to("chapters"), own)
            print(f"{name}: {added} new messages")
    if library:
        print(f"{LIBRARY_CATALOGUE.relative_to(ROOT)}: {_add_untranslated(LIBRARY_CATALOGUE, library)} new messages")
    return 0


class _Outputs(html.parser.HTMLParser):
    """The text a built page shows in its cell outputs: each table cell apart, and all of it, without formulas."""

    _SKIPPED = ("script", "style")
    _VOID = ("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr")

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.depth = 0  # inside a cell output: the depth of elements below its container
        self.hidden = 0  # inside a formula, a script or a style
        self.stack: list[bool] = []
        self.cell: list[str] | None = None
        self.cells: list[str] = []
        self.texts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in self._VOID:
            return  # no end tag follows
        classes = (dict(attrs).get("class") or "").split()
        if self.depth:
            self.depth += 1
        elif "cell_output" in classes:
            self.depth, self.texts = 1, [*self.texts, ""]
        if not self.depth:
            return
        hides = tag in self._SKIPPED or "math" in classes
        self.stack.append(hides)
        self.hidden += hides
        if tag in ("th", "td") and not self.hidden:
            self.cell = []

    def handle_endtag(self, tag):
        if not self.depth or tag in self._VOID:
            return
        if tag in ("th", "td") and self.cell is not None:
            self.cells.append(" ".join("".join(self.cell).split()))
            self.cell = None
        self.hidden -= self.stack.pop() if self.stack else False
        self.depth -= 1

    def handle_data(self, data):
        if self.depth and not self.hidden:
            self.texts[-1] += data
            if self.cell is not None:
                self.cell.append(data)


def output_text(page: str) -> tuple[list[str], list[str]]:
    """The table cells and the whole text of each cell output of a built page (formulas left out)."""
    parser = _Outputs()
    parser.feed(page)
    return parser.cells, parser.texts


def translated_as_itself(text: str, catalogue: dict[str, str]) -> bool:
    """Whether the catalogues translate ``text`` (or its number skeleton) as itself: a name or a symbol (``TP``)."""
    shape, _ = skeleton(text)
    return catalogue.get(text) == text or catalogue.get(shape) == shape


def page_problems(page: str, catalogue: dict[str, str]) -> list[str]:
    """What a built Chinese page shows in English or with half-width punctuation in its cell outputs."""
    from .catalogues import half_width_punctuation

    cells, texts = output_text(page)
    found = [
        f"a table cell in English: {cell!r}"
        for cell in dict.fromkeys(cells)
        if needs_translation(cell) and not re.search("[\u3400-\u9fff]", cell)
        if not translated_as_itself(cell, catalogue)
    ]
    for text in texts:
        found += [f"half-width punctuation in Chinese: {mark!r}" for mark in half_width_punctuation(text)]
    return list(dict.fromkeys(found))


def output_catalogue(language: str = LANGUAGE) -> dict[str, str]:
    """Every translation of generated text: melearn's catalogue and the pages' output catalogues."""
    catalogue: dict[str, str] = {}
    for path in [LIBRARY_CATALOGUE, *sorted((ROOT / "locale" / language / "outputs").rglob("*.po"))]:
        catalogue.update(read_po(path))
    return catalogue


def site_problems(site: Path, language: str = LANGUAGE) -> list[str]:
    """The problems of :func:`page_problems` on every page of a built edition, each with its page."""
    catalogue = output_catalogue(language)
    return [
        f"{page.relative_to(site).as_posix()}: {problem}"
        for page in sorted((site / "chapters").rglob("*.html"))
        for problem in page_problems(page.read_text(encoding="utf-8"), catalogue)
    ]


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=("collect",))
    parser.add_argument("pages", nargs="*", type=Path, help="notebooks (default: every page of the book)")
    parser.add_argument("--source-root", type=Path, default=ROOT, help="checkout whose pages and melearn to run")
    args = parser.parse_args(argv)
    root = args.source_root.resolve()
    pages = [p.resolve() for p in args.pages] or [root / p.relative_to(ROOT) for p in book_pages()]
    return collect(pages, root)


if __name__ == "__main__":
    sys.exit(main())
