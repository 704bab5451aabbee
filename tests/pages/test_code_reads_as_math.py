"""Code that reads as the mathematics: on every page, a Python name says which symbol it holds, and keeps it.

**The rule for names.** A name bound to a symbol created from a literal name (``sp.symbols("...")``,
``sp.Symbol("...")``) reads as that symbol when the name, lower-cased, without underscores and without a final
``_sym`` (a symbol beside a value of the same name), is an abbreviation of the symbol's *spelled* name: its
characters appear in it in order. The spelled name is the LaTeX name read aloud, lower-cased: Greek letters
by their names (``\\epsilon`` and ``ε`` are ``epsilon``), ``\\hat``, ``\\bar`` and ``\\overline`` after what they
decorate (``\\hat{p}`` is ``phat``), ``\\mathcal`` as ``cal``, other font commands dropped (``\\mathrm{FPR}`` is
``fpr``), ``^+`` and ``^-`` as ``pos`` and ``neg``, superscripts before subscripts, and no braces, backslashes,
underscores or spaces. So ``eps_hat`` reads as ``\\hat{\\epsilon}``, ``c01`` as ``\\mathrm{cost}_{01}``,
``m_pos`` as ``m^+``, ``s2_i`` as ``\\sigma_i^2``; ``g`` does not read as ``j``. A page that means another name
says so where it binds it, in the line's comment: ``# names: x0 = x_i, y0 = y_i``.

**No rebinding.** Once a page has bound a name to a symbol (created as above, or taken from a module of
``melearn.derivation``, or from what one of its functions returns, e.g. ``bv.y``), no later statement of the page
binds that name again (an assignment, a loop variable, ``with ... as``, an import): the name means the same symbol
on the whole page. Names local to a function or a comprehension are their own.
"""

from __future__ import annotations

import ast
import json
import re
import unicodedata
from pathlib import Path

import pytest

from .notebooks import IDS, PAGES

SYMBOL_MAKERS = {"symbols", "Symbol", "Function", "Dummy", "Wild", "IndexedBase", "Idx"}
LITERAL_MAKERS = {"symbols", "Symbol", "Function", "IndexedBase", "Idx"}  # Wild and Dummy are patterns
FONTS = ("mathrm", "mathit", "mathbf", "boldsymbol", "text", "operatorname", "mathbb", "mathdefault")
DECORATIONS = ("hat", "bar", "overline", "tilde")
DECLARED = re.compile(r"#.*?names:\s*(.*)$")


