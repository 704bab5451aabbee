"""The files a ✓ rests on, with their line counts, and the listing of them a page shows.

Usage: ``python -m melearn.derivation.trusted [--check] PAGE``: rewrites the listing between the
``trusted-files`` markers of the Markdown file ``PAGE`` (the how-to-verify page) from the files themselves; with
``--check`` it rewrites nothing and exits with status 1 when the listing is out of date (the tests run it so).
"""

from __future__ import annotations

import sys
from pathlib import Path

__all__ = ["TRUSTED_FILES", "listing", "trusted_files", "update"]

#: The modules of ``melearn.derivation`` whose code decides whether a step gets its ✓: the check of a chain, the
#: algebra a step may use without a rule, the rules and their constructors, the built-in rules of
#: ``TRUSTED_BASE``, and the page's state the checks read and write.
TRUSTED_FILES = (
    "chain.py",
    "_algebra.py",
    "rules.py",
    "page.py",
    "sums.py",
    "iverson.py",
    "calculus.py",
    "limits.py",
    "operators.py",
    "integrals.py",
)

HERE = Path(__file__).resolve().parent
START, END = "<!-- trusted-files:start -->", "<!-- trusted-files:end -->"


def trusted_files() -> tuple[tuple[str, int], ...]:
    """Each trusted file, by its name in ``melearn/derivation/``, with its number of lines, read from the file."""
    return tuple((name, len((HERE / name).read_text(encoding="utf-8").splitlines())) for name in TRUSTED_FILES)


def listing() -> str:
    """The trusted files and their line counts as a fenced text block, with the total on its last line."""
    files = trusted_files()
    width = max(len(path) for path, _ in files)
    lines = [f"{path:<{width}}  {count:>5}" for path, count in files]
    lines.append(f"{'total':<{width}}  {sum(count for _, count in files):>5}")
    return "```text\n" + "\n".join(lines) + "\n```"


def update(text: str) -> str:
    """``text`` with the listing between its ``trusted-files`` markers replaced by the current one."""
    if text.count(START) != 1 or text.count(END) != 1 or text.index(START) > text.index(END):
        raise ValueError(f"the page must hold the markers {START} and {END} once each, in that order")
    before, rest = text.split(START)
    _, after = rest.split(END)
    return f"{before}{START}\n{listing()}\n{END}{after}"


def main(argv: list[str]) -> int:
    """Rewrite (or, with ``--check``, compare) the listing of the page named by ``argv``."""
    check = "--check" in argv
    pages = [a for a in argv if a != "--check"]
    if len(pages) != 1:
        print("usage: python -m melearn.derivation.trusted [--check] PAGE", file=sys.stderr)
        return 2
    page = Path(pages[0])
    text = page.read_text(encoding="utf-8")
    fresh = update(text)
    if fresh == text:
        return 0
    if check:
        print(f"{page}: the trusted files' listing is out of date (run python -m melearn.derivation.trusted {page})")
        return 1
    page.write_text(fresh, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
