"""Print one edition of the book to PDF with Chromium: ``_build/pdf/melearn-en.pdf`` or ``melearn-zh_CN.pdf``, the
chapters, and ``melearn-en-reference.pdf`` or ``melearn-zh_CN-reference.pdf``, the API reference and the benchmarks.

    python -m book.build_pdf en          # the English book (stored outputs)
    python -m book.build_pdf zh_CN       # the Chinese book (pages executed in Chinese, or taken from the cache)

This is Jupyter Book 1's ``pdfhtml`` route, done with the Chromium the browser tests use: the edition is built
as one HTML page (Sphinx's ``singlehtml`` builder, strictly, through ``book/build_edition.py``), opened from disk
in headless Chromium through Playwright, typeset by the book's local MathJax, and printed. Before printing:

* every collapsed part of the page a reader can open (a dropdown, a toggled admonition) is opened; the source of a
  hidden code cell is not in the one-page build at all (``book/ext/editions.py``): paper shows what a reader reads;
* the text of every printed heading is taken, formulas as text (MathJax's MathML), to be the titles of the PDF's
  outline after printing: Chromium's own titles lose formulas ("The -test"), join wrapped lines ("ROCcurve")
  and count some lines twice ("Proof ledgerProof ledger");
* the pages of the other volume are taken out (:data:`REFERENCE_PAGES` from the book, every other page from the
  reference): a link to a page taken out keeps its text and loses its link; the one page's links to itself,
  written relative to the root document, are made links inside the PDF (followed from the copy printed, each
  named a file of the machine that printed it);
* each page of the book is printed on its own named page (CSS ``page``), whose top margin carries the running
  head: the part on the left, the page's title on the right (:data:`RUNNING_HEADS`); each chain's left-hand side
  and first step are named, so the tests can read whether they share a sheet (:data:`CHAIN_PROBES`);
* a table of contents is put after the book's title: the book's parts and pages, with their page numbers. The
  numbers come from a first printing (Chromium names each link target of the PDF after its element id; this one
  draws nothing, every element invisible, and has no tags or outline, none of which moves a line: a third of the
  time); the second printing, with the same number of lines, is the PDF. The numbers a printing found are kept
  beside the PDF (``melearn-en.contents.json``): the next build fills them in before its first printing, and when
  that printing puts every page where the contents say (a book whose pages kept their sheets), it is the PDF,
  printed once;
* what fits the column is measured in the page laid out as it is printed (``book/column_fit.py``: formulas, chain
  rows, reasons, equation numbers, page by page) and kept beside the PDF (``melearn-en.fit.json``), for the tests
  of the built book (``tests/book/browser/test_fit.py``).

A PDF is printed again only when something it is printed from changed: the one page and every file beside it
that it loads (styles, MathJax, figures), the scripts that print it, Playwright, pypdf, the browser and the
installed fonts (:func:`print_inputs_digest`, kept beside the PDF as ``melearn-en.printed-from``). With all of them
as they were, printing would give the same sheets, and the PDF, its contents' page numbers and its fit are kept
(``--print always`` prints anyway).

The print style sheet (``book/static/print.css``) sets the book in its faces (Latin Modern, Noto Serif CJK SC), puts
equation numbers beside their formulas, hides the navigation and keeps figures, formulas and code boxes whole.
Links inside the book become links inside the PDF. The PDFs are also copied into the edition's site
(``_build/html/melearn-en.pdf``, ``_build/html/zh/melearn-zh_CN.pdf``, ...), where every page's download menu links
the book.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .build_edition import LANGUAGES, build, output_dir
from .chromium import CHROMIUM_ARGS, chromium_executable
from .column_fit import FIT_JS

ROOT = Path(__file__).resolve().parent.parent

PDF_DIR = ROOT / "_build" / "pdf"
# open everything the reader could open: dropdowns and toggled admonitions (hidden code is not in the page)
EXPAND = """() => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  document.querySelectorAll('.toggle-hidden').forEach(e => e.classList.remove('toggle-hidden'));
  document.querySelectorAll('.toggle-details__summary, button.toggle-button').forEach(e => e.remove());
}"""
# Chromium takes an outline entry's title from the heading's painted text: a formula drawn by MathJax (CSS glyphs)
# is lost, the lines of a wrapped heading are joined without a space ("ROCcurve"), and a heading moved to the
# next sheet can be counted twice ("Proof ledgerProof ledger"). The titles are written again after printing, from
# the text of each heading that is printed, in order: formulas as text (MathJax's MathML), lines joined by spaces.
TEXT_OF = r"""
  const spaced = new Set(['=', '\u2212', '-', '+', '<', '>', '\u2264', '\u2265', '\u00d7', '\u2248', '\u2260']);
  const text = (node) => {
    if (node.nodeType === Node.TEXT_NODE) return node.textContent;
    if (node.nodeType !== Node.ELEMENT_NODE) return '';
    if (node.localName === 'mjx-container') {
      const math = node.querySelector('mjx-assistive-mml math');
      return math ? text(math) : '';
    }
    if (node.localName === 'br') return ' ';
    if (node.classList.contains('headerlink') || getComputedStyle(node).display === 'none') return '';
    const inner = Array.from(node.childNodes).map(text).join('');
    return node.localName === 'mo' && spaced.has(inner.trim()) ? ` ${inner.trim()} ` : inner;
  };
