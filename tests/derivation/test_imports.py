"""The package's modules import one another without a cycle (read from the source with ``ast``, imports inside
functions included: a lazy import only hides a cycle, it does not remove it)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "melearn"


def module_files(package: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package, by dotted name (a package by the name of its ``__init__``)."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports_of(name: str, path: Path, modules) -> set[str]:
    """The modules of the package that ``name`` imports, anywhere in its source.

    ``from X import y`` imports the module ``X.y`` when there is one, and ``X`` otherwise; the parents of an
    imported module are not counted (importing a package's module runs the package's ``__init__`` first, which a
    cycle test cannot hold against the module).
    """
    is_package = path.name == "__init__.py"
    here = name.split(".") if is_package else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                found.add(f"{target}.{alias.name}" if f"{target}.{alias.name}" in modules else target)
    return {m for m in found if m in modules and m != name}


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Each module of ``package`` and the package's modules it imports."""
    modules = module_files(package)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of ``graph`` as the list of its modules (the first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for following in sorted(graph.get(node, ())):
            if state.get(following) == 1:
                return path[path.index(following) :] + [following]
            if following not in state:
                cycle = visit(following)
                if cycle:
                    return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def test_the_package_imports_without_a_cycle():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_the_derivations_import_what_the_checker_expects():
    # the graph is read as it should be: the chain imports its rules and its ledger, relative imports resolved
    graph = import_graph()
    assert {"melearn.derivation.rules", "melearn.derivation.ledger"} <= graph["melearn.derivation.chain"]
    assert "melearn.derivation.sums" in graph["melearn.derivation"]
    assert "melearn.i18n" in graph["melearn.derivation.ledger"]


@pytest.mark.parametrize(
    ("graph", "cycle"),
    [
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}}, ["a", "b", "c", "a"]),
        ({"a": {"a"}}, ["a", "a"]),
        ({"a": {"b"}, "b": {"c"}, "c": set()}, None),
        ({"a": {"b", "c"}, "b": {"c"}, "c": set()}, None),
    ],
)
def test_find_cycle_finds_a_cycle_and_only_a_cycle(graph, cycle):
    assert find_cycle(graph) == cycle


def test_a_lazy_import_inside_a_function_counts(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "first.py").write_text("from . import second\n")
    (package / "second.py").write_text("def f():\n    from .first import g\n    return g\n")
    assert find_cycle(import_graph(package)) == ["pkg.first", "pkg.second", "pkg.first"]
