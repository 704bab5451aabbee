"""What the code of the book says in Chinese: through the catalogues, in Chinese words, with Chinese punctuation.

* **Full-width punctuation.** Chinese takes （…）, ：, ；, 、. The library composes its text from translated pieces
  (a rule's kind and source, a label and its value, a list of names): rendered in Chinese, a chain, a rule list and
  a ledger put no half-width ``:``, ``;`` or ``,`` after a Chinese character and no ``(`` ``)`` around Chinese
  words; nor does any translation in the catalogues of generated text.
* **No English left.** A Chinese translation of generated text keeps no English word but the names, units and code
  listed as ``kept`` in ``locale/zh_CN/terms.toml`` (``reject = True`` is not Chinese; ``拒绝：True`` is).
* **Tables through the catalogues.** A table a page prints (a pandas DataFrame) shows its headers and cells as they
  are unless the page translates them: every cell with words in the stored outputs has a translation, and
  ``book/output_catalogues.py`` (run by the Chinese build on what it built) reports a cell left in English.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import sympy as sp

from book import catalogues, output_catalogues
from melearn import i18n
from melearn.derivation import Derivation, Expectation, Rule, ledger
from melearn.derivation.render import chain_html, chain_text

ROOT = Path(__file__).resolve().parents[2]

GENERATED = [*sorted((ROOT / "locale" / "zh_CN" / "outputs").rglob("*.po")), output_catalogues.LIBRARY_CATALOGUE]


@pytest.fixture
def chinese(monkeypatch):
    """melearn in Chinese, with the catalogues of the book's pages."""
    monkeypatch.setenv(i18n.CATALOGUES_ENV, str(ROOT / "locale" / "zh_CN" / "outputs"))
    i18n.set_language("zh_CN")
    yield
    i18n.set_language("en")


def _visible(html: str) -> str:
    """The text of HTML without its formulas (MathJax reads ``\\(...\\)``; the formulas are not prose)."""
    text = re.sub(r"<span class=\"math[^\"]*\">.*?</span>", " ", html)
    return re.sub(r"<[^>]+>", "", text)


def _checked_chain():
    a, b = sp.symbols("a b", positive=True)
    x = sp.Symbol("x")
    E = Expectation([x])
    mean = Rule.definition("the mean", {sp.Symbol("m"): E(x)}, source="this page")
    return (
        Derivation(E(2 * x) + a * b, lhs="S")
        .step(2 * E(x) + a * b, "split", rules=[E.linearity])
        .step(2 * sp.Symbol("m") + a * b, "the mean", rules=[mean])
    )


def test_the_library_writes_chinese_punctuation_in_chinese(chinese):
    ledger.clear()
    chain = _checked_chain().check()
    ledger.record_simulation("a claim", "every case")
    ledger.record_argument("a claim", "every case")
    shown = {
        "chain": _visible(chain_html(chain, sp.latex)),
        "chain as text": chain_text(chain),
        "rule list": _visible(chain.rule_list()._repr_html_()) + repr(chain.rule_list()),
        "ledger": _visible(ledger.page_ledger()._repr_html_()),
    }
    ledger.clear()
    assert re.search("[\u4e00-\u9fff]", shown["ledger"]), shown  # it is Chinese
    problems = {name: catalogues.half_width_punctuation(text) for name, text in shown.items()}
    assert not any(problems.values()), problems


def test_the_punctuation_check_can_fail():
    assert catalogues.half_width_punctuation("所用假设: a 正; b 整数, 正") == ["设:", "正;", "数,"]
    assert catalogues.half_width_punctuation("（计算；sympy）") == []
    assert catalogues.half_width_punctuation("(计算; sympy)") == ["算;", "(计算; sympy)"]
    assert catalogues.half_width_punctuation("P(拒绝) = 0.05，式 (2.27)，$(a: b)$") == []


@pytest.mark.parametrize("path", GENERATED, ids=lambda p: p.stem)
def test_generated_chinese_has_chinese_punctuation_and_no_english_left(path):
    problems = [p for p in catalogues.problems(path, generated=True) if "half-width" in p or "English left" in p]
    assert not problems, "\n".join(problems)


def test_the_english_check_can_fail():
    assert catalogues.english_left("m = {0}：p 值 = {1}，reject = True") == ["reject"]
    assert catalogues.english_left("roc_auc peak memory / scores，是") == ["peak", "memory", "scores"]
    assert catalogues.english_left("m = {0}：p 值 = {1}，拒绝：True") == []
    assert catalogues.english_left("sympy 计算 sqrt(T) 与 {rule!r}") == []  # a kept name, a call, a placeholder
    assert catalogues.english_left("reject = True") == []  # no Chinese: a line translated as itself


# -- tables ------------------------------------------------------------------------------------------------------
def stored_table_cells() -> list[tuple[str, str]]:
    """The headers and cells with words of every table (``<table class="dataframe">``) in the stored outputs."""
    found = []
    for page in sorted((ROOT / "chapters").rglob("*.ipynb")):
        for cell in json.loads(page.read_text(encoding="utf-8"))["cells"]:
            for output in cell.get("outputs", []):
                table = "".join(output.get("data", {}).get("text/html", ""))
                if 'class="dataframe"' in table:
                    cells, _ = output_catalogues.output_text(f'<div class="cell_output">{table}</div>')
                    found += [(page.stem, text) for text in cells if i18n.needs_translation(text)]
    return found


def test_every_table_cell_with_words_has_a_translation():
    catalogue = output_catalogues.output_catalogue()
    cells = stored_table_cells()
    assert cells, "no table found in the stored outputs"
    missing = [f"{page}: {text!r}" for page, text in cells if not {text, i18n.skeleton(text)[0]} & set(catalogue)]
    assert not missing, "tables the Chinese edition cannot translate:\n" + "\n".join(missing)


def test_the_site_check_reads_table_cells_and_punctuation():
    catalogue = {"TP": "TP", "threshold": "阈值"}
    page = (
        '<p>threshold, outside any output: not read</p><div class="cell_output"><table class="dataframe">'
        "<thead><tr><th></th><th>阈值</th><th>TP</th><th>passes now</th><th>threshold</th></tr></thead>"
        '<tbody><tr><th>0</th><td>0.5</td><td>1</td><td>(none)</td><td><span class="math">\\(x: y\\)</span>'
        "</td></tr></tbody></table><br><div>所用假设: 正</div></div><p>所用假设: 正 (prose)</p>"
    )
    problems = output_catalogues.page_problems(page, catalogue)
    assert problems == [
        "a table cell in English: 'passes now'",
        "a table cell in English: 'threshold'",  # translated in the catalogue, but shown in English
        "a table cell in English: '(none)'",
        "half-width punctuation in Chinese: '设:'",
    ], problems