"""
HEADING_TEXT = (
    "() => {"
    + TEXT_OF
    + r"""  return Array.from(document.querySelectorAll('h1, h2, h3, h4, h5, h6'))
    .filter((heading) => heading.getClientRects().length > 0)  // printed: not inside display: none
    .map((heading) => text(heading).replace(/\s+/g, ' ').trim())
    .filter((title) => title);
}"""
)
# The table of contents, after the book's title: each part (a caption of _toc.yml) and its pages. The page numbers
# are filled in from the first printing; until then each holds a placeholder as wide as the number will be.
TOC_TITLE = {"en": "Contents", "zh_CN": "目录"}
MAKE_TOC = r"""([title, placeholder, parts]) => {
  const article = document.querySelector('.bd-article') || document.body;
  const nav = document.createElement('nav');
  nav.id = 'print-toc';
  const heading = document.createElement('h2');
  heading.className = 'print-toc-title';
  heading.textContent = title;
  nav.appendChild(heading);
  const list = document.createElement('ol');
  nav.appendChild(list);
  const wrappers = Array.from(article.querySelectorAll('.toctree-wrapper'));
  wrappers.forEach((wrapper, index) => {
    if (wrappers.length === parts.length && parts[index]) {  // the one-page build drops the parts' captions
      const part = document.createElement('li');
      part.className = 'print-toc-part';
      part.textContent = parts[index];
      list.appendChild(part);
    }
    for (const section of wrapper.querySelectorAll(':scope > section[id]')) {
      const h1 = section.querySelector(':scope > h1, :scope > h2');  // a page's title (h2 in the one page)
      if (!h1) continue;
      // the page's own anchor (the empty span the one-page build puts before it): a section's id is not unique
      // in the one page (every page has its "References"), and the first of a repeated id is another page's
      const anchor = section.previousElementSibling;
      const target = anchor && anchor.localName === 'span' && anchor.id.startsWith('document-') ? anchor.id
        : section.id;
      const item = document.createElement('li');
      const link = document.createElement('a');
      link.href = '#' + target;
      const label = document.createElement('span');
      label.className = 'print-toc-label';
      for (const child of h1.childNodes) {
        if (!(child.classList && child.classList.contains('headerlink'))) label.appendChild(child.cloneNode(true));
      }
      const number = document.createElement('span');
      number.className = 'print-toc-page';
      number.dataset.target = target;
      number.textContent = placeholder;
      link.append(label, number);
      item.appendChild(link);
      list.appendChild(item);
    }
  });
  const bookTitle = article.querySelector('h1');  // the book's title: the contents follow it, on the first sheet
  if (bookTitle) bookTitle.after(nav);
  else article.prepend(nav);
  return Array.from(nav.querySelectorAll('.print-toc-page')).map((n) => n.dataset.target);
}"""
FILL_TOC = r"""(numbers) => {
  for (const number of document.querySelectorAll('#print-toc .print-toc-page')) {
    number.textContent = numbers[number.dataset.target];
  }
}"""
# The book's chapters and its reference are two PDFs: the reference (the API of melearn and the benchmarks) is long,
# dense and read at a desk, not printed with the chapters. Each is printed from the same one page, with the other's
# pages taken out of it.
REFERENCE_PAGES = ("chapters/benchmarks", "chapters/api")
VOLUMES = ("book", "reference")
REFERENCE_TITLE = {"en": "API reference and benchmarks", "zh_CN": "API 参考与基准测试"}
# the one page is printed from a copy at the top of the output (book.html), but its links to its own parts are
# written relative to the root document (chapters/intro.html#id2): followed from the copy, each named a file on the
# machine that printed it. They are made links inside the page again; a link into a page left out of this volume
# (the reference's, from the chapters) keeps its text and loses its link.
SELECT_VOLUME = r"""([root, reference, keepReference, title]) => {
  const article = document.querySelector('.bd-article') || document.body;
  for (const link of article.querySelectorAll(`a[href^="${root}#"]`)) {
    link.setAttribute('href', link.getAttribute('href').slice(root.length));
  }
  for (const anchor of Array.from(article.querySelectorAll('.toctree-wrapper > span[id^="document-"]'))) {
    if (reference.includes(anchor.id.slice('document-'.length)) === keepReference) continue;
    const section = anchor.nextElementSibling;
    if (section && section.localName === 'section') section.remove();
    anchor.remove();
  }
  if (keepReference) {  // the reference: the book's title (with the reference's), then its pages
    const root = article.querySelector('section');
    const h1 = root && root.querySelector(':scope > h1');
    for (const child of Array.from(root ? root.children : [])) {
      if (child !== h1 && !child.classList.contains('toctree-wrapper')) child.remove();
    }
    // the title as printed: the theme's print-only block (it hides the article's first h1 on paper)
    for (const heading of document.querySelectorAll('#jb-print-docs-body > h1:not(:has(.print-volume-title))')) {
      const sub = document.createElement('span');
      sub.className = 'print-volume-title';
      sub.textContent = title;
      heading.append(document.createElement('br'), sub);
    }
  }
  for (const wrapper of Array.from(article.querySelectorAll('.toctree-wrapper'))) {
    if (!wrapper.querySelector('section')) wrapper.remove();
  }
  for (const link of Array.from(article.querySelectorAll('a[href^="#"]'))) {
    const id = decodeURIComponent(link.getAttribute('href').slice(1));
    if (id && !document.getElementById(id)) link.replaceWith(...link.childNodes);
  }
}"""
# Running heads: each page of the book is printed on its own named page (CSS page: chapter-N), whose top margin
# shows the part of the book on the left and the page's title on the right (formulas as text); the introduction after
# the contents shows the book's title. The title sheet and the contents have none.
RUNNING_HEADS = (
    "([parts, volume]) => {"
    + TEXT_OF
    + r"""  const article = document.querySelector('.bd-article') || document.body;
  const title = document.querySelector('#jb-print-docs-body > h1') || article.querySelector('h1');
  const book = volume || (title ? text(title).replace(/\s+/g, ' ').trim() : '');
  const wrappers = Array.from(article.querySelectorAll('.toctree-wrapper'));
  const quote = (value) => JSON.stringify(value.replace(/\s+/g, ' ').trim());
  const short = (title) => title.length <= 72 ? title : title.slice(0, 72).replace(/[\s,;:]+\S*$/, '') + ' \u2026';
  const box = 'font-family: "Latin Modern Roman", "Noto Serif CJK SC", serif; font-size: 9pt; color: #444; ' +
    'font-style: italic; vertical-align: bottom; padding-bottom: 3mm;';
  const head = (name, left, right) => `@page ${name} {\n  @top-left { content: ${quote(left)}; ${box} }\n` +
    `  @top-right { content: ${quote(right)}; ${box} text-align: right; }\n}`;
  const rules = [];
  const root = article.querySelector('section');
  const contents = document.getElementById('print-toc');
  let after = !contents;
  for (const child of Array.from(root ? root.children : [])) {
    if (child === contents) { after = true; continue; }
    if (after && !child.classList.contains('toctree-wrapper')) child.style.page = 'introduction';
  }
  rules.push(head('introduction', book, ''));
  let count = 0;
  wrappers.forEach((wrapper, index) => {
    const part = wrappers.length === parts.length && parts[index] ? parts[index] : book;
    for (const section of wrapper.querySelectorAll(':scope > section[id]')) {
      const heading = section.querySelector(':scope > h1, :scope > h2');
      const name = `chapter-${++count}`;
      section.style.page = name;
      const anchor = section.previousElementSibling;
      if (anchor && anchor.localName === 'span') anchor.style.page = name;
      rules.push(head(name, part, short(heading ? text(heading) : '')));
    }
  });
  const style = document.createElement('style');
  style.id = 'print-running-heads';
  style.textContent = rules.join('\n');
  document.head.append(style);
  return count;
}"""
)
# Where a chain starts on paper: its left-hand side (a line of its own on paper) and its first step are given ids,
# linked from a list that is never shown, so that the PDF names them as link targets with the sheet each is on
# (Chromium names every element a link of the page points to, shown or not): the tests read whether a chain's
# left-hand side is on the sheet of its first step (tests/book/browser/test_pdf.py).
CHAIN_PROBE = "print-chain-"
CHAIN_PROBES = r"""(prefix) => {
  const nav = document.createElement('nav');
  nav.id = 'print-chain-probes';
  nav.style.display = 'none';
  let count = 0;
  for (const chain of document.querySelectorAll('.bd-article .melearn-chain')) {
    const lhs = chain.querySelector('.chain-lhs');
    const step = chain.querySelector('.chain-body');
    if (!lhs || !step || !lhs.textContent.trim() || !lhs.getClientRects().length) continue;
    count += 1;
    lhs.id = lhs.id || `${prefix}${count}-lhs`;
    step.id = step.id || `${prefix}${count}-step`;
    for (const target of [lhs, step]) {
      const link = document.createElement('a');
      link.href = '#' + target.id;
      nav.appendChild(link);
    }
  }
  document.body.appendChild(nav);
  return count;
}"""
# each numbered formula on paper: whether its number is level with it (beside it), measured in the printed layout
NUMBERS_BESIDE = r"""() => Array.from(document.querySelectorAll('.bd-article div.math > span.eqno'))
  .filter((number) => number.getClientRects().length > 0)
  .map((number) => {
    const math = number.parentElement.querySelector('mjx-container mjx-math');
    const n = number.getBoundingClientRect();
    const m = math ? math.getBoundingClientRect() : null;
    const level = !!m && n.top < m.bottom && n.bottom > m.top && n.left >= m.right;
    return {number: number.textContent.replace('#', '').trim(), beside: level};
  })"""
INVISIBLE = "* { visibility: hidden !important; }"  # the style of the printing that only finds page numbers
FOOTER = (
    "<div style=\"font-family:'Latin Modern Roman',serif;font-size:9px;width:100%;text-align:center;color:#444\">"
    '<span class="pageNumber"></span> / <span class="totalPages"></span></div>'
)


def pdf_options() -> dict:
    """The options of each printing (Playwright's ``page.pdf``): A4, the margins of the text, the sheet's number."""
    return {
        "format": "A4",
        "print_background": True,
        "margin": {"top": "18mm", "bottom": "16mm", "left": "14mm", "right": "14mm"},
        "display_header_footer": True,
        "header_template": "<span></span>",
        "footer_template": FOOTER,
        "outline": True,
        "tagged": True,
    }


def select_volume_arguments(language: str, volume: str) -> list:
    """What :data:`SELECT_VOLUME` is given to make the one page ``language``'s ``volume``."""
    return [f"{root_page()}.html", list(REFERENCE_PAGES), volume == "reference", REFERENCE_TITLE[language]]


def prepare_for_paper(tab, language: str, volume: str = "book") -> list[str]:
    """Make the one page opened in ``tab`` the ``volume`` (:data:`VOLUMES`) of ``language``'s edition on paper.

    Its links made links inside the page, the other volume's pages taken out, the table of contents put after the
    title, each page given its running head. Returns the link targets of the contents' entries, in order.
    """
    reference = volume == "reference"
    tab.evaluate(SELECT_VOLUME, select_volume_arguments(language, volume))
    targets = tab.evaluate(MAKE_TOC, [TOC_TITLE[language], "000", part_captions(language)])
    tab.evaluate(RUNNING_HEADS, [part_captions(language), REFERENCE_TITLE[language] if reference else ""])
    tab.evaluate(CHAIN_PROBES, CHAIN_PROBE)
    return targets


def root_page() -> str:
    """The book's root document (``root`` of ``_toc.yml``): the one page of the one-page build."""
    import yaml

    return yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))["root"]