def code_cells(page: Path) -> list[str]:
    cells = json.loads(page.read_text(encoding="utf-8"))["cells"]
    sources = ("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    # IPython magics and shell lines are not Python
    return [
        "\n".join("#" + line if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines())
        for source in sources
    ]


def spelled(latex: str) -> str:
    """The symbol's name read aloud (see the module's description), lower-case."""
    text = latex
    while "{{" in text:  # \mathit{{FP}}: doubled braces group nothing
        text = text.replace("{{", "{").replace("}}", "}")
    fonts = re.compile(r"\\(" + "|".join(FONTS) + r")\s*\{([^{}]*)\}")
    while fonts.search(text):  # \mathrm{FPR} -> FPR, innermost first
        text = fonts.sub(r"\2", text)
    text = re.sub(r"\\mathcal\s*\{([^{}]*)\}", r"cal\1", text)
    for decoration in DECORATIONS:  # \hat{p} -> p hat (one level of braces, or one command or letter)
        text = re.sub(rf"\\{decoration}\s*\{{([^{{}}]*)\}}", rf"\1{decoration}", text)
        text = re.sub(rf"\\{decoration}\s*(\\[A-Za-z]+|[A-Za-z])", rf"\1{decoration}", text)
    text = text.replace("overline", "bar")
    text = text.replace("^+", "pos").replace("^-", "neg")
    # superscripts before subscripts: x_i^2 -> x^2_i
    text = re.sub(r"(_\{[^{}]*\}|_\\?[A-Za-z0-9]+)(\^\{[^{}]*\}|\^\\?[A-Za-z0-9]+)", r"\2\1", text)
    text = "".join(
        unicodedata.name(ch).split()[-1].lower() if "GREEK" in unicodedata.name(ch, "") else ch for ch in text
    )
    return re.sub(r"[\\{}_^\s]", "", text).lower()


def reads_as(name: str, latex: str) -> bool:
    key = name.lower().removesuffix("_sym").replace("_", "")
    spelling = iter(spelled(latex))
    return bool(key) and all(ch in spelling for ch in key)


def maker(call: ast.AST) -> str | None:
    if isinstance(call, ast.Call):
        func = call.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        return name if name in SYMBOL_MAKERS else None
    return None


def literal_symbols(call: ast.Call) -> list[str] | None:
    """The symbol names a maker call creates, if they are written as a literal (else None)."""
    if maker(call) not in LITERAL_MAKERS or not call.args:
        return None
    first = call.args[0]
    if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
        return None
    names = first.value.split() if maker(call) == "symbols" else [first.value]
    return None if any(":" in n for n in names) else names


def targets(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Tuple | ast.List):
        return [leaf for element in node.elts for leaf in targets(element)]
    return [node]


def named_symbols(page: Path) -> list[tuple[str, str, int, str]]:
    """(python name, symbol name, code cell, line) for every name bound to a literal symbol on the page."""
    found = []
    for number, source in enumerate(code_cells(page)):
        lines = source.splitlines()
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, ast.Assign) or len(node.targets) != 1:
                continue
            names = [t.id if isinstance(t, ast.Name) else None for t in targets(node.targets[0])]
            values = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
            symbols: list[str | None] = []
            for value in values:
                created = literal_symbols(value) if isinstance(value, ast.Call) else None
                symbols.extend(created if created is not None else [None])
            if len(symbols) != len(names):
                continue
            line = lines[node.lineno - 1]
            for name, symbol in zip(names, symbols, strict=True):
                if name and symbol:
                    found.append((name, symbol, number, line))
    return found


def declared(line: str) -> dict[str, str]:
    match = DECLARED.search(line)
    if not match:
        return {}
    pairs = (pair.split("=", 1) for pair in match.group(1).split(",") if "=" in pair)
    return {name.strip(): symbol.strip() for name, symbol in pairs}


@pytest.mark.parametrize("page", PAGES, ids=IDS)
def test_each_name_reads_as_the_symbol_it_holds(page):
    wrong = []
    for name, symbol, cell, line in named_symbols(page):
        if reads_as(name, symbol) or declared(line).get(name) == symbol:
            continue
        wrong.append(f"code cell {cell}: {name} holds {symbol!r}")
    assert not wrong, "names that do not read as their symbols (see the module's description): " + "; ".join(wrong)


def module_level(tree: ast.Module):
    """The statements run at the top of a cell, with those inside if/for/while/with/try blocks.

    A ``def`` or ``class`` statement is one of them (it binds its name), but what its body binds is its own.
    """
    stack = list(tree.body)
    while stack:
        node = stack.pop(0)
        yield node
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        for field in ("body", "orelse", "finalbody", "handlers"):
            stack.extend(getattr(node, field, []) or [])


def bound_names(node: ast.AST) -> list[str]:
    """The names a statement binds at the top of its cell."""
    nodes: list[ast.AST] = []
    if isinstance(node, ast.Assign):
        nodes = [leaf for target in node.targets for leaf in targets(target)]
    elif isinstance(node, ast.AugAssign | ast.AnnAssign):
        nodes = [node.target]
    elif isinstance(node, ast.For | ast.AsyncFor):
        nodes = targets(node.target)
    elif isinstance(node, ast.With | ast.AsyncWith):
        nodes = [leaf for item in node.items if item.optional_vars for leaf in targets(item.optional_vars)]
    elif isinstance(node, ast.Import | ast.ImportFrom):
        return [(a.asname or a.name).split(".")[0] for a in node.names]
    elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    return [n.id for n in nodes if isinstance(n, ast.Name)]


