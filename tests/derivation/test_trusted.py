"""The trusted base as the code has it: every site that builds a kernel rule is listed in ``TRUSTED_BASE``, and the
how-to-verify page lists the trusted files with their current line counts."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from melearn.derivation import TRUSTED_BASE, trusted

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "melearn" / "derivation"
PAGE = ROOT / "chapters" / "how_to_verify.md"

#: Calls that build a kernel rule: the private constructor, the finite-sum rules' wrapper of it, and the class's own
#: constructor called with the kernel's token (the factories of ``Rule``).
BUILDERS = {"kernel_rule", "_sum_rule"}
#: The factories of ``Rule`` and the entry of ``TRUSTED_BASE`` that states them.
FACTORIES = {
    "Rule._from_equations": "equation rules",
    "Rule.lemma": "equation rules",
    "Rule.computation": "computation",
}


def _builds_a_rule(call: ast.Call) -> bool:
    func = call.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    if name in BUILDERS:
        return True
    return any(keyword.arg == "_token" for keyword in call.keywords)


def rule_sites(source: str, module: str) -> list[str]:
    """Where ``source`` builds a kernel rule, each named as ``TRUSTED_BASE`` names it.

    A call in a module-level function is ``module.function``; in a method, ``Class.method``, or ``Class.attribute``
    when its value is assigned to ``self.attribute``. The definitions of the builders themselves are not sites.
    """
    sites = []

    def visit(node, scope: tuple[str, ...], cls: str | None):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, scope, child.name)
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, (*scope, child.name), cls)
            elif isinstance(child, ast.Assign) and isinstance(child.value, ast.Call) and _builds_a_rule(child.value):
                target = child.targets[0]
                if cls and isinstance(target, ast.Attribute) and getattr(target.value, "id", "") == "self":
                    sites.append(f"{cls}.{target.attr}")
                else:
                    sites.append(_site(scope, cls, module))
                visit(child.value, scope, cls)
            else:
                if isinstance(child, ast.Call) and _builds_a_rule(child):
                    sites.append(_site(scope, cls, module))
                visit(child, scope, cls)

    visit(ast.parse(source), (), None)
    return [site for site in sites if site is not None]


def _site(scope: tuple[str, ...], cls: str | None, module: str):
    if not scope:
        return f"{module}.<module>"
    if scope[0] in BUILDERS:
        return None  # the builder's own body
    if cls:
        name = f"{cls}.{scope[0]}"
        return FACTORIES.get(name, name)
    return f"{module}.{scope[0]}"


def all_sites() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.glob("*.py")):
        for site in rule_sites(path.read_text(encoding="utf-8"), path.stem):
            found.setdefault(site, []).append(path.name)
    return found


def test_every_kernel_rule_site_is_in_the_trusted_base():
    listed = {name for name, _, _ in TRUSTED_BASE}
    sites = all_sites()
    assert set(sites) - listed == set(), "kernel rules built outside TRUSTED_BASE"
    # and the base lists nothing that is no longer built (algebra is the one entry that is not a rule)
    assert listed - set(sites) == {"algebra"}


def test_every_file_that_builds_a_kernel_rule_is_a_trusted_file():
    files = {name for names in all_sites().values() for name in names}
    assert files <= set(trusted.TRUSTED_FILES)


@pytest.mark.parametrize(
    ("source", "sites"),
    [
        ("def forged():\n    return kernel_rule('a', 'cited', 'a = b', f)\n", ["sums.forged"]),
        ("class Op:\n    def __init__(self):\n        self.swap = kernel_rule('s', 'cited', '', f)\n", ["Op.swap"]),
        ("def helper():\n    return Rule('a', 'cited', '', f, _token=token)\n", ["sums.helper"]),
        ("def wrap():\n    return _sum_rule('a', '', f)\n", ["sums.wrap"]),
        ("def kernel_rule(name):\n    return Rule(name, _token=t)\n", []),
        ("def plain():\n    return Rule.cited('a', {a: b}, source='s')\n", []),
    ],
)
def test_the_sites_are_found_wherever_a_kernel_rule_is_built(source, sites):
    # a new kernel rule, however it is built, is a site the base must list
    assert rule_sites(source, "sums") == sites
    listed = {name for name, _, _ in TRUSTED_BASE}
    assert not set(sites) & listed


def test_the_page_lists_the_trusted_files_with_their_current_line_counts():
    text = PAGE.read_text(encoding="utf-8")
    assert trusted.update(text) == text, "run python -m melearn.derivation.trusted chapters/how_to_verify.md"
    for path, count in trusted.trusted_files():
        assert f"{path}" in text
        assert count == len((PACKAGE / path).read_text(encoding="utf-8").splitlines())


def test_a_stale_count_is_caught(tmp_path, capsys):
    text = PAGE.read_text(encoding="utf-8")
    path, count = trusted.trusted_files()[0]
    line = next(line for line in text.splitlines() if line.startswith(path + " "))
    stale = tmp_path / "how_to_verify.md"
    stale.write_text(text.replace(line, line.replace(str(count), str(count + 1))), encoding="utf-8")
    assert trusted.main(["--check", str(stale)]) == 1
    assert "out of date" in capsys.readouterr().out
    assert trusted.main([str(stale)]) == 0  # rewritten
    assert stale.read_text(encoding="utf-8") == text
    assert trusted.main(["--check", str(stale)]) == 0


def test_a_page_without_its_markers_is_refused():
    with pytest.raises(ValueError, match="markers"):
        trusted.update("# a page\n")