def pdf_path(language: str, volume: str = "book") -> Path:
    """Where the PDF of ``language``'s edition is written: its chapters (``book``) or its ``reference``."""
    return PDF_DIR / (f"melearn-{language}.pdf" if volume == "book" else f"melearn-{language}-{volume}.pdf")


def part_captions(language: str) -> list[str]:
    """The captions of the book's parts (``_toc.yml``), in ``language`` (from the root page's catalogue)."""
    import yaml

    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    captions = [part.get("caption", "") for part in toc.get("parts", [])]
    po = ROOT / "locale" / language / "LC_MESSAGES" / f"{toc['root']}.po"
    if language == "en" or not po.is_file():
        return captions
    from babel.messages.pofile import read_po

    with po.open("rb") as handle:
        catalogue = read_po(handle)
    translated = []
    for caption in captions:
        message = catalogue.get(caption)
        translated.append(message.string if message is not None and message.string else caption)
    return translated


def destination_pages(path: Path) -> dict[str, int]:
    """The page (from 1) of each named link target of the PDF at ``path``: Chromium names them by element id."""
    from pypdf import PdfReader

    reader = PdfReader(path)
    return {
        str(name).lstrip("/"): reader.get_destination_page_number(destination) + 1
        for name, destination in reader.named_destinations.items()
    }


