"""melearn.i18n: the one setting that chooses the language of generated text, and what it changes.

Each test that switches to Chinese runs in a fresh interpreter with ``MELEARN_LANGUAGE=zh_CN`` (as the kernels of
the Chinese build do), with a catalogue written for the test. Text is translated only where the code asks for it
(``say``, ``tr``, the derivations, ``melearn.plotting``): nothing else in the process changes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from melearn import i18n

from ..book.browser.bookcheck import skip_or_fail

REPO = Path(__file__).resolve().parents[2]

CATALOGUE = r"""
msgid ""
msgstr ""
"Content-Type: text/plain; charset=utf-8\n"

msgid "AUC = {0} from {1} pairs"
msgstr "AUC = {0}，共 {1} 对"

msgid "the area under the segment"
msgstr "线段下的面积"

#, fuzzy
msgid "a stale entry"
msgstr "过时的译文"

msgid "false positive rate"
msgstr "假正例率"

msgid ""
"a message on "
"two lines"
msgstr ""
"分两行"
"的消息"
"""


def run_chinese(code: str, tmp_path: Path) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh Python with MELEARN_LANGUAGE=zh_CN and the test catalogue."""
    (tmp_path / "outputs").mkdir(exist_ok=True)
    (tmp_path / "outputs" / "page.po").write_text(CATALOGUE, encoding="utf-8")
    env = {
        **os.environ,
        i18n.LANGUAGE_ENV: "zh_CN",
        i18n.CATALOGUES_ENV: str(tmp_path / "outputs"),
        i18n.MISSING_ENV: str(tmp_path / "missing.jsonl"),
        "MPLBACKEND": "Agg",
    }
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], env=env, capture_output=True, text=True, check=True, cwd=REPO
    )


def test_english_is_the_identity_and_reads_no_catalogue(monkeypatch):
    monkeypatch.setattr(i18n, "_state", {"language": "en", "catalogue": None})
    assert i18n.translate("AUC = 0.5 from 4 pairs") == "AUC = 0.5 from 4 pairs"
    assert i18n.template("step {k}") == "step {k}"
    assert i18n._state["catalogue"] is None  # nothing was looked up


def test_read_po_skips_fuzzy_and_joins_continued_lines(tmp_path):
    path = tmp_path / "x.po"
    path.write_text(CATALOGUE, encoding="utf-8")
    entries = i18n.read_po(path)
    assert entries["the area under the segment"] == "线段下的面积"
    assert entries["a message on two lines"] == "分两行的消息"
    assert "a stale entry" not in entries  # a fuzzy translation is not used
    assert "" not in entries  # the header


def test_skeleton_numbers_and_words():
    assert i18n.skeleton("AUC = 0.875 from 16 pairs") == ("AUC = {0} from {1} pairs", ["0.875", "16"])
    assert i18n.skeleton("p = 1.5e-07") == ("p = {0}", ["1.5e-07"])
    assert not i18n.needs_translation(r"$\frac{1}{2}$ 0.5 (2.20)")
    assert i18n.needs_translation("by (2.20)")
    assert not i18n.needs_translation(r"\frac{a}{b}")


def test_unknown_language_is_refused():
    with pytest.raises(ValueError, match="language must be one of en, zh_CN"):
        i18n.set_language("fr")


def test_chinese_translates_exact_skeleton_and_records_what_is_missing(tmp_path):
    result = run_chinese(
        """
        from melearn.i18n import translate, template
        print(translate("the area under the segment"))
        print(translate("AUC = 0.875 from 16 pairs"))
        print(translate("a stale entry"))
        print(translate("no translation for 3 of these"))
        print(translate("0.5"))
        """,
        tmp_path,
    )
    assert result.stdout.splitlines() == [
        "线段下的面积",
        "AUC = 0.875，共 16 对",
        "a stale entry",  # fuzzy: left in English, and recorded
        "no translation for 3 of these",
        "0.5",  # no words: nothing to translate, nothing recorded
    ]
    missing = [json.loads(line) for line in (tmp_path / "missing.jsonl").read_text(encoding="utf-8").splitlines()]
    assert list(dict.fromkeys(m["skeleton"] for m in missing)) == ["a stale entry", "no translation for {0} of these"]


def test_chinese_changes_nothing_it_does_not_own(tmp_path):
    result = run_chinese(
        """
        import builtins, matplotlib, matplotlib.text
        before = (builtins.print, matplotlib.text.Text.set_text, dict(matplotlib.rcParams))
        import melearn, melearn.i18n, melearn.plotting
        from melearn.plotting.roc_curve import plot_roc
        fig, ax = melearn.plotting.subplots()
        plot_roc(ax, [1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1])
        fig.canvas.draw()
        after = (builtins.print, matplotlib.text.Text.set_text, dict(matplotlib.rcParams))
        print(before[0] is after[0], before[1] is after[1], before[2] == after[2])
        """,
        tmp_path,
    )
    assert result.stdout.split() == ["True", "True", "True"]


