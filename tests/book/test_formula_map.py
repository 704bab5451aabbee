"""The landing page's formula map: every formula (2.1)-(2.42) linked to the one page that restates and checks it.

The map's first column is generated from the pages' own labels (``book/formula_map.py``), so a formula that no
page labels, or one labelled on two pages, or a map that has fallen behind the pages, fails here.
"""

from __future__ import annotations

import re

from book import formula_map, ledger_table

CHAPTER_2 = [f"eq-2-{n}" for n in range(1, 43)]


def map_rows() -> list[str]:
    text = formula_map.INTRO.read_text(encoding="utf-8")
    table = text.split(formula_map.START, 1)[1].split(formula_map.END, 1)[0]
    return table.strip().splitlines()[2:]


def test_every_formula_of_chapter_2_is_restated_on_exactly_one_page():
    labelled = formula_map.labelled_formulas()
    missing = [label for label in CHAPTER_2 if label not in labelled]
    twice = {label: pages for label, pages in labelled.items() if len(pages) > 1}
    assert not missing, f"no page of the book restates {missing}"
    assert not twice, f"formulas labelled on more than one page: {twice}"


def test_every_formula_is_linked_from_the_map_in_the_row_of_its_page():
    labelled = formula_map.labelled_formulas()
    rows = map_rows()
    for label in CHAPTER_2:
        page = labelled[label][0]
        row = next((r for r in rows if f"]({page}.ipynb)" in r), None)
        assert row is not None, f"the formula map has no row for {page}, which restates {label}"
        first = re.split(r"(?<!\\)\|", row.strip()[1:-1])[0]
        assert f"{{eq}}`{label}`" in first, f"{label} is not linked in the row of {page}: {first!r}"


def test_the_map_is_up_to_date():
    assert formula_map.main(["--check"]) == 0, "run python -m book.formula_map"


def test_the_map_is_generated_from_the_labels(tmp_path, monkeypatch):
    """A row gets the formulas its page labels, in number order; a row whose page labels none keeps its cell."""
    chapters = tmp_path / "chapters"
    chapters.mkdir()
    page = '{"cells": [{"cell_type": "markdown", "source": ["$$ x $$ (eq-2-10)\\n", "$$ y $$ (eq-2-9)"]}]}'
    (chapters / "a.ipynb").write_text(page, encoding="utf-8")
    (chapters / "b.ipynb").write_text('{"cells": []}', encoding="utf-8")
    monkeypatch.setattr(formula_map, "INTRO", chapters / "intro.md")
    text = (
        f"before\n{formula_map.START}\n| F | Page |\n|---|---|\n| old | [A](a.ipynb) |\n"
        f"| {{eq}}`eq-2-3` | [B](b.ipynb) |\n{formula_map.END}\nafter"
    )
    out = formula_map.filled(text)
    assert "| {eq}`eq-2-9` {eq}`eq-2-10` | [A](a.ipynb) |" in out
    assert "| {eq}`eq-2-3` | [B](b.ipynb) |" in out
    assert out.startswith("before\n") and out.endswith("\nafter")


# -- the last column: what each page rests on, counted ------------------------------------------------------------
COUNTED = re.compile(
    r"(?:\d+ assumptions?(?:, \d+ cited results?)?|\d+ cited results?)?"
    r"(?:(?:; )?not proved: \d+ [a-z ]+(?:, \d+ [a-z ]+)*)?|definitions and algebra only|—"
)


def rests_on_cells() -> list[str]:
    text = formula_map.INTRO.read_text(encoding="utf-8")
    cells = []
    for table in text.split(formula_map.START)[1:]:
        for row in table.split(formula_map.END, 1)[0].strip().splitlines()[2:]:
            cells.append(re.split(r"(?<!\\)\|", row.strip()[1:-1])[-1].strip())
    return cells


def test_the_map_counts_what_a_page_rests_on_and_leaves_the_names_to_its_ledger():
    """A list of names in the last column made the map's rows many lines tall (5,205 px on a desktop)."""
    cells = rests_on_cells()
    assert len(cells) >= 20
    for cell in cells:
        assert COUNTED.fullmatch(cell), f"the Rests on column lists names instead of counting them: {cell[:120]!r}"


def test_a_ledger_is_counted_in_the_map():
    ledger = {
        "steps": 5,
        "algebra_steps": 1,
        "rules": {"assumption": [["$H_0$: $p = 1/2$", ""]], "cited": [["variance", "a book"], ["mean", "a book"]]},
        "claims": [{"how": "enumerated"}, {"how": "simulated"}, {"how": "simulated"}],
    }
    steps, rests = ledger_table.describe(ledger)
    assert steps == "5 (1 by algebra)"
    assert rests == "1 assumption, 2 cited results; not proved: 1 enumerated, 2 simulated"
    assert COUNTED.fullmatch(rests)
    ledger["rules"], ledger["claims"] = {"assumption": [], "cited": []}, []
    assert ledger_table.describe(ledger)[1] == "definitions and algebra only"
    assert not COUNTED.fullmatch("assumes: $H_0$: $p = 1/2$; cites: variance")
