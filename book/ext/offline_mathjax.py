"""Serve MathJax 4 from a local copy, so that the built book typesets its formulas offline.

Sphinx loads MathJax from a CDN by default; a reader without network then sees raw TeX. This extension points
``mathjax_path`` at ``_static/mathjax/tex-mml-chtml.js`` and, when an HTML build finishes, copies the pinned copy
of MathJax 4 kept in ``book/vendor/mathjax/`` there (the ``tex-mml-chtml`` component, the TeX extensions it loads on
demand, and the CHTML files of the New Computer Modern font it loads as formulas need them; see
``book/vendor/mathjax/README.md`` for the npm versions and how to refresh them). The files are copied into the
*output* folder, not into the book's static files (``book/static/``), whose every script is loaded by every page.

MathJax 4 fetches its fonts from a CDN unless told otherwise: ``_config.yml``'s ``mathjax3_config`` sets the
loader's ``fonts`` path to ``[mathjax]/fonts``, which is where the copy keeps them, and turns on MathJax 4's line
breaking of display formulas. :func:`_check_config` stops the build when that path is missing, since a page would
then typeset with fonts from the network, or not at all offline.

MathJax is loaded on every page, not only on pages with formulas of their own: the navigation of every page
shows the page titles, some of which contain math (":math:`F_1`", ":math:`t`"), and on a page without formulas
(the references, the search page) those titles would show raw TeX.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

VENDOR = Path(__file__).resolve().parent.parent / "vendor" / "mathjax"
MATHJAX_ENTRY = "mathjax/tex-mml-chtml.js"
FONTS_PATH = "[mathjax]/fonts"
DIGESTS = "SHA256SUMS"
NOT_SERVED = {DIGESTS, "README.md"}  # the copy's own records, not files a page loads


def vendored_files(root: Path = VENDOR) -> dict[str, str]:
    """The recorded sha256 digest of each vendored file, ``{relative path: hex digest}``, from ``SHA256SUMS``."""
    listing = root / DIGESTS
    if not listing.is_file():
        raise RuntimeError(f"MathJax's copy has no {DIGESTS} in {root}; see its README.md")
    digests = {}
    for line in listing.read_text(encoding="utf-8").splitlines():
        if line.strip():
            digest, name = line.split(maxsplit=1)
            digests[name.lstrip("*")] = digest
    return digests


def sha256(path: Path) -> str:
    """The hex sha256 digest of the file ``path``."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _mathjax_copy() -> Path:
    if not (VENDOR / "tex-mml-chtml.js").is_file():
        raise RuntimeError(f"MathJax's tex-mml-chtml.js was not found in {VENDOR}; see its README.md")
    return VENDOR


def _set_path(app, config) -> None:
    config.mathjax_path = MATHJAX_ENTRY  # relative paths are taken relative to the output's _static/


def _check_config(app, config) -> None:
    paths = ((config.mathjax3_config or {}).get("loader") or {}).get("paths") or {}
    if paths.get("fonts") != FONTS_PATH:
        raise RuntimeError(
            f"mathjax3_config must set loader.paths.fonts to {FONTS_PATH!r} (found {paths.get('fonts')!r}): "
            "MathJax 4 would otherwise load its fonts from a CDN"
        )


def _copy_bundle(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    target = Path(app.outdir) / "_static" / "mathjax"
    if target.is_dir():  # no file of an earlier MathJax left beside this one
        shutil.rmtree(target)
    shutil.copytree(
        _mathjax_copy(), target, dirs_exist_ok=True, ignore=lambda folder, names: [n for n in names if n in NOT_SERVED]
    )


def setup(app):
    _mathjax_copy()  # fail at start-up, not after a long build, when the copy is missing
    app.set_html_assets_policy("always")  # MathJax on every page: titles in the navigation contain math
    app.connect("config-inited", _set_path)
    app.connect("config-inited", _check_config)
    app.connect("build-finished", _copy_bundle)
    return {"version": "2.0", "parallel_read_safe": True, "parallel_write_safe": True}
