"""Build one edition of the book, English (``en``) or Chinese (``zh_CN``), as a site or as one page for the PDF.

    python -m book.build_edition zh_CN                      # the Chinese site, into _build/html/zh
    python -m book.build_edition en --builder singlehtml    # the English book as one HTML page (for the PDF)
    python -m book.build_edition zh_CN --builder gettext    # (en only) extract the messages to translate

Both editions are built from the same ``_config.yml``, ``_toc.yml`` and pages, strictly (``-n -W --keep-going``).
A site build reads every page afresh, so no warning is ever stale. The one page for the PDF (``singlehtml``) is
written from the environment the edition's site build read (the same doctrees, kept per language), so a page is
read and executed once per edition: Sphinx re-reads only a page changed since, or every page if a setting that
the reading depends on changed (the execution mode, say). It reuses that environment only if the site build that
read it succeeded (``read-cleanly`` in the doctrees): a warning given while reading fails the site build, and is
given again by a one-page build that has to read the pages itself.

The Chinese edition differs in three settings only, given to Sphinx as overrides: the language (``zh_CN``: Sphinx
translates every message from ``locale/zh_CN/LC_MESSAGES/``), the title, and the execution cache. Its pages are
executed with ``MELEARN_LANGUAGE=zh_CN`` in the environment, so the kernels print and draw in Chinese
(``melearn.i18n``).

Execution (``--execution``, MyST-NB's modes): ``off`` renders the outputs stored in the notebooks (English);
``cache`` executes each page once per edition and keeps the result in ``_build/.jupyter_cache/<language>``, so the
site and the single page of one edition execute every page once between them (the single page reuses what the
site read, or else takes each page from the cache); ``force`` executes every page.
The default is ``off`` for English and ``cache`` for Chinese.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("en", "zh_CN")
TITLES = {"en": None, "zh_CN": "模型评估与选择：推导与检验"}
SITE_DIRS = {"en": ROOT / "_build" / "html", "zh_CN": ROOT / "_build" / "html" / "zh"}


def output_dir(language: str, builder: str) -> Path:
    """Where ``builder`` writes ``language``'s edition."""
    if builder == "html":
        return SITE_DIRS[language]
    return ROOT / "_build" / builder / language


def execution_inputs() -> list[Path]:
    """The files a page's outputs depend on besides its code.

    melearn (its code, its catalogue and the files it embeds in outputs: the explorers' script and style), the
    output catalogues, the lock file.
    """
    files = [path for suffix in ("py", "po", "js", "css") for path in sorted((ROOT / "melearn").rglob(f"*.{suffix}"))]
    return [*files, *sorted((ROOT / "locale").glob("*/outputs/**/*.po")), ROOT / "requirements" / "lock.txt"]


def execution_inputs_digest() -> str:
    """A digest of :func:`execution_inputs`.

    jupyter-cache keys a page on its code cells alone, so the cache of an edition lives in a directory named after
    this digest: a change in the library or in a translation of its output executes the pages again.
    """
    import hashlib

    digest = hashlib.sha256()
    for path in execution_inputs():
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def cache_dir(language: str) -> Path:
    """The execution cache of ``language``'s edition for the current melearn and catalogues."""
    return ROOT / "_build" / ".jupyter_cache" / f"{language}-{execution_inputs_digest()}"


def overrides(language: str) -> dict:
    """The Sphinx settings in which ``language``'s edition differs from ``_config.yml``."""
    settings: dict = {
        # what `jupyter-book build . -n` passes for a whole book
        "external_toc_path": str(ROOT / "_toc.yml"),
        "latex_individualpages": False,
        "nitpicky": True,
        "nb_execution_cache_path": str(cache_dir(language)),
    }
    if language != "en":
        settings["language"] = language
    if TITLES[language]:
        settings["html_title"] = TITLES[language]
    if language == "zh_CN":  # the words MyST-NB and the theme take from the configuration, not from a catalogue
        settings.update(nb_code_prompt_show="显示代码", nb_code_prompt_hide="隐藏代码", author="melearn 的作者们")
    return settings


def doctree_dir(language: str, builder: str, out: Path | None = None) -> Path:
    """Where a build of ``language`` with ``builder`` keeps its environment (the pages as read).

    The site (``html``) and the one page (``singlehtml``) of an edition share one; the message catalogues
    (``gettext``) need their own (Sphinx versions its nodes for them), and so does a build into ``out``.
    """
    if out is not None:
        outdir = out.resolve()
        return outdir.parent / f".doctrees-{outdir.name}"
    shared = builder in ("html", "singlehtml")
    return ROOT / "_build" / ".doctrees-editions" / (language if shared else f"{language}-{builder}")


