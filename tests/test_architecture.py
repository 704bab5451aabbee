"""ARCHITECTURE.md's table of parts, held to the code: every import of every part is one the table allows.

The table (between the ``parts`` markers) names each part's files, the parts it may import from, the packages
outside the standard library it may import, and what it never imports. Each Python file (and each code cell of the
pages) is parsed, its imports (at any depth: a function's import counts too) resolved to a part or a package, and
checked against its row. ``tests/melearn/test_import.py`` checks the library's layering at run time; this reads
the text.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ARCHITECTURE = ROOT / "ARCHITECTURE.md"
TABLE = re.compile(r"<!-- parts:start -->\n(.*?)\n<!-- parts:end -->", re.S)


def _names(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


@cache
def parts() -> dict[str, dict]:
    """The rows of the table: ``{part: {"files", "may", "outside", "never"}}`` (``None`` for "any")."""
    rows = TABLE.search(ARCHITECTURE.read_text(encoding="utf-8")).group(1).splitlines()[2:]
    table = {}
    for row in rows:
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        name, files, may, outside, never = cells
        table[_names(name)[0]] = {
            "files": _names(files),
            "may": None if may == "any" else set(_names(may)),
            "outside": None if outside == "any" else set(_names(outside)),
            "never": set(_names(never)),
        }
    return table


def _claims(pattern: str) -> tuple[int, list[Path]]:
    """How specific a pattern is (a file, then the deepest folder, then a glob) and the files it names."""
    if pattern.endswith("/"):
        folder = ROOT / pattern
        found = [p for p in folder.rglob("*") if p.suffix in (".py", ".ipynb") and ".ipynb_checkpoints" not in p.parts]
        return 1000 + pattern.count("/"), found
    if "*" in pattern:
        return 0, sorted(ROOT.glob(pattern))
    return 10_000, [ROOT / pattern]


@cache
def owner() -> dict[Path, str]:
    """Each file of the parts, with the part whose most specific pattern names it."""
    best: dict[Path, tuple[int, str]] = {}
    for name, row in parts().items():
        for pattern in row["files"]:
            rank, files = _claims(pattern)
            for path in files:
                if path not in best or best[path][0] < rank:
                    best[path] = (rank, name)
    return {path: name for path, (_, name) in best.items()}


def _module_file(module: str) -> Path | None:
    """The file of the repository that defines ``module`` (the longest prefix that is a module), if any."""
    parts_ = module.split(".")
    for end in range(len(parts_), 0, -1):
        base = ROOT.joinpath(*parts_[:end])
        for candidate in (base / "__init__.py", base.with_suffix(".py")):
            if candidate.is_file():
                return candidate
    return None


@cache
def _loose_modules() -> dict[str, Path]:
    """Modules imported by their bare name from a folder on ``sys.path`` (the Sphinx extensions, the scripts)."""
    found = {}
    for path, name in owner().items():
        if name == "book" and path.suffix == ".py":
            found.setdefault(path.stem, path)
    return found


def resolve(module: str) -> str:
    """The part a module belongs to, or the top-level name of a package outside the repository."""
    path = _module_file(module)
    if path is None and module.split(".")[0] in _loose_modules():
        path = _loose_modules()[module.split(".")[0]]
    if path is not None:
        return owner().get(path, f"unlisted:{path.relative_to(ROOT).as_posix()}")
    return module.split(".")[0]


def _package_of(path: Path) -> list[str]:
    relative = path.relative_to(ROOT).with_suffix("").parts
    return list(relative if path.name == "__init__.py" else relative[:-1])


def imports_of(source: str, path: Path) -> set[str]:
    """Every module a source imports, relative imports made absolute against ``path``'s package."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                package = _package_of(path)
                base = package[: len(package) - (node.level - 1)]
                if node.module is None:
                    found.update(".".join([*base, alias.name]) for alias in node.names)
                else:
                    found.add(".".join([*base, node.module]))
            elif node.module != "__future__":
                found.add(node.module)
    return found


def _source(path: Path) -> str:
    if path.suffix != ".ipynb":
        return path.read_text(encoding="utf-8")
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    code = ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"]
    lines = [line for cell in code for line in cell.splitlines() if not line.lstrip().startswith(("%", "!"))]
    return "\n".join(lines)


def problems_of(path: Path, part: str, imported: set[str]) -> list[str]:
    """What in ``imported`` the row of ``part`` does not allow, one line each."""
    row = parts()[part]
    found = []
    for module in sorted(imported):
        target = resolve(module)
        where = f"{path.relative_to(ROOT).as_posix()} ({part}) imports {module}"
        if target in parts():
            if target in row["never"] or (row["may"] is not None and target not in row["may"]):
                found.append(f"{where}, of the part {target}")
        elif target.startswith("unlisted:"):
            found.append(f"{where}, a file no row of ARCHITECTURE.md names")
        elif target in sys.stdlib_module_names:
            continue
        elif target in row["never"] or (row["outside"] is not None and target not in row["outside"]):
            found.append(f"{where}, outside the repository")
    return found


def test_the_table_names_its_parts_and_each_never_is_not_a_may():
    table = parts()
    assert {"foundation", "numeric", "derivation", "plotting", "book", "pages", "tests"} <= set(table)
    for name, row in table.items():
        assert row["files"], name
        assert not (row["never"] & (row["may"] or set())), name
        for pattern in row["files"]:
            assert _claims(pattern)[1], f"{name}: {pattern} names no file"


def test_every_file_of_the_library_belongs_to_a_part():
    library = [p for p in (ROOT / "melearn").rglob("*.py")]
    assert library and [p for p in library if p not in owner()] == []


PART_FILES = sorted(owner().items())


@pytest.mark.parametrize("part", sorted(parts()))
def test_each_part_imports_only_what_architecture_md_allows(part):
    found = []
    for path, name in PART_FILES:
        if name == part:
            found += problems_of(path, part, imports_of(_source(path), path))
    assert not found, "\n".join(found)


def test_the_check_refuses_what_the_table_forbids():
    derivation = ROOT / "melearn" / "derivation" / "chain.py"
    assert problems_of(derivation, "derivation", {"melearn.ranking"})  # a numeric module
    assert problems_of(derivation, "derivation", {"matplotlib.pyplot"})  # a package it may not use
    assert problems_of(derivation, "derivation", {"melearn.i18n", "sympy", "re"}) == []
    numeric = ROOT / "melearn" / "ranking.py"
    assert problems_of(numeric, "numeric", imports_of("from .derivation import rules", numeric))
    assert problems_of(numeric, "numeric", imports_of("from . import _validation", numeric)) == []
    page = ROOT / "chapters" / "auc.ipynb"
    assert problems_of(page, "pages", {"tests.browser.bookcheck"})
    assert resolve("melearn.i18n") == "foundation" and resolve("melearn.plotting.figure") == "plotting"
