"""Build one edition of the book, English (``en``) or Chinese (``zh_CN``), as a site or as one page for the PDF.

    python tools/build_edition.py zh_CN                      # the Chinese site, into _build/html/zh
    python tools/build_edition.py en --builder singlehtml    # the English book as one HTML page (for the PDF)
    python tools/build_edition.py zh_CN --builder gettext    # (en only) extract the messages to translate

Both editions are built from the same ``_config.yml``, ``_toc.yml`` and pages, strictly (``-n -W --keep-going``,
every page re-read). The Chinese edition differs in three settings only, given to Sphinx as overrides: the
language (``zh_CN``: Sphinx translates every message from ``locale/zh_CN/LC_MESSAGES/``), the title, and the
execution cache. Its pages are executed with ``MELEARN_LANGUAGE=zh_CN`` in the environment, so the kernels print
and draw in Chinese (``melearn.i18n``).

Execution (``--execution``, MyST-NB's modes): ``off`` renders the outputs stored in the notebooks (English);
``cache`` executes each page once per edition and keeps the result in ``_build/.jupyter_cache/<language>``, so the
site and the single page of one edition execute every page once between them; ``force`` executes every page.
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
TITLES = {"en": None, "zh_CN": "模型评估与选择：每一步都经过检验"}
SITE_DIRS = {"en": ROOT / "_build" / "html", "zh_CN": ROOT / "_build" / "html" / "zh"}


def output_dir(language: str, builder: str) -> Path:
    """Where ``builder`` writes ``language``'s edition."""
    if builder == "html":
        return SITE_DIRS[language]
    return ROOT / "_build" / builder / language


def execution_inputs_digest() -> str:
    """A digest of what a page's outputs depend on besides its code: melearn, the output catalogues, the lock file.

    jupyter-cache keys a page on its code cells alone, so the cache of an edition lives in a directory named after
    this digest: a change in the library or in a translation of its output executes the pages again.
    """
    import hashlib

    digest = hashlib.sha256()
    files = [*sorted((ROOT / "melearn").rglob("*.py")), *sorted((ROOT / "melearn").rglob("*.po"))]
    files += [*sorted((ROOT / "locale").glob("*/outputs/**/*.po")), ROOT / "requirements" / "lock.txt"]
    for path in files:
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


def build(language: str, builder: str = "html", execution: str | None = None, out: Path | None = None) -> int:
    """Build one edition strictly; return Sphinx's exit status (0: no warning, no error)."""
    from jupyter_book.sphinx import build_sphinx  # the book's toolchain, not needed to import this module

    if language not in LANGUAGES:
        raise SystemExit(f"language must be one of {', '.join(LANGUAGES)}, not {language!r}")
    execution = execution or ("off" if language == "en" else "cache")
    os.environ["MELEARN_BOOK_EXECUTION"] = execution  # read by _ext/build_settings.py
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
    # each build its own environment: a site, its single page and a private check build never share one
    doctrees = (
        outdir.parent / f".doctrees-{outdir.name}"
        if out
        else ROOT / "_build" / ".doctrees-editions" / f"{language}-{builder}"
    )
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
        force_all=True,
    )
    status = result if isinstance(result, int) else 1
    if language != "en" and execution != "off" and missing.exists() and missing.read_text(encoding="utf-8").strip():
        texts = sorted({line for line in missing.read_text(encoding="utf-8").splitlines()})
        print(f"{len(texts)} generated texts have no {language} translation (tools/output_catalogues.py collect):")
        print("\n".join(texts[:50]))
        status = status or 1
        # forget this execution, so that the next build executes every page again and finds them again
        shutil.rmtree(cache_dir(language), ignore_errors=True)
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
