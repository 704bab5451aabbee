"""The built book as a reader's browser gets it: its pages in reading order and a local web server over the site.

Shared by the browser tests (``tests/book/browser/bookcheck.py``) and ``book/look.py``.

``MELEARN_BOOK_TOC``
    the table of contents whose pages are listed (default: ``_toc.yml`` at the repository root).
"""

from __future__ import annotations

import functools
import http.server
import os
import threading
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent


def _toc_files(node) -> list[str]:
    """Every ``file`` entry of a ``_toc.yml`` (parts, chapters, sections), in reading order."""
    found: list[str] = []
    if isinstance(node, dict):
        for key in ("root", "file"):
            if isinstance(node.get(key), str):
                found.append(node[key])
        for key in ("parts", "chapters", "sections"):
            for child in node.get(key, []) or []:
                found.extend(_toc_files(child))
    return found


def toc_pages() -> list[str]:
    """The document names of the book (root first), without suffix: ``["chapters/intro", ...]``."""
    toc = Path(os.environ.get("MELEARN_BOOK_TOC", REPO / "_toc.yml"))
    pages = [
        Path(name).with_suffix("").as_posix() if Path(name).suffix in {".md", ".ipynb"} else name
        for name in _toc_files(yaml.safe_load(toc.read_text(encoding="utf-8")))
    ]
    return list(dict.fromkeys(pages))


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the signature of the base class
        pass


class LocalServer:
    """``http.server`` over one folder, in a thread, on a free port of 127.0.0.1."""

    def __init__(self, directory: Path):
        handler = functools.partial(_QuietHandler, directory=str(directory))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> LocalServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)