def test_chinese_say_tr_and_figure_labels(tmp_path):
    result = run_chinese(
        """
        from melearn.i18n import say, tr
        from melearn.plotting import subplots
        from melearn.plotting._axes import font_family
        print("AUC =", 0.5, "from", 2, "pairs")  # print is Python's own: not translated
        say("the area under the segment", "AUC = 1 from 3 pairs")
        fig, ax = subplots()
        ax.set_xlabel(tr("false positive rate"))
        ax.plot([0, 1], [0, 1], label=tr("the area under the segment"))
        legend = ax.legend()
        fig.canvas.draw()
        print("LABEL", ax.get_xlabel(), "|", legend.get_texts()[0].get_text())
        families = {tuple(t.get_fontfamily()) for t in fig.findobj(lambda a: hasattr(a, "get_fontfamily"))}
        print("FONT", families == {tuple(font_family())})
        """,
        tmp_path,
    )
    lines = result.stdout.splitlines()
    assert lines[:3] == ["AUC = 0.5 from 2 pairs", "线段下的面积", "AUC = 1，共 3 对"]
    assert lines[3] == "LABEL 假正例率 | 线段下的面积"
    assert lines[4] == "FONT True"  # every text of the figure (ticks and legend included) in the CJK family


def test_chinese_plotting_translates_its_own_labels_and_sets_its_font(tmp_path):
    result = run_chinese(
        """
        import json
        import matplotlib.pyplot as plt
        from melearn.plotting._axes import font_family
        from melearn.plotting.roc_curve import plot_roc
        fig, ax = plt.subplots()  # a plain matplotlib figure: the plotting function sets the font of its text
        plot_roc(ax, [1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1])
        texts = [ax.get_xlabel(), ax.get_ylabel(), *(t.get_text() for t in ax.get_legend().get_texts())]
        fonts = [ax.xaxis.label.get_fontfamily(), *(t.get_fontfamily() for t in ax.get_legend().get_texts())]
        print(json.dumps({"texts": texts, "fonts": fonts, "family": font_family()}, ensure_ascii=False))
        """,
        tmp_path,
    )
    drawn = json.loads(result.stdout)
    library = i18n.read_po(i18n.PACKAGE_LOCALE / "zh_CN" / "melearn.po")
    assert drawn["texts"] and set(drawn["texts"]) <= set(library.values()), drawn["texts"]
    assert drawn["fonts"] == [drawn["family"]] * len(drawn["fonts"])
    assert drawn["family"][-1] == "sans-serif" and set(drawn["family"][:-1]) <= set(i18n.CJK_FONTS)
    assert not (tmp_path / "missing.jsonl").exists()


def test_a_cjk_font_is_installed_for_the_chinese_figures(tmp_path):
    """The family above starts with a CJK font only where one is installed (.ci/run installs WenQuanYi Micro Hei).

    Without one, Chinese figures fall back to matplotlib's sans-serif and draw their Chinese text as boxes: a
    developer's machine skips this loudly, CI=true fails it.
    """
    result = run_chinese("from melearn.plotting._axes import font_family; print(font_family()[0])", tmp_path)
    if result.stdout.strip() not in i18n.CJK_FONTS:
        skip_or_fail(f"no CJK font of {i18n.CJK_FONTS} installed: install fonts-wqy-microhei (.ci/run does)")


def test_chinese_derivation_reasons_and_refusals(tmp_path):
    result = run_chinese(
        """
        import sympy as sp
        from melearn.derivation import Derivation, show_refusal
        x = sp.Symbol("x")
        twice = sp.Add(x, x, evaluate=False)
        d = Derivation(twice).step(2 * x, "the area under the segment").check()
        print(d.latex())
        wrong = Derivation(twice).step(3 * x, "the area under the segment")
        refusal = show_refusal(wrong)
        """,
        tmp_path,
    )
    assert r"\text{线段下的面积}" in result.stdout
    assert "the area under the segment" not in result.stdout
    # the refusal is worded by the library's own catalogue: its template, with the step's translated reason
    library = i18n.read_po(i18n.PACKAGE_LOCALE / "zh_CN" / "melearn.po")
    refused = library["refused: {refusal}"].split("{refusal}")[0]
    step = library["step {k} ({why})"].format(k=1, why=repr("线段下的面积"))
    refusal_line = [line for line in result.stdout.splitlines() if line.startswith(refused)]
    assert refusal_line and step in refusal_line[0], result.stdout


def _imports_of_the_pages() -> list[tuple[str, str, str]]:
    """(page, module, name) for every ``from module import name`` in the pages' code cells."""
    import ast

    found = []
    for page in sorted((REPO / "chapters").rglob("*.ipynb")):
        cells = json.loads(page.read_text(encoding="utf-8"))["cells"]
        for cell in cells:
            if cell["cell_type"] != "code":
                continue
            source = "".join(cell["source"])
            lines = [line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))]
            for node in ast.walk(ast.parse("\n".join(lines))):
                if isinstance(node, ast.ImportFrom):
                    found.extend((page.name, node.module, alias.name) for alias in node.names)
    return found


def test_say_and_tr_have_one_door():
    """The pages print in the reader's language with ``say`` and ``tr`` from ``melearn.i18n``, and from nowhere else."""
    import melearn.derivation
    import melearn.derivation.display

    for package in (melearn, melearn.derivation, melearn.derivation.display):
        assert not hasattr(package, "say") and not hasattr(package, "tr"), package.__name__
    imports = _imports_of_the_pages()
    doors = {module for _, module, name in imports if name in ("say", "tr")}
    assert doors == {"melearn.i18n"}
    assert sum(1 for _, _, name in imports if name == "say") >= 20  # the check reads the pages' imports