READ_CLEANLY = "read-cleanly"  # in a doctree directory: the build that last used it succeeded


def build(
    language: str,
    builder: str = "html",
    execution: str | None = None,
    out: Path | None = None,
    fresh: bool | None = None,
) -> int:
    """Build one edition strictly; return Sphinx's exit status (0: no warning, no error).

    ``fresh``: read every page again (the default, except for ``singlehtml``, which reuses the environment of
    the edition's last successful build when there is one).
    """
    from jupyter_book.sphinx import build_sphinx  # the book's toolchain, not needed to import this module

    if language not in LANGUAGES:
        raise SystemExit(f"language must be one of {', '.join(LANGUAGES)}, not {language!r}")
    execution = execution or ("off" if language == "en" else "cache")
    os.environ["MELEARN_BOOK_EXECUTION"] = execution  # read by book/ext/build_settings.py
    import melearn  # noqa: F401  (imported before the language is set: the build's own process stays in English,
    #                  though autodoc imports melearn in it; only the kernels, started later, inherit the setting)

    os.environ["MELEARN_LANGUAGE"] = language  # inherited by the kernels that execute the pages
    missing = cache_dir(language) / "missing-text.jsonl"
    if language != "en":
        missing.parent.mkdir(parents=True, exist_ok=True)
        missing.unlink(missing_ok=True)  # a page taken from the cache was checked when it ran (see below)
        os.environ["MELEARN_CATALOGUES"] = str(ROOT / "locale" / language / "outputs")
        os.environ["MELEARN_MISSING_TEXT"] = str(missing)  # every text the kernels could not translate
    outdir = (out or output_dir(language, builder)).resolve()
    doctrees = doctree_dir(language, builder, out)
    stamp = doctrees / READ_CLEANLY
    if fresh is None:
        fresh = not (builder == "singlehtml" and stamp.is_file())
    reused = "" if fresh else stamp.read_text(encoding="utf-8").strip()
    print(f"{language} {builder}: " + (f"writing the pages as read by {reused}" if reused else "reading every page"))
    stamp.unlink(missing_ok=True)
    result = build_sphinx(
        str(ROOT),
        str(outdir),
        path_config=str(ROOT / "_config.yml"),
        noconfig=True,
        confoverrides=overrides(language),
        doctreedir=str(doctrees),
        builder=builder,
        warningiserror=True,
        keep_going=True,
        # every page written; but a build that reuses the pages as read must not compile every catalogue again
        # either (force_all does): each page depends on its catalogue, so all would be read again
        force_all=fresh,
        freshenv=fresh,
    )
    status = result if isinstance(result, int) else 1
    if language != "en" and execution != "off" and missing.exists() and missing.read_text(encoding="utf-8").strip():
        texts = sorted({line for line in missing.read_text(encoding="utf-8").splitlines()})
        print(f"{len(texts)} generated texts have no {language} translation (book/output_catalogues.py collect):")
        print("\n".join(texts[:50]))
        status = status or 1
        # forget this execution, so that the next build executes every page again and finds them again
        shutil.rmtree(cache_dir(language), ignore_errors=True)
    if language != "en" and execution != "off" and builder == "html":
        from .output_catalogues import site_problems  # what the pages show beside melearn.i18n (table cells)

        shown = site_problems(outdir, language)
        if shown:
            print(f"{len(shown)} outputs show English or half-width punctuation in the {language} edition:")
            print("\n".join(shown[:50]))
            status = status or 1
    if status == 0:
        stamp.write_text(f"the {builder} build ({execution})\n", encoding="utf-8")
    print(f"{language} {builder}: {'built' if status == 0 else 'FAILED'} into {outdir}")
    return status


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("language", choices=LANGUAGES)
    parser.add_argument("--builder", default="html", help="html (default), singlehtml or gettext")
    parser.add_argument("--execution", choices=("off", "cache", "force"), default=None)
    parser.add_argument("--out", type=Path, default=None, help="output directory (default: see output_dir)")
    args = parser.parse_args(argv)
    return build(args.language, args.builder, args.execution, args.out)


if __name__ == "__main__":
    sys.exit(main())
