"""The book's own copy of MathJax 4 (``book/vendor/mathjax``) and the extension that serves it
(``book/ext/offline_mathjax``).

The copy must be exactly the pinned npm files (each matches the digest recorded in ``SHA256SUMS``, and nothing
unrecorded sits beside them), must hold every font face its component asks for, and the book's configuration must
keep MathJax's fonts local and its display formulas breaking. The browser tests (``tests/book/browser``) check the
result on the built pages: no request leaves the machine, every formula is typeset.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from .extensions import load_extension

ROOT = Path(__file__).resolve().parents[2]
VENDOR = ROOT / "book" / "vendor" / "mathjax"
WOFF2 = VENDOR / "fonts" / "mathjax-newcm-font" / "chtml" / "woff2"
PINNED_VERSION = "4.1.3"


offline_mathjax = load_extension("offline_mathjax")


def _book_mathjax_config() -> dict:
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    return config["sphinx"]["config"]["mathjax3_config"]


def test_every_vendored_file_matches_its_recorded_digest():
    recorded = offline_mathjax.vendored_files()
    assert "tex-mml-chtml.js" in recorded and len(recorded) > 100
    changed = sorted(name for name, digest in recorded.items() if offline_mathjax.sha256(VENDOR / name) != digest)
    assert not changed, f"vendored MathJax files differ from SHA256SUMS: {changed}"


def test_no_unrecorded_file_in_the_copy():
    recorded = set(offline_mathjax.vendored_files())
    present = {p.relative_to(VENDOR).as_posix() for p in VENDOR.rglob("*") if p.is_file()}
    assert present - offline_mathjax.NOT_SERVED == recorded


def test_the_copy_is_the_pinned_mathjax_4():
    component = (VENDOR / "tex-mml-chtml.js").read_text(encoding="utf-8")
    assert f'"{PINNED_VERSION}"' in component
    readme = (VENDOR / "README.md").read_text(encoding="utf-8")
    assert f"npm pack mathjax@{PINNED_VERSION} @mathjax/mathjax-newcm-font@{PINNED_VERSION}" in readme


def test_every_font_face_the_component_declares_is_in_the_copy():
    sources = [VENDOR / "tex-mml-chtml.js", *sorted((WOFF2.parent / "dynamic").glob("*.js"))]
    faces = set()
    for source in sources:
        faces.update(re.findall(r"%%URL%%/([a-z0-9-]+\.woff2)", source.read_text(encoding="utf-8")))
    assert len(faces) > 20
    missing = sorted(face for face in faces if not (WOFF2 / face).is_file())
    assert not missing, f"font faces MathJax would fetch but the copy lacks: {missing}"


def test_book_config_loads_fonts_locally_and_breaks_display_formulas():
    config = _book_mathjax_config()
    assert config["loader"]["paths"]["fonts"] == offline_mathjax.FONTS_PATH
    assert config["output"]["displayOverflow"] == "linebreak"
    assert config["output"]["linebreaks"]["width"] == "100%"
    # speech and Braille on (MathJax 4's defaults, not switched off), formulas out of the tab order
    settings = config["options"]["menuOptions"]["settings"]
    assert settings["speech"] is True and settings["braille"] is True and settings["inTabOrder"] is False
    assert config["options"].get("enableSpeech", True) and config["options"].get("enableBraille", True)


def test_the_copy_holds_the_speech_worker_and_the_rules_the_book_uses():
    """Speech and Braille run in a web worker that loads its rule files from the copy: English and Nemeth."""
    for name in ("sre/speech-worker.js", "sre/mathmaps/base.json", "sre/mathmaps/en.json", "sre/mathmaps/nemeth.json"):
        assert (VENDOR / name).is_file(), name
    for component in ("speech", "sre", "semantic-enrich", "explorer"):
        assert (VENDOR / "a11y" / f"{component}.js").is_file(), component
    component = (VENDOR / "tex-mml-chtml.js").read_text(encoding="utf-8")
    assert "speech-worker.js" in component  # the worker the component starts, by that name


@pytest.mark.parametrize("mathjax3_config", [None, {}, {"loader": {"paths": {"fonts": "https://cdn.example/npm"}}}])
def test_a_config_without_the_local_font_path_stops_the_build(mathjax3_config):
    with pytest.raises(RuntimeError, match="loader.paths.fonts"):
        offline_mathjax._check_config(None, SimpleNamespace(mathjax3_config=mathjax3_config))


def test_the_book_config_passes_the_check():
    offline_mathjax._check_config(None, SimpleNamespace(mathjax3_config=_book_mathjax_config()))


def test_an_html_build_gets_the_copy_and_only_it(tmp_path):
    stale = tmp_path / "_static" / "mathjax" / "es5" / "tex-mml-chtml.js"  # left by an earlier MathJax
    stale.parent.mkdir(parents=True)
    stale.write_text("// MathJax 3", encoding="utf-8")
    app = SimpleNamespace(outdir=str(tmp_path), builder=SimpleNamespace(format="html"))
    offline_mathjax._copy_bundle(app, None)
    served = tmp_path / "_static" / "mathjax"
    copied = {p.relative_to(served).as_posix() for p in served.rglob("*") if p.is_file()}
    assert copied == set(offline_mathjax.vendored_files())
    assert (served / "tex-mml-chtml.js").read_bytes() == (VENDOR / "tex-mml-chtml.js").read_bytes()


def test_a_failed_or_non_html_build_gets_nothing(tmp_path):
    html, latex = SimpleNamespace(format="html"), SimpleNamespace(format="latex")
    offline_mathjax._copy_bundle(SimpleNamespace(outdir=str(tmp_path), builder=html), OSError())
    offline_mathjax._copy_bundle(SimpleNamespace(outdir=str(tmp_path), builder=latex), None)
    assert not (tmp_path / "_static").exists()
