"""The library's tests on every Python version that requires-python allows, beside the book's own version.

    python -m book.python_versions            # each other version found on this machine: make its venv, run the tests
    python -m book.python_versions --list     # which versions, which interpreters, which were found

The book is built, and every test runs, on the lowest version (``.venv``, from ``requirements/lock.txt``). The
other versions of the classifiers in ``pyproject.toml`` (3.12, 3.13) each get a venv ``.venv-3.X`` installed from
``requirements/library-lock.txt`` (one universal lock for every version, resolved by uv with the versions of
``requirements/lock.txt``) and run the tests that need no book: melearn's doctests and the library's tests, no
notebook, no build, no browser (the tests of the book's tools and pages need Sphinx and Jupyter, installed for the
book's version only). A version whose interpreter (``python3.X`` on the PATH) is missing is skipped with a warning;
under ``CI=true`` a missing version fails only if it is one of ``CI_VERSIONS``, the versions CONTRIBUTING says CI has.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements" / "library-lock.txt"
#: the versions the CI container has (CONTRIBUTING.md, "Supported Python"): only these fail CI when missing
CI_VERSIONS = ("3.11",)
#: tests that need the book's toolchain (Sphinx, Jupyter, the built book) or install packages themselves: they run
#: on the book's version only
BOOK_TESTS = [
    "tests/book/browser",
    "tests/book/test_editions.py",
    "tests/melearn/test_light_install.py",
    "tests/book/test_benchmarks_smoke.py",
    "tests/book/test_accessibility_ext.py",
    "tests/book/test_build_config.py",
    "tests/pages/test_chinese_text.py",
    "tests/pages/test_claims.py",
    "tests/melearn/test_description.py",
    "tests/melearn/test_figures.py",
    "tests/pages/test_formula_citations.py",
    "tests/book/test_offline_mathjax.py",
    "tests/pages/test_pages.py",
    "tests/book/test_pdf_sheets.py",
    "tests/pages/test_terminology.py",
]


def versions() -> list[str]:
    """The Python versions of pyproject.toml's classifiers, lowest first (the book's version is the first)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    prefix = "Programming Language :: Python :: "
    found = [c[len(prefix) :] for c in project["classifiers"] if c.startswith(prefix) and c.count(".") == 1]
    return sorted(found, key=lambda v: tuple(map(int, v.split("."))))


def _works(command: str, version: str) -> bool:
    done = subprocess.run(
        [command, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"], capture_output=True, text=True
    )
    return done.returncode == 0 and done.stdout.strip() == version


def interpreter(version: str) -> str | None:
    """A working interpreter of ``version``: ``python3.X`` on the PATH, else one that pyenv has installed.

    A pyenv shim on the PATH fails to run a version that is installed but not selected (``pyenv global``), so
    pyenv's own versions are looked at too (``$(pyenv root)/versions/3.X.*/bin/python3.X``, the newest).
    """
    command = shutil.which(f"python{version}")
    if command is not None and _works(command, version):
        return command
    pyenv = shutil.which("pyenv")
    if pyenv is None:
        return None
    root = subprocess.run([pyenv, "root"], capture_output=True, text=True).stdout.strip()
    installed = sorted(
        Path(root, "versions").glob(f"{version}.*"), key=lambda p: [int(x) for x in p.name.split(".") if x.isdigit()]
    )
    for prefix in reversed(installed):
        candidate = prefix / "bin" / f"python{version}"
        if candidate.exists() and _works(str(candidate), version):
            return str(candidate)
    return None


def environment(version: str, command: str) -> Path:
    """``.venv-X.Y`` with the library lock installed (again when the lock or pyproject.toml is newer)."""
    venv = ROOT / f".venv-{version}"
    python = venv / "bin" / "python"
    stamp = venv / ".installed"
    newest = max(LOCK.stat().st_mtime, (ROOT / "pyproject.toml").stat().st_mtime)
    if stamp.exists() and stamp.stat().st_mtime >= newest:
        return python
    if not python.exists():
        subprocess.run([command, "-m", "venv", str(venv)], check=True)
    pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run([*pip, "--no-deps", "--require-virtualenv", "-r", str(LOCK)], check=True)
    subprocess.run([str(python), "-m", "pip", "check"], check=True, stdout=subprocess.DEVNULL)
    stamp.touch()
    return python


def run_tests(python: Path, jobs: int) -> int:
    """melearn's doctests and the library's tests under ``python``, from the source tree (no install needed)."""
    ignores = [f"--ignore={path}" for path in BOOK_TESTS]
    command = [str(python), "-m", "pytest", "-q", "-o", "addopts=", "--doctest-modules", "--strict-markers"]
    command += ["-p", "no:cacheprovider", "-n", str(jobs), "--dist", "loadscope", "melearn", "tests", *ignores]
    return subprocess.run(command, cwd=ROOT).returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--list", action="store_true", help="list the versions and their interpreters, run nothing")
    parser.add_argument("--jobs", type=int, default=2, help="pytest-xdist workers per version (default 2)")
    args = parser.parse_args(argv)
    book, *others = versions()
    ci = os.environ.get("CI") == "true"
    failed = []
    for version in others:
        command = interpreter(version)
        if args.list:
            print(f"Python {version}: {command or 'not found'}")
            continue
        if command is None:
            print(f"warning: Python {version} not found (python{version}): its library tests are skipped", flush=True)
            if ci and version in CI_VERSIONS:
                failed.append(f"{version} (missing)")
            continue
        print(f">> the library's tests on Python {version} ({command})", flush=True)
        if run_tests(environment(version, command), args.jobs) != 0:
            failed.append(version)
    if args.list:
        print(f"Python {book}: the book's version (.venv, requirements/lock.txt), running this script")
    if failed:
        print(f"the library's tests failed on Python {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
