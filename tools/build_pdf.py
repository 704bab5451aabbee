"""Print one edition of the book to PDF with Chromium: ``_build/pdf/melearn-en.pdf`` or ``melearn-zh_CN.pdf``.

    python tools/build_pdf.py en          # the English book (stored outputs)
    python tools/build_pdf.py zh_CN       # the Chinese book (pages executed in Chinese, or taken from the cache)

This is Jupyter Book 1's ``pdfhtml`` route, done with the Chromium the browser tests use: the edition is built
as one HTML page (Sphinx's ``singlehtml`` builder, strictly, through ``tools/build_edition.py``), opened from disk
in headless Chromium through Playwright, typeset by the book's local MathJax, and printed. Before printing, every
collapsed part of the page (a code cell shown only on demand, a toggled admonition) is opened, so the PDF holds
everything the site holds; the print style sheet (``_static/print.css``) hides the navigation and keeps figures
and formulas whole. Links inside the book become links inside the PDF.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from build_edition import LANGUAGES, build, output_dir  # noqa: E402

PDF_DIR = ROOT / "_build" / "pdf"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# open everything the reader could open: <details> (dropdowns, hidden code cells) and toggled admonitions
EXPAND = """() => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  document.querySelectorAll('.toggle-hidden').forEach(e => e.classList.remove('toggle-hidden'));
  document.querySelectorAll('.toggle-details__summary, button.toggle-button').forEach(e => e.remove());
}"""
FOOTER = (
    '<div style="font-size:8px;width:100%;text-align:center;color:#555">'
    '<span class="pageNumber"></span> / <span class="totalPages"></span></div>'
)


def root_page() -> str:
    """The book's root document (``root`` of ``_toc.yml``): the one page of the one-page build."""
    import yaml

    return yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))["root"]


def pdf_path(language: str) -> Path:
    """Where the PDF of ``language``'s edition is written."""
    return PDF_DIR / f"melearn-{language}.pdf"


def print_pdf(page: Path, target: Path, timeout_s: float = 300) -> None:
    """Open ``page`` (an HTML file) in headless Chromium, wait for MathJax, expand it, print it to ``target``."""
    from playwright.sync_api import sync_playwright

    executable = os.environ.get("MELEARN_CHROMIUM", "/usr/bin/chromium")
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="melearn-pdf-") as profile, sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=executable, headless=True, args=CHROMIUM_ARGS
        )
        try:
            tab = context.new_page()
            tab.set_default_timeout(timeout_s * 1000)
            tab.goto(page.as_uri(), wait_until="load")
            tab.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise")
            tab.evaluate("() => MathJax.startup.promise")
            tab.evaluate(EXPAND)
            tab.emulate_media(media="print")
            tab.pdf(
                path=str(target),
                format="A4",
                print_background=True,
                margin={"top": "16mm", "bottom": "16mm", "left": "14mm", "right": "14mm"},
                display_header_footer=True,
                header_template="<span></span>",
                footer_template=FOOTER,
                outline=True,
                tagged=True,
            )
        finally:
            context.close()


def build_pdf(language: str, execution: str | None = None) -> int:
    """Build ``language``'s edition as one page and print it; return 0 on success."""
    start = time.perf_counter()
    status = build(language, "singlehtml", execution)
    if status:
        return status
    # The one page is written as the root document (chapters/intro.html) but refers to its images and styles as
    # if it stood at the top of the output (_static/, _images/): print a copy that does.
    outdir = output_dir(language, "singlehtml")
    page = outdir / "book.html"
    page.write_bytes((outdir / f"{root_page()}.html").read_bytes())
    target = pdf_path(language)
    print_pdf(page, target)
    print(f"{target.relative_to(ROOT)}: {target.stat().st_size / 1e6:.1f} MB in {time.perf_counter() - start:.0f} s")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("language", choices=LANGUAGES)
    parser.add_argument("--execution", choices=("off", "cache", "force"), default=None)
    args = parser.parse_args(argv)
    return build_pdf(args.language, args.execution)


if __name__ == "__main__":
    sys.exit(main())
