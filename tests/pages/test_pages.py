"""What every page of the book must and must not do, read from the notebooks' sources and stored outputs.

nbval proves that a page's stored outputs are what its code produces now; these tests hold the code and the
prose to the book's rules: a wrong step is shown only through ``show_refusal`` (which fails if the step is
accepted), rules are built with the kind constructors, the symbolic vocabulary comes from
``melearn.derivation`` and is not retyped on pages, every page ends with its generated proof ledger, and the
landing page's table agrees with the ledgers.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from book.ledger_table import stored_ledger

from .notebooks import IDS, PAGES, ROOT, cells, code, prose, toc_notebooks


def parsed(page: Path) -> list[ast.AST]:
    trees = []
    for cell in cells(page, "code"):
        source = "".join(cell["source"])
        source = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("%", "!")))
        trees.append(ast.parse(source))
    return trees


CAUGHT = {"AssertionError", "DerivationError", "Exception", "BaseException"}


def _caught_names(handler: ast.ExceptHandler) -> set[str]:
    if handler.type is None:
        return {"(bare except)"}
    nodes = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return {n.id if isinstance(n, ast.Name) else n.attr if isinstance(n, ast.Attribute) else "?" for n in nodes}


@pytest.mark.parametrize("page", PAGES, ids=IDS)
def test_no_page_catches_a_failed_check(page):
    """A refused step is shown with show_refusal, which fails the cell if the step is accepted."""
    caught = [
        name
        for tree in parsed(page)
        for node in ast.walk(tree)
        if isinstance(node, ast.ExceptHandler)
        for name in _caught_names(node)
        if name in CAUGHT or name == "(bare except)"
    ]
    assert not caught, f"{page.name} catches {sorted(set(caught))}: use melearn.derivation.show_refusal"


@pytest.mark.parametrize("page", PAGES, ids=IDS)
def test_rules_are_built_by_their_kind(page):
    """Rule.definition / assumption / cited / lemma / computation: never a free-form Rule(...) on a page."""
    bad = []
    for tree in parsed(page):
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                if isinstance(func, ast.Name) and func.id == "Rule":
                    bad.append("Rule(...)")
                if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "Rule":
                    if func.attr not in {"definition", "assumption", "cited", "lemma", "computation"}:
                        bad.append(f"Rule.{func.attr}")
    assert not bad, f"{page.name} builds rules with {bad}"


RETYPED = {"frac", "add", "mul", "root", "tex", "say", "show", "Sum", "rewriting", "split_sums", "expect"}


@pytest.mark.parametrize("page", PAGES, ids=IDS)
def test_the_symbolic_vocabulary_is_not_retyped(page):
    """Operators, indicators and display helpers come from melearn.derivation, defined once and tested there."""
    found = []
    for tree in parsed(page):
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases = {b.attr if isinstance(b, ast.Attribute) else getattr(b, "id", "") for b in node.bases}
                if bases & {"Function", "Symbol", "Expr", "Basic"}:
                    found.append(f"class {node.name}")
            if isinstance(node, ast.FunctionDef) and node.name in RETYPED:
                found.append(f"def {node.name}")
    assert not found, f"{page.name} defines {found}: use melearn.derivation"


@pytest.mark.parametrize("page", PAGES, ids=IDS)
def test_every_page_ends_with_its_proof_ledger(page):
    source = code(page)
    if "Derivation(" not in source and "record_" not in source:
        pytest.skip("the page has no derivation and no recorded claim")
    assert "page_ledger()" in source, f"{page.name} shows no proof ledger"
    assert re.search(r"^#+ Proof ledger", prose(page), re.M), f"{page.name} has no 'Proof ledger' section"
    ledger = stored_ledger(page)
    assert ledger is not None, f"{page.name}: no stored ledger output"
    assert ledger["steps"] > 0 or ledger["claims"], f"{page.name}: an empty ledger"


@pytest.mark.parametrize("page", PAGES, ids=IDS)
def test_no_page_calls_a_claim_proved_that_it_only_enumerates(page):
    # (the credit of the pumpkin book's example is checked in tests/melearn/test_reference_ranking.py)
    text = prose(page)
    for match in re.finditer(r"[^.]*\b(enumerat|simulat)\w*[^.]*\bproves?\b[^.]*\.", text):
        pytest.fail(f"{page.name}: an enumeration or simulation called a proof: {match.group(0).strip()!r}")


def test_the_landing_page_table_agrees_with_the_ledgers():
    run = subprocess.run(
        [sys.executable, "-m", "book.ledger_table", "--check"], capture_output=True, text=True, cwd=ROOT
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_ledger_reader_finds_a_ledger_and_only_a_ledger(tmp_path):
    ledger = {"algebra_steps": 1, "chains": 1, "claims": [], "rules": {}, "steps": 2}
    notebook = {
        "cells": [
            {"cell_type": "code", "outputs": [{"data": {"text/plain": json.dumps({"steps": 3})}}]},
            {"cell_type": "code", "outputs": [{"data": {"text/plain": json.dumps(ledger)}}]},
        ]
    }
    path = tmp_path / "page.ipynb"
    path.write_text(json.dumps(notebook))
    assert stored_ledger(path) == ledger
    notebook["cells"].pop()
    path.write_text(json.dumps(notebook))
    assert stored_ledger(path) is None


# -- pages use public, documented names only ----------------------------------------------------------------------
API_PAGE = ROOT / "chapters" / "api.md"
ALL_PAGES = toc_notebooks()  # the benchmark page too: it imports from melearn like any other


def imported_melearn_names(page: Path) -> list[tuple[str, str]]:
    """Every ``(module, name)`` a page imports from melearn (``from melearn.x import y``), derivations aside."""
    found = []
    for tree in parsed(page):
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "melearn":
                if node.module.startswith("melearn.derivation"):
                    continue  # the derivation package documents itself in its own section
                found.extend((node.module, alias.name) for alias in node.names)
    return found


def documented_on_the_api_page() -> set[str]:
    """Qualified names the API page renders: autodoc directives, and every member of an automodule."""
    import importlib

    text = API_PAGE.read_text(encoding="utf-8")
    names = set(re.findall(r"^\.\. auto(?:function|class|data|exception):: (\S+)", text, re.MULTILINE))
    for module, options in re.findall(r"^\.\. automodule:: (\S+)\n((?:   :.*\n)*)", text, re.MULTILINE):
        listed = re.search(r":members: (.+)", options)
        members = [m.strip() for m in listed.group(1).split(",")] if listed else importlib.import_module(module).__all__
        names.update(f"{module}.{member}" for member in members)
    return names


@pytest.mark.parametrize("page", ALL_PAGES, ids=[str(p.relative_to(ROOT / "chapters")) for p in ALL_PAGES])
def test_pages_import_only_public_documented_names(page):
    import importlib

    documented = documented_on_the_api_page()
    for module, name in imported_melearn_names(page):
        assert not name.startswith("_") and not any(part.startswith("_") for part in module.split(".")), (
            f"{page.name} imports the private {module}.{name}"
        )
        public = importlib.import_module(module).__all__
        assert name in public, f"{page.name} imports {module}.{name}, which {module}.__all__ does not list"
        assert f"{module}.{name}" in documented, f"{page.name} imports {module}.{name}, not on chapters/api.md"


def test_the_public_name_check_catches_a_private_import(tmp_path):
    page = tmp_path / "page.ipynb"
    source = "from melearn._sorting import twice_correct_pairs\nfrom melearn.ranking import PAIRWISE_MAX_WORK\n"
    page.write_text(json.dumps({"cells": [{"cell_type": "code", "source": [source]}]}), encoding="utf-8")
    imports = imported_melearn_names(page)
    assert imports == [("melearn._sorting", "twice_correct_pairs"), ("melearn.ranking", "PAIRWISE_MAX_WORK")]
    with pytest.raises(AssertionError, match="private melearn._sorting"):
        test_pages_import_only_public_documented_names(page)
    page.write_text(json.dumps({"cells": [{"cell_type": "code", "source": [source.splitlines()[1]]}]}))
    with pytest.raises(AssertionError, match="does not list"):
        test_pages_import_only_public_documented_names(page)
