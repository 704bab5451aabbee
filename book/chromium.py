"""The headless Chromium the book is printed and tested with: one list of launch flags, one executable.

Both ``book/build_pdf.py`` (which prints the PDFs) and ``tests/book/browser/`` (which read the built site) launch
Chromium through Playwright with these settings, so the PDF and the tests see the same browser.

``MELEARN_CHROMIUM``
    the Chromium executable (default: ``/usr/bin/chromium``, Debian's ``chromium`` package).
"""

from __future__ import annotations

import os

# no sandbox (containers and CI runners have no user namespaces), no GPU, and no network: no background request
# of Chromium's own, and no host name resolves but 127.0.0.1 (where the tests serve the book), so a page that asks
# for anything elsewhere gets nothing, online or not (the browser tests report such a request; the book is read
# offline)
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
)
EXECUTABLE_ENV = "MELEARN_CHROMIUM"
DEFAULT_EXECUTABLE = "/usr/bin/chromium"


def chromium_executable() -> str:
    """The Chromium to launch: ``MELEARN_CHROMIUM`` if set, else Debian's ``/usr/bin/chromium``."""
    return os.environ.get(EXECUTABLE_ENV, "").strip() or DEFAULT_EXECUTABLE