def _outline_items(outlines):
    """The items of a PDF outline dictionary, in reading order (each before its children)."""
    item = outlines.get("/First")
    while item is not None:
        item = item.get_object()
        yield item
        yield from _outline_items(item)
        item = item.get("/Next")


def _letters(text: str) -> str:
    """The letters, digits and CJK characters of ``text``, lower-case: what survives of a title in Chromium's."""
    return "".join(re.findall(r"[a-z0-9\u4e00-\u9fff]", text.lower()))


def _undoubled(letters: str) -> str:
    """``letters`` without the pieces Chromium repeats (it counts some lines of a heading twice).

    A one-character heading counted twice ("图图", the Chinese "Figures") is undone too; a letter doubled in a word
    ("book") loses one, which keeps the title a subsequence of its heading, all it is matched by.

    >>> _undoubled("235the235theformform")
    '235theform'
    >>> _undoubled("图图")
    '图'
    """
    previous = None
    while previous != letters:
        previous, letters = letters, re.sub(r"(.+?)\1", r"\1", letters)
    return letters


def _is_subsequence(short: str, long: str) -> bool:
    rest = iter(long)
    return all(character in rest for character in short)


def retitle_outline(path: Path, headings: list[str]) -> int:
    """Give the outline of the PDF at ``path`` the titles ``headings`` (the printed headings, in order).

    Chromium's title of each outline entry is matched with the next heading whose text holds its letters in order
    (a formula or a space lost, a line counted twice: that is what is repaired); a heading Chromium left out (one
    with nothing but a formula) is skipped. An entry that matches no heading fails the build, the PDF unchanged.
    Returns the number of titles changed.
    """
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import NameObject, TextStringObject

    writer = PdfWriter(clone_from=PdfReader(path))
    outlines = writer.root_object.get("/Outlines")
    items = list(_outline_items(outlines.get_object())) if outlines is not None else []
    changed, next_heading = 0, 0
    for item in items:
        old = str(item.get("/Title", ""))
        letters = _undoubled(_letters(old))
        while next_heading < len(headings) and not _is_subsequence(letters, _letters(headings[next_heading])):
            next_heading += 1
        if next_heading == len(headings):
            raise RuntimeError(f"the PDF's outline title {old!r} matches no printed heading after the one before it")
        if old != headings[next_heading]:
            item[NameObject("/Title")] = TextStringObject(headings[next_heading])
            changed += 1
        next_heading += 1
    with path.open("wb") as handle:
        writer.write(handle)
    return changed


