"""Repository and launch buttons appear only for a configured repository (``MELEARN_REPOSITORY_URL``).

Read from the built HTML, every page of it (no browser needed): by default the book has no repository, issue,
edit, Binder or Colab button, no link to a launch service, and no trace of a repository address; every page still
has its download button. With ``MELEARN_REPOSITORY_URL`` set (for the build and for this test), the buttons point
at that address and nowhere else.
"""

from __future__ import annotations

import html.parser
import os
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

# the address _config.yml used to carry, never checked by anyone: it must not come back
OLD_ADDRESS = "melearn-book/melearn"
LAUNCH_HOSTS = ("https://mybinder.org", "https://colab.research.google.com")
BUTTON_CLASSES = ("btn-source-repository-button", "btn-source-issues-button", "btn-source-edit-button")
MENUS = ("Source repositories", "Launch interactive content")


class _Buttons(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs: list[str] = []
        self.buttons: list[str] = []
        self.menus: list[str] = []
        self.downloads = 0

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = (attributes.get("class") or "").split()
        if tag == "a" and attributes.get("href"):
            self.hrefs.append(attributes["href"])
        self.buttons += [f"{name} -> {attributes.get('href')}" for name in classes if name in BUTTON_CLASSES]
        if attributes.get("aria-label") in MENUS:
            self.menus.append(attributes["aria-label"])
        if "btn-download-source-button" in classes:
            self.downloads += 1


def _pages(book_html: Path) -> list[Path]:
    pages = sorted(book_html.rglob("*.html"))
    assert pages, f"no HTML in {book_html}"
    return pages


def _scan(page: Path) -> _Buttons:
    parser = _Buttons()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser


def _configured() -> str:
    return os.environ.get("MELEARN_REPOSITORY_URL", "").strip().rstrip("/")


def test_no_repository_or_launch_buttons_by_default(book_html):
    if _configured():
        pytest.skip("MELEARN_REPOSITORY_URL is set: the buttons are expected (see the next test)")
    problems = []
    for page in _pages(book_html):
        found = _scan(page)
        launch = [href for href in found.hrefs if href.startswith(LAUNCH_HOSTS)]
        if found.buttons or found.menus or launch:
            problems.append(f"{page.relative_to(book_html)}: {found.buttons + found.menus + launch}")
    assert not problems, "buttons that lead to an unconfigured repository:\n  " + "\n  ".join(problems)


def test_no_trace_of_an_unchecked_repository_address(book_html):
    if _configured():
        pytest.skip("MELEARN_REPOSITORY_URL is set")
    with_address = [
        str(path.relative_to(book_html))
        for path in sorted(book_html.rglob("*"))
        if path.suffix in {".html", ".js", ".json", ".txt", ".ipynb", ".md"}
        and path.is_file()
        and OLD_ADDRESS in path.read_text(encoding="utf-8", errors="replace")
    ]
    assert not with_address, f"files of the built book that name {OLD_ADDRESS}: {with_address}"


def test_buttons_point_at_the_configured_repository(book_html):
    repository = _configured()
    if not repository:
        pytest.skip("MELEARN_REPOSITORY_URL is not set: no buttons are expected")
    chapters = [page for page in _pages(book_html) if page.parent.name == "chapters"]
    for page in chapters:
        found = _scan(page)
        assert any(href.rstrip("/") == repository for href in found.hrefs), f"{page}: no repository button"
        assert any(href.startswith(repository + "/issues") for href in found.hrefs), f"{page}: no issue button"
        strays = [
            href
            for href in found.hrefs
            if href.startswith(LAUNCH_HOSTS) and repository.split("://", 1)[1].split("/", 1)[1] not in href
        ]
        assert not strays, f"{page}: launch buttons for another repository: {strays}"


def test_every_page_has_a_download_button(book_html):
    chapters = [page for page in _pages(book_html) if page.parent.name == "chapters"]
    assert chapters, f"no pages in {book_html / 'chapters'}"
    missing = [page.name for page in chapters if _scan(page).downloads == 0]
    assert not missing, f"pages without a download button: {missing}"
