"""A contact sheet per page of the built book, to look at before a change is called done (``make look``).

    python -m book.look                      # the pages the change touched (see below)
    python -m book.look all                  # every page of both editions
    python -m book.look chapters/auc zh/chapters/auc

Each sheet (``_build/look/<page>.png``) shows the page side by side as a reader meets it, each view scaled down to
the same height: the first two screens on a desktop (1366x900), the first screen on a phone (390x844 at scale 2),
the first checked chain on a desktop in dark mode (the top of the page if it has none), and the page's first sheet
in its edition's PDF when ``_build/pdf`` holds one (the sheet its title heads, from the PDF's outline).

The pages a change touched: the pages whose source (``chapters/...``) differs from the branch ``main`` (committed
or not). A change to what every page shows (the stylesheets and scripts in ``book/static/``, ``book/ext/``,
``book/templates/``, ``_config.yml``, melearn's rendering of chains) touches every page; the four key pages of the book
((2.20), (2.21), the corrected (2.27), (2.41)) then stand for them, and ``all`` shows them all.

Needs a built site (``make book``, or ``python -m book.build_edition en --execution off`` for English) and
Chromium.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from .book_site import REPO, LocalServer, toc_pages
from .chromium import CHROMIUM_ARGS, chromium_executable

HTML = REPO / "_build" / "html"
OUT = REPO / "_build" / "look"
PDFS = {"en": REPO / "_build" / "pdf" / "melearn-en.pdf", "zh": REPO / "_build" / "pdf" / "melearn-zh_CN.pdf"}
KEY_PAGES = ["chapters/auc", "chapters/rank_loss", "chapters/binomial_test_corrected", "chapters/bias_variance"]
SITE_WIDE = (
    "book/static/",
    "book/ext/",
    "book/templates/",
    "_config.yml",
    "melearn/derivation/render.py",
    "melearn/i18n.py",
)
TILE_HEIGHT = 1000
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}

_READY_JS = r"""
async () => {
  const mj = window.MathJax && MathJax.startup && MathJax.startup.promise;
  if (mj) await mj;
  if (window.melearnMathSettled) await window.melearnMathSettled();
  await document.fonts.ready;
  await new Promise((done) => setTimeout(done, 400));  // the theme's transitions
  if (window.melearnMathSettled) await window.melearnMathSettled();
}
"""


def changed_pages() -> list[str]:
    """The pages whose sources differ from ``main``; the key pages too when a site-wide file changed."""
    base = subprocess.run(["git", "merge-base", "HEAD", "main"], cwd=REPO, capture_output=True, text=True)
    against = base.stdout.strip() or "HEAD"
    names = subprocess.run(["git", "diff", "--name-only", against], cwd=REPO, capture_output=True, text=True)
    untracked = subprocess.run(
        ["git", "ls-files", "--others", "--exclude-standard"], cwd=REPO, capture_output=True, text=True
    )
    changed = set(names.stdout.split()) | set(untracked.stdout.split())
    pages = toc_pages()
    touched = [page for page in pages if any(name.startswith(page + ".") for name in changed)]
    if any(name.startswith(SITE_WIDE) for name in changed):
        touched = list(dict.fromkeys([*touched, *KEY_PAGES]))
    return touched


def first_sheet(pdf: Path, title: str) -> int | None:
    """The number (from 1) of the sheet the outline entry ``title`` points at, or None."""
    from pypdf import PdfReader

    reader = PdfReader(str(pdf))

    def walk(items):
        for item in items:
            if isinstance(item, list):
                yield from walk(item)
            else:
                yield item

    wanted = " ".join(title.split())
    for item in walk(reader.outline):
        if " ".join(str(item.title).split()) == wanted:
            return reader.get_destination_page_number(item) + 1
    return None


def sheet_png(pdf: Path, number: int, folder: Path) -> Path:
    stem = folder / f"sheet-{number}"
    subprocess.run(
        ["pdftoppm", "-r", "80", "-f", str(number), "-l", str(number), "-png", "-singlefile", str(pdf), str(stem)],
        check=True,
    )
    return stem.with_suffix(".png")


def shoot(context, url: str, viewport: dict, path: Path, *, height: int, dark: bool = False) -> str:
    """A screenshot of the top ``height`` px of ``url`` (dark: the first chain in view, in dark mode); its title."""
    page = context.new_page()
    try:
        page.set_viewport_size(viewport)
        page.goto(url, wait_until="load", timeout=60_000)
        page.evaluate(_READY_JS)
        if dark:
            page.evaluate(
                "() => { const root = document.documentElement; root.dataset.theme = 'dark';"
                " root.dataset.mode = 'dark'; const chain = document.querySelector('.melearn-chain');"
                " if (chain) chain.scrollIntoView({block: 'start'}); }"
            )
            page.wait_for_timeout(300)
            page.screenshot(path=str(path))
        else:
            total = page.evaluate("() => document.documentElement.scrollHeight")
            page.screenshot(
                path=str(path),
                full_page=True,
                clip={"x": 0, "y": 0, "width": viewport["width"], "height": min(height, total)},
            )
        return page.evaluate(
            "() => { const h = document.querySelector('main h1, article h1, h1');"
            " return h ? h.textContent.replace(/#$/, '').trim() : document.title; }"
        )
    finally:
        page.close()


def contact_sheet(tiles: list[tuple[str, Path]], target: Path) -> None:
    from PIL import Image, ImageDraw

    scaled = []
    for label, path in tiles:
        image = Image.open(path).convert("RGB")
        width = round(image.width * TILE_HEIGHT / image.height)
        if width > 900:  # a wide view: scaled to 900 px wide instead, top aligned
            image = image.resize((900, round(image.height * 900 / image.width)), Image.LANCZOS)
        else:
            image = image.resize((width, TILE_HEIGHT), Image.LANCZOS)
        scaled.append((label, image))
    gap, head = 16, 28
    sheet = Image.new(
        "RGB", (sum(i.width for _, i in scaled) + gap * (len(scaled) + 1), TILE_HEIGHT + head + gap), "#808080"
    )
    draw = ImageDraw.Draw(sheet)
    x = gap
    for label, image in scaled:
        draw.text((x, 8), label, fill="#ffffff")
        sheet.paste(image, (x, head))
        x += image.width + gap
    target.parent.mkdir(parents=True, exist_ok=True)
    sheet.save(target)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", nargs="*", help="pages (chapters/auc, zh/chapters/auc) or 'all'; default: changed")
    parser.add_argument("--html", type=Path, default=HTML, help="the built site (default: _build/html)")
    parser.add_argument("--out", type=Path, default=OUT, help="where the sheets go (default: _build/look)")
    args = parser.parse_args(argv)
    if not (args.html / "chapters").is_dir():
        sys.exit(f"no built site in {args.html}: run make book (or book/build_edition.py en --execution off)")
    chinese = (args.html / "zh" / "chapters").is_dir()
    if args.pages == ["all"]:
        pages = toc_pages() + ([f"zh/{page}" for page in toc_pages()] if chinese else [])
    elif args.pages:
        pages = args.pages
    else:
        pages = changed_pages()
        pages += [f"zh/{page}" for page in pages] if chinese else []
    if not pages:
        print("no page changed (python -m book.look all shows every page)")
        return 0
    from playwright.sync_api import sync_playwright

    with LocalServer(args.html) as server, sync_playwright() as playwright, tempfile.TemporaryDirectory() as tmp:
        browser = playwright.chromium.launch(executable_path=chromium_executable(), args=list(CHROMIUM_ARGS))
        desktop = browser.new_context(viewport=DESKTOP, color_scheme="light")
        phone = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, color_scheme="light")
        folder = Path(tmp)
        for name in pages:
            url = f"{server.url}/{name}.html"
            slug = name.replace("/", "__")
            tiles = []
            shot = folder / f"{slug}-desktop.png"
            title = shoot(desktop, url, DESKTOP, shot, height=2 * DESKTOP["height"])
            tiles.append(("desktop 1366 px, two screens", shot))
            shot = folder / f"{slug}-phone.png"
            shoot(phone, url, PHONE, shot, height=PHONE["height"])
            tiles.append(("phone 390 px, first screen", shot))
            shot = folder / f"{slug}-dark.png"
            shoot(desktop, url, DESKTOP, shot, height=DESKTOP["height"], dark=True)
            tiles.append(("dark, first chain", shot))
            pdf = PDFS["zh" if name.startswith("zh/") else "en"]
            if pdf.is_file():
                number = first_sheet(pdf, title)
                if number is not None:
                    tiles.append((f"{pdf.name}, sheet {number}", sheet_png(pdf, number, folder)))
            target = args.out / f"{slug}.png"
            contact_sheet(tiles, target)
            print(f"{name}: {target.relative_to(REPO) if target.is_relative_to(REPO) else target}")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
