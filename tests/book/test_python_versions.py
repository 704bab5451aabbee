"""Python 3.11-3.13: requires-python, the classifiers, the universal lock and the runner of the other versions agree."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from book import python_versions

ROOT = Path(__file__).resolve().parents[2]


def test_requires_python_and_the_classifiers_name_the_same_versions():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    low, high = re.fullmatch(r">=3\.(\d+),<3\.(\d+)", project["requires-python"]).groups()
    assert (
        python_versions.versions() == [f"3.{minor}" for minor in range(int(low), int(high))] == ["3.11", "3.12", "3.13"]
    )
    assert set(python_versions.CI_VERSIONS) <= set(python_versions.versions())


def test_the_library_lock_pins_what_the_book_lock_pins():
    def pins(path: Path) -> dict[str, str]:
        found = {}
        for line in path.read_text(encoding="utf-8").splitlines():
            if "==" in line and not line.startswith("#"):
                name, version = line.split(";")[0].strip().split("==")
                found[name.lower().replace("_", "-")] = version
        return found

    library, book = pins(python_versions.LOCK), pins(ROOT / "requirements" / "lock.txt")
    direct = [line.strip() for line in (ROOT / "requirements" / "library.in").read_text().splitlines()]
    assert {name for name in direct if name and not name.startswith("#")} <= set(library)
    shared = set(library) & set(book)
    assert {name: library[name] for name in shared} == {name: book[name] for name in shared}
    assert set(library) - set(book) <= {"colorama"}  # pytest's, on Windows only


def test_the_book_tests_left_out_exist():
    for path in python_versions.BOOK_TESTS:
        assert (ROOT / path).exists(), path


@pytest.mark.parametrize(("ci", "missing", "status"), [("", "3.12", 0), ("true", "3.12", 0), ("true", "3.11", 1)])
def test_a_missing_version_warns_and_fails_only_where_ci_has_it(monkeypatch, capsys, ci, missing, status):
    monkeypatch.setenv("CI", ci)
    monkeypatch.setattr(python_versions, "versions", lambda: ["3.10", "3.11", "3.12"])  # both others missing
    monkeypatch.setattr(python_versions, "interpreter", lambda version: None)
    assert python_versions.main([]) == (1 if ci == "true" else 0)
    out = capsys.readouterr().out
    assert "warning: Python 3.11 not found" in out and "warning: Python 3.12 not found" in out
    monkeypatch.setattr(python_versions, "versions", lambda: ["3.10", missing])
    assert python_versions.main([]) == status


def test_the_contributors_guide_says_which_versions_and_what_ci_has():
    guide = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert "Python 3.11, 3.12 and 3.13" in guide
    assert "CI's container has Python 3.11 only" in guide and python_versions.CI_VERSIONS == ("3.11",)
    assert "Python 3.12 and 3.13" in (ROOT / "README.md").read_text(encoding="utf-8")