def symbol_bindings(node: ast.AST, derivation_modules: set[str]) -> list[str]:
    """The names ``node`` binds to a symbol: made by a symbol maker, or taken from a melearn.derivation module."""
    if not isinstance(node, ast.Assign) or len(node.targets) != 1:
        return []
    names = targets(node.targets[0])
    values = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]

    def is_symbol(value: ast.AST) -> bool:
        from_module = (
            isinstance(value, ast.Attribute)
            and isinstance(value.value, ast.Name)
            and value.value.id in derivation_modules
        )
        return maker(value) is not None or from_module

    if len(values) == len(names):
        return [n.id for n, v in zip(names, values, strict=True) if isinstance(n, ast.Name) and is_symbol(v)]
    if len(values) == 1 and maker(values[0]) is not None:  # a, b = sp.symbols("a b")
        return [n.id for n in names if isinstance(n, ast.Name)]
    return []


@pytest.mark.parametrize("page", PAGES, ids=IDS)
def test_no_page_rebinds_a_symbol(page):
    symbols: dict[str, int] = {}
    derivation_modules: set[str] = set()
    rebound = []
    for number, source in enumerate(code_cells(page)):
        for node in module_level(ast.parse(source)):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("melearn.derivation"):
                derivation_modules.update(a.asname or a.name for a in node.names if a.name.islower())
            new = symbol_bindings(node, derivation_modules)
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                func = node.value.func
                if isinstance(func, ast.Name) and func.id in derivation_modules:  # bv = bias_variance_derivation()
                    derivation_modules.update(t.id for t in targets(node.targets[0]) if isinstance(t, ast.Name))
                    new = []
            for name in bound_names(node):
                if name in symbols:
                    rebound.append(f"{name} (a symbol since code cell {symbols[name]}) bound again in cell {number}")
            for name in new:
                symbols.setdefault(name, number)
    assert not rebound, "; ".join(rebound)


def test_the_rule_reads_names_as_described():
    assert reads_as("eps_hat", r"\hat{\epsilon}") and reads_as("c01", r"\mathrm{cost}_{01}")
    assert reads_as("m_pos", "m^+") and reads_as("s2_i", r"\sigma_i^2") and reads_as("sigma", "σ")
    assert reads_as("E_sym", r"\mathcal{E}") and reads_as("calD", r"\mathcal{D}") and reads_as("x1", "x_{i+1}")
    assert not reads_as("g", "j") and not reads_as("n", "m") and not reads_as("x0", "x_i")
    assert declared("x0, x1 = sp.symbols('x_i x_{i+1}')  # names: x0 = x_i") == {"x0": "x_i"}


def test_the_rebinding_check_catches_a_rebinding(tmp_path):
    page = tmp_path / "page.ipynb"

    def write(*sources: str) -> None:
        cells = [{"cell_type": "code", "source": [source]} for source in sources]
        page.write_text(json.dumps({"cells": cells}), encoding="utf-8")

    symbols = 'import sympy as sp\nk, m = sp.symbols("k m")'
    local = "def folds(labels):\n    k = len(labels)\n    return [m for m in range(k)]"
    write(symbols, local, "k_value = 5")
    test_no_page_rebinds_a_symbol(page)  # a function's names and a comprehension's are their own
    write(symbols, local, "for k in range(3):\n    pass")
    with pytest.raises(AssertionError, match=r"k \(a symbol since code cell 0\) bound again in cell 2"):
        test_no_page_rebinds_a_symbol(page)
    write(symbols, "if True:\n    m = 2")
    with pytest.raises(AssertionError, match=r"m \(a symbol since code cell 0\) bound again in cell 1"):
        test_no_page_rebinds_a_symbol(page)
