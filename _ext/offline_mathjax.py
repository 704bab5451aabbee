"""Serve MathJax from a local copy, so that the built book typesets its formulas offline.

Sphinx loads MathJax 3 from a CDN by default; a reader without network then sees raw TeX. This extension points
``mathjax_path`` at ``_static/mathjax/tex-mml-chtml.js`` and, when an HTML build finishes, copies MathJax's
``es5`` bundle there from the pinned ``django-static-mathjax`` package (which ships the MathJax 3 files and needs
no Django). The files are copied into the *output* folder, not into a ``_static/`` of the book: Jupyter Book 1
would inject every ``.js`` it finds there into every page.

MathJax is loaded on every page, not only on pages with formulas of their own: the navigation of every page
shows the page titles, some of which contain math (":math:`F_1`", ":math:`t`"), and on a page without formulas
(the references, the search page) those titles would show raw TeX.
"""

from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path

MATHJAX_ENTRY = "mathjax/tex-mml-chtml.js"


def _mathjax_es5() -> Path:
    bundle = Path(str(resources.files("mathjax"))) / "static" / "mathjax" / "es5"
    if not (bundle / "tex-mml-chtml.js").is_file():
        raise RuntimeError(f"MathJax's es5 bundle was not found in {bundle}; install django-static-mathjax")
    return bundle


def _set_path(app, config) -> None:
    config.mathjax_path = MATHJAX_ENTRY  # relative paths are taken relative to the output's _static/


def _copy_bundle(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    target = Path(app.outdir) / "_static" / "mathjax"
    shutil.copytree(_mathjax_es5(), target, dirs_exist_ok=True)


def setup(app):
    _mathjax_es5()  # fail at start-up, not after a long build, when the bundle is missing
    app.set_html_assets_policy("always")  # MathJax on every page: titles in the navigation contain math
    app.connect("config-inited", _set_path)
    app.connect("build-finished", _copy_bundle)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
