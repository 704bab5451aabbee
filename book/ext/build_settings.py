"""Two build settings read from the environment: where the repository is, and whether pages are executed.

(And each page's scripts given once: see :func:`_page_scripts`.)

``MELEARN_REPOSITORY_URL``
    The public repository of the book, ``https://github.com/OWNER/NAME`` (or ``https://gitlab.com/OWNER/NAME``).
    Unset or empty (the default), the book shows no repository, issue, Binder or Colab button and links to no
    repository: a button must never lead a reader to an address nobody has checked. Set, the pages get a
    repository button and an issue button, and the notebook pages Binder and (for GitHub) Colab launch buttons,
    on the branch ``repository.branch`` of ``_config.yml``. A value that is not such an address fails the build.

``MELEARN_BOOK_EXECUTION``
    Overrides ``execute.execute_notebooks`` of ``_config.yml`` (``force``: every page is executed by the build).
    ``make test`` sets it to ``off``: the build then renders the outputs stored in the notebooks, and nbval, in
    the same ``make test``, executes every page once and proves that those stored outputs are what the current
    ``melearn`` produces. Accepted values are MyST-NB's execution modes.
"""

from __future__ import annotations

import os
import re

from sphinx.errors import ConfigError

REPOSITORY_ENV = "MELEARN_REPOSITORY_URL"
EXECUTION_ENV = "MELEARN_BOOK_EXECUTION"
EXECUTION_MODES = ("off", "force", "auto", "cache", "inline")
BINDER = "https://mybinder.org"
COLAB = "https://colab.research.google.com"
_REPOSITORY = re.compile(r"^https://(?P<host>github\.com|gitlab\.com)/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")


def repository_options(url: str) -> dict:
    """The theme options that show the repository and launch buttons for ``url`` (empty: none of them)."""
    url = url.strip().rstrip("/")
    if not url:
        return {}
    match = _REPOSITORY.match(url)
    if match is None:
        raise ConfigError(
            f"{REPOSITORY_ENV}={url!r} is not a repository address of the form https://github.com/OWNER/NAME "
            "(or https://gitlab.com/OWNER/NAME); unset it to build the book without repository buttons"
        )
    launch = {"binderhub_url": BINDER}
    if match["host"] == "github.com":  # Colab opens notebooks from GitHub only
        launch["colab_url"] = COLAB
    return {
        "repository_url": url,
        "use_repository_button": True,
        "use_issues_button": True,
        "launch_buttons": launch,
    }


def execution_mode(value: str | None, configured: str) -> str:
    """The MyST-NB execution mode: ``value`` (from the environment) if given, else the configured one."""
    if value is None or not value.strip():
        return configured
    value = value.strip()
    if value not in EXECUTION_MODES:
        raise ConfigError(f"{EXECUTION_ENV}={value!r} is not one of {', '.join(EXECUTION_MODES)}")
    return value


def _apply(app, config) -> None:
    options = dict(config.html_theme_options or {})
    extra = repository_options(os.environ.get(REPOSITORY_ENV, ""))
    if extra:
        launch = dict(options.get("launch_buttons") or {})
        launch.update(extra.pop("launch_buttons"))
        options.update(extra, launch_buttons=launch)
    else:  # no address configured: no repository, issue, edit or launch button, whatever the YAML says
        options["repository_url"] = ""
        options.update(use_repository_button=False, use_issues_button=False, use_edit_page_button=False)
        launch = dict(options.get("launch_buttons") or {})
        for key in ("binderhub_url", "jupyterhub_url", "colab_url", "deepnote_url", "jupyterlite_url"):
            launch[key] = ""
        launch["thebe"] = False
        options["launch_buttons"] = launch
    config.html_theme_options = options
    config.nb_execution_mode = execution_mode(os.environ.get(EXECUTION_ENV), config.nb_execution_mode)


def _thebe_enabled(app) -> bool:
    return bool(((app.config.html_theme_options or {}).get("launch_buttons") or {}).get("thebe"))


def _is_thebe(script) -> bool:
    """sphinx-thebe's two scripts: its settings (``const THEBE_JS_URL = ...``, inline) and ``sphinx-thebe.js``."""
    body = (getattr(script, "attributes", None) or {}).get("body", "") or ""
    return "THEBE_JS_URL" in body or str(getattr(script, "filename", script)).endswith("sphinx-thebe.js")


def _page_scripts(app, pagename, templatename, context, doctree) -> None:
    """Each script once; sphinx-thebe's not at all where no page launches thebe.

    Jupyter Book 1 gives every page two copies of some extensions' inline scripts (sphinx-togglebutton's selector,
    sphinx-thebe's, this book's own), one registered with the file name None and one with "": the second
    ``const THEBE_JS_URL = ...`` threw "Identifier 'THEBE_JS_URL' has already been declared" on every page. No
    launch button of this book starts thebe (``launch_buttons.thebe`` is off), so its scripts are left out; were it
    on, each would be kept once.
    """
    scripts = context.get("script_files")
    if not scripts:
        return
    keep_thebe = _thebe_enabled(app)
    kept, seen = [], set()
    for script in scripts:
        body = (getattr(script, "attributes", None) or {}).get("body", "") or ""
        # an inline script is registered with the file name None by one path and "" by the other: one script
        key = (getattr(script, "filename", str(script)) or "", body)
        if key in seen or (_is_thebe(script) and not keep_thebe):
            continue
        seen.add(key)
        kept.append(script)
    context["script_files"] = kept


def setup(app):
    app.connect("config-inited", _apply, priority=400)  # before the themes read their options (500)
    app.connect("html-page-context", _page_scripts)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