# the width of the text on an A4 sheet between the margins of print_pdf (210 mm - 2 x 14 mm), in CSS pixels
TEXT_WIDTH_PX = round((210 - 2 * 14) / 25.4 * 96)


def fit_path(target: Path) -> Path:
    """Where what fits its column on paper (:data:`column_fit.FIT_JS`, measured in the printed page) is kept."""
    return target.with_name(f"{target.stem}.fit.json")


def inputs_path(target: Path) -> Path:
    """Where the digest of what ``target`` (a PDF) was printed from is kept (:func:`print_inputs_digest`)."""
    return target.with_name(f"{target.stem}.printed-from")


# what prints a PDF besides the page: these scripts, and the packages that drive the browser and write the outline
PRINTING_SCRIPTS = ("build_pdf.py", "column_fit.py", "chromium.py")
PRINTING_PACKAGES = ("playwright", "pypdf")


def _installed_fonts() -> list[str]:
    """Each font file fontconfig offers the browser, with its size and modification time (none without fc-list)."""
    try:
        listed = subprocess.run(["fc-list", "--format", "%{file}\\n"], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return []
    fonts = []
    for name in sorted(set(filter(None, listed.stdout.splitlines()))):
        stat = Path(name).stat() if Path(name).is_file() else None
        fonts.append(f"{name} {stat.st_size} {stat.st_mtime_ns}" if stat else f"{name} missing")
    return fonts


def _browser_version(executable: str) -> str:
    try:
        return subprocess.run([executable, "--version"], capture_output=True, text=True, timeout=60).stdout.strip()
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"{executable}: {error}"


def print_inputs_digest(page_dir: Path, executable: str | None = None) -> str:
    """A digest of everything a printing of the one page in ``page_dir`` depends on.

    Every file under ``page_dir`` (the page, its styles, MathJax, its figures: all it loads), the printing scripts
    (:data:`PRINTING_SCRIPTS`), the versions of :data:`PRINTING_PACKAGES`, the browser (``executable``, by the
    version it reports) and the installed fonts. Two printings with the same digest lay out the same page with the
    same code, browser and fonts.
    """
    digest = hashlib.sha256()

    def add(label: str, data: bytes) -> None:
        digest.update(f"{label}\0{len(data)}\0".encode() + data)

    for path in sorted(p for p in page_dir.rglob("*") if p.is_file()):
        add(f"page:{path.relative_to(page_dir).as_posix()}", path.read_bytes())
    for name in PRINTING_SCRIPTS:
        add(f"script:{name}", (ROOT / "book" / name).read_bytes())
    for package in PRINTING_PACKAGES:
        add(f"package:{package}", importlib.metadata.version(package).encode())
    add("browser", _browser_version(executable or chromium_executable()).encode())
    add("fonts", "\n".join(_installed_fonts()).encode())
    return digest.hexdigest()


def printed_from(target: Path) -> str | None:
    """The digest ``target`` was printed from, if it and everything kept beside it are there (else ``None``)."""
    kept = (target, contents_path(target), fit_path(target), inputs_path(target))
    if not all(path.is_file() for path in kept):
        return None
    return inputs_path(target).read_text(encoding="utf-8").strip() or None


def contents_path(target: Path) -> Path:
    """Where the page numbers of the contents of ``target`` (a PDF) are kept for its next build."""
    return target.with_name(f"{target.stem}.contents.json")


def remembered_contents(target: Path, targets: list[str]) -> dict[str, int]:
    """The page numbers the last build of ``target`` printed for exactly these ``targets``, or none."""
    try:
        known = json.loads(contents_path(target).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(known, dict) or sorted(known) != sorted(targets):
        return {}
    if not all(isinstance(number, int) and number > 0 for number in known.values()):
        return {}
    return known


def print_pdf(page: Path, target: Path, language: str = "en", timeout_s: float = 300, volume: str = "book") -> None:
    """Open ``page`` (an HTML file) in headless Chromium, prepare it for paper, print it to ``target``.

    Printed twice: the first printing gives the page of each part of the book, which the table of contents of the
    second shows. The numbers take the place of placeholders of their width, so the second printing has the same
    pages; should a page still move, the printing is repeated (at most twice) until the numbers agree. Printed
    once when the numbers of the last build (:func:`contents_path`) are where this printing puts the pages: a
    PDF is kept only when its contents agree with its own link targets, whichever printing made it.
    """
    from playwright.sync_api import sync_playwright

    started = time.perf_counter()
    target.parent.mkdir(parents=True, exist_ok=True)
    options = pdf_options()
    with tempfile.TemporaryDirectory(prefix="melearn-pdf-") as profile, sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=chromium_executable(), headless=True, args=list(CHROMIUM_ARGS)
        )
        try:
            # MathJax 4 breaks a long display formula at the width of its column when it typesets it, and again
            # when the width changes; typeset on a screen and then switched to print, (2.41) was broken into a
            # column one symbol wide over three sheets. So the page is laid out as paper from the start: print
            # media, at the width of the text on the sheet.
            tab = context.new_page()
            if volume == "reference":
                # the reference's pages only, taken from the page before MathJax typesets it (a third of the
                # formulas' time); the book's is typeset whole, for the fit of every page (FIT_JS below)
                arguments = json.dumps(select_volume_arguments(language, volume), ensure_ascii=False)
                tab.add_init_script(
                    f"document.addEventListener('DOMContentLoaded', () => ({SELECT_VOLUME})({arguments}));"
                )
            tab.set_viewport_size({"width": TEXT_WIDTH_PX, "height": 1100})
            tab.emulate_media(media="print")
            tab.set_default_timeout(timeout_s * 1000)
            tab.goto(page.as_uri(), wait_until="load")
            tab.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise")
            tab.evaluate("() => MathJax.startup.promise")
            tab.evaluate(EXPAND)
            # what fits the text column on paper, measured in the page as it is printed, every page of the book
            # (both volumes: a page is laid out alike in either; the tests of the built book read it:
            # tests/book/browser/test_fit.py)
            fit = {"width_px": TEXT_WIDTH_PX, **tab.evaluate(FIT_JS), "numbers": tab.evaluate(NUMBERS_BESIDE)}
            targets = prepare_for_paper(tab, language, volume)
            headings = tab.evaluate(HEADING_TEXT)
            fit_path(target).unlink(missing_ok=True)
            numbers = remembered_contents(target, targets)
            if numbers:
                tab.evaluate(FILL_TOC, {name: str(number) for name, number in numbers.items()})
            typeset = time.perf_counter()
            for printings in range(1, 4):
                if numbers:
                    tab.pdf(path=str(target), **options)
                else:
                    # a printing that only finds the page numbers draws nothing: every element invisible (which
                    # moves nothing: an invisible box keeps its place) and no tags or outline; about a third of
                    # the time of a printing. The next printing is checked to put every page where it found them.
                    blank = tab.add_style_tag(content=INVISIBLE)
                    tab.pdf(path=str(target), **{**options, "tagged": False, "outline": False})
                    blank.evaluate("(style) => style.remove()")
                found = destination_pages(target)
                missing = sorted(set(targets) - set(found))
                if missing:
                    raise RuntimeError(f"the PDF has no link target for {missing[:5]}: the contents cannot be numbered")
                pages = {name: found[name] for name in targets}
                if pages == numbers:
                    printed = time.perf_counter()
                    contents_path(target).write_text(json.dumps(pages, indent=0, sort_keys=True), encoding="utf-8")
                    fit_path(target).write_text(json.dumps(fit, ensure_ascii=False, indent=0), encoding="utf-8")
                    changed = retitle_outline(target, headings)
                    print(
                        f"{target.name}: {len(targets)} pages in the contents, {changed} outline titles repaired; "
                        f"loaded and typeset in {typeset - started:.0f} s, printed {printings} times in "
                        f"{printed - typeset:.0f} s, outline in {time.perf_counter() - printed:.0f} s"
                    )
                    return
                numbers = pages
                tab.evaluate(FILL_TOC, {name: str(number) for name, number in numbers.items()})
            raise RuntimeError("the table of contents moved the pages it numbers in three printings")
        finally:
            context.close()


def build_pdf(language: str, execution: str | None = None, reprint: bool = False) -> int:
    """Build ``language``'s edition as one page and print it; return 0 on success.

    The PDF is printed only if ``reprint`` or if it was printed from anything else (:func:`print_inputs_digest`).
    """
    start = time.perf_counter()
    status = build(language, "singlehtml", execution)
    if status:
        return status
    print(f"{language}: the one page built in {time.perf_counter() - start:.0f} s")
    # The one page is written as the root document (chapters/intro.html) but refers to its images and styles as
    # if it stood at the top of the output (_static/, _images/): print a copy that does.
    outdir = output_dir(language, "singlehtml")
    page = outdir / "book.html"
    page.write_bytes((outdir / f"{root_page()}.html").read_bytes())
    inputs = print_inputs_digest(outdir)
    for volume in VOLUMES:
        target = pdf_path(language, volume)
        if not reprint and printed_from(target) == inputs:
            print(f"{target.name}: printed from this very page, with the same scripts, browser and fonts: kept")
        else:
            inputs_path(target).unlink(missing_ok=True)  # claimed again only once this printing has succeeded
            print_pdf(page, target, language, volume=volume)
            inputs_path(target).write_text(inputs + "\n", encoding="utf-8")
        site = output_dir(language, "html")
        if site.is_dir():  # the site's download menus and landing page link the PDFs here (book/ext/reader.py)
            shutil.copyfile(target, site / target.name)
        print(
            f"{target.relative_to(ROOT)}: {target.stat().st_size / 1e6:.1f} MB in {time.perf_counter() - start:.0f} s"
        )
    return 0


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("language", choices=LANGUAGES)
    parser.add_argument("--execution", choices=("off", "cache", "force"), default=None)
    parser.add_argument(
        "--print",
        choices=("changed", "always"),
        default="changed",
        help="print only when the page or the printing changed (default), or always",
    )
    args = parser.parse_args(argv)
    return build_pdf(args.language, args.execution, reprint=args.print == "always")


if __name__ == "__main__":
    sys.exit(main())
