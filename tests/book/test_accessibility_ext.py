"""The build's accessibility extension (book/ext/accessibility.py), without a build: its pieces one by one."""

from __future__ import annotations

import urllib.parse
from pathlib import Path
from types import SimpleNamespace

import pytest

from .extensions import load_extension

ROOT = Path(__file__).resolve().parents[2]


accessibility = load_extension("accessibility")

# a numbered formula and a chain as Sphinx and melearn write them
BODY = (
    '<div class="math notranslate nohighlight" id="equation-eq-2-20"><span class="eqno">(2.20)'
    '<a class="headerlink" href="#equation-eq-2-20" title="Link to this equation">#</a></span>\\[x\\]</div>'
    '<div class="melearn-chain chain-side chain-checked"><div class="chain-rows">'
    '<span class="chain-tick" title="checked">\u2713</span></div></div>'
)


def _report(body=BODY, language="en", repository="https://github.com/owner/book"):
    return accessibility.report_links(
        body, repository=repository, page="chapters/auc", title="(2.20) AUC", language=language, version="0.1.0"
    )


def test_a_report_link_beside_each_numbered_formula_and_chain_names_formula_page_edition_and_version():
    out = _report()
    assert out.count('class="report-problem"') == 2
    href = out.split('class="report-problem" href="', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(href).query)
    assert href.startswith("https://github.com/owner/book/issues/new?")
    assert query["title"] == ["formula (2.20) on chapters/auc"]
    body = query["body"][0]
    for part in ("formula (2.20)", "Page: chapters/auc ((2.20) AUC)", "Edition: English edition", "Version: 0.1.0"):
        assert part in body
    assert 'aria-label="Report a problem with derivation 1 of this page"' in out


def test_the_chinese_edition_labels_its_report_links_in_chinese():
    out = _report(language="zh_CN")
    assert "报告公式 (2.20) 的问题" in out and "Edition: 中文版" in urllib.parse.unquote(out)


def test_gitlab_issues_are_opened_gitlab_s_way():
    assert "/-/issues/new?issue%5Btitle%5D=" in _report(repository="https://gitlab.com/owner/book")


def test_without_a_repository_no_report_link(monkeypatch):
    page = SimpleNamespace(
        config=SimpleNamespace(language="en", html_theme_options={"repository_url": ""}, root_doc="chapters/intro")
    )
    context = {"body": BODY, "title": "AUC"}
    accessibility._page(page, "chapters/auc", "page.html", context, None)
    assert "report-problem" not in context["body"]
    assert 'role="img" aria-label="checked"' in context["body"]
    page.config.html_theme_options["repository_url"] = "https://github.com/owner/book"
    context = {"body": BODY, "title": "AUC"}
    accessibility._page(page, "chapters/auc", "page.html", context, None)
    assert context["body"].count("report-problem") == 2


def test_the_landing_page_shows_version_and_build_date(monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1780000000")  # 2026-05-28 UTC
    page = SimpleNamespace(config=SimpleNamespace(language="zh_CN", html_theme_options={}, root_doc="chapters/intro"))
    context = {"body": "<p>text</p>", "title": "intro"}
    accessibility._page(page, "chapters/intro", "page.html", context, None)
    assert context["body"].startswith('<p class="book-version" id="book-version">版本 ')
    assert "构建于 2026-05-28" in context["body"]
    import melearn

    assert accessibility.book_version() == melearn.__version__


def test_the_build_date_without_source_date_epoch_is_a_day(monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    day = accessibility.build_date()
    assert len(day) == 10 and day[4] == "-" and day[7] == "-"


def test_a_tick_is_an_image_labelled_with_its_tooltip():
    out = accessibility.tick_html('<span class="chain-tick" title="已检验">\u2713</span>')
    assert out == '<span class="chain-tick" role="img" aria-label="已检验" title="已检验">\u2713</span>'


def test_the_chinese_edition_turns_english_speech_off_and_keeps_the_hidden_mathml():
    settings = {"speech": True, "braille": True, "assistiveMml": True, "inTabOrder": False}
    config = SimpleNamespace(language="zh_CN", mathjax3_config={"options": {"menuOptions": {"settings": settings}}})
    accessibility._chinese_formulas(None, config)
    got = config.mathjax3_config["options"]["menuOptions"]["settings"]
    assert got["speech"] is False and got["braille"] is False and got["assistiveMml"] is True
    assert got["inTabOrder"] is False
    english = SimpleNamespace(language="en", mathjax3_config={"options": {"menuOptions": {"settings": dict(settings)}}})
    accessibility._chinese_formulas(None, english)
    assert english.mathjax3_config["options"]["menuOptions"]["settings"]["speech"] is True


def _render(metadata):
    """MyST-NB's image renderer, wrapped by the extension, on a PNG output with ``metadata``."""
    import base64

    from myst_nb.core.render import MimeData, NbElementRenderer

    accessibility._wrap_render_image()  # as the extension's setup does
    warnings = []
    renderer = NbElementRenderer.__new__(NbElementRenderer)
    renderer._renderer = SimpleNamespace(
        get_cell_level_config=lambda *a, **k: {},
        sphinx_env=SimpleNamespace(config=SimpleNamespace(language="en")),
    )
    renderer._logger = SimpleNamespace(warning=lambda msg, **k: warnings.append(msg))
    renderer.write_file = lambda *a, **k: "image.png"
    data = MimeData("image/png", base64.b64encode(b"png").decode(), output_metadata=metadata, cell_metadata={}, line=1)
    return NbElementRenderer.render_image(renderer, data), warnings


def test_a_described_figure_gets_its_alt_and_a_description_box():
    nodes, warnings = _render({"image/png": {"alt": "ROC curve of 8 samples", "description": "Panel 1: more."}})
    assert nodes[0]["alt"] == "ROC curve of 8 samples" and not warnings
    assert '<details class="figure-description"><summary>Description of the figure</summary>' in nodes[1].astext()


def test_a_figure_without_words_is_a_warning():
    nodes, warnings = _render({})
    assert "alt" not in nodes[0].attributes or not nodes[0]["alt"]
    assert warnings and "no alt text" in warnings[0]


@pytest.mark.parametrize("text", ["a < b & c", "line one\nline two"])
def test_description_text_is_escaped_and_kept_in_paragraphs(text):
    box = accessibility.description_html(text, "Description")
    assert "<b" not in box.replace("<summary", "").replace("<details", "") or "&lt;" in box
    assert box.count("<p>") == len(text.splitlines())
