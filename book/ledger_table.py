"""Fill the landing page's formula map with what each page proves, read from the pages' stored proof ledgers.

Usage: ``python -m book.ledger_table [--check]``.

Every chapter page ends with ``display(page_ledger())``, whose plain-text output is the page's ledger as JSON (see
``melearn/derivation/ledger.py``); nbval compares that output with a fresh run whenever the tests run, so the stored
ledgers are the ones the current code produces. This script reads them back from the stored notebooks and rewrites
the last two columns of the formula map in ``chapters/intro.md`` (the table between the ``ledger-table`` markers,
the formula map and the exercises): the steps proved (and how many by algebra alone), and how many assumptions
and cited results the page rests on, with what it holds without a chain (enumerated, simulated, argued in words,
taken from a reference); the page's own ledger names them. It
also writes the book's totals (:func:`summary`) between the ``ledger-summary`` markers of the landing page and of
``README.md``, so that what they claim about the checks is what the ledgers count. ``--check`` rewrites nothing
and exits with status 1 when a table or a summary is out of date (the tests run it so).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
INTRO = ROOT / "chapters" / "intro.md"
README = ROOT / "README.md"
START, END = "<!-- ledger-table:start -->", "<!-- ledger-table:end -->"
SUMMARY_START, SUMMARY_END = "<!-- ledger-summary:start -->", "<!-- ledger-summary:end -->"
LEDGER_KEYS = {"algebra_steps", "chains", "claims", "rules", "steps"}
#: what a page holds without a checked chain, as the ledger records it (``how``), and how the tables name it
UNPROVED = (
    ("enumerated", "enumerated"),
    ("simulated", "simulated"),
    ("argued", "argued in words"),
    ("cited", "taken from a reference"),
)


def stored_ledger(notebook: Path) -> dict | None:
    """The last proof ledger stored in a notebook's outputs, or None."""
    found = None
    for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
        for output in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
            text = output.get("data", {}).get("text/plain")
            if text is None:
                continue
            text = "".join(text) if isinstance(text, list) else text
            try:
                value = json.loads(text)
            except ValueError:
                continue
            if isinstance(value, dict) and LEDGER_KEYS <= set(value):
                found = value
    return found


def _counted(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def describe(ledger: dict | None) -> tuple[str, str]:
    """The two cells of a page's row: steps proved, and what the page rests on, counted.

    The map counts the assumptions and the cited results (the page's proof ledger names each one, with its
    source): a list of names in the map's last column made its rows many lines tall.
    """
    if ledger is None:
        return "no ledger", "—"
    steps = f"{ledger['steps']} ({ledger['algebra_steps']} by algebra)"
    rests = []
    if ledger["rules"]["assumption"]:
        rests.append(_counted(len(ledger["rules"]["assumption"]), "assumption", "assumptions"))
    if ledger["rules"]["cited"]:
        rests.append(_counted(len(ledger["rules"]["cited"]), "cited result", "cited results"))
    parts = [", ".join(rests)] if rests else []
    claims = ledger["claims"]
    if claims:
        counted = [f"{n} {name}" for how, name in UNPROVED if (n := sum(1 for c in claims if c["how"] == how))]
        parts.append("not proved: " + ", ".join(counted))
    return steps, "; ".join(parts) if parts else "definitions and algebra only"


def _filled(table: str) -> str:
    """One table with its last two columns (steps proved, rests on) filled from the ledger of each row's page."""
    lines = table.strip().splitlines()
    out = lines[:2]  # the header and the rule below it
    for line in lines[2:]:
        inner = line.strip()[1:-1]  # without the outer pipes; a cell's own pipes are escaped (\|)
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", inner)]
        page = next((m for c in cells for m in [re.search(r"\]\(([\w/]+)\.ipynb\)", c)] if m), None)
        ledger = stored_ledger(INTRO.parent / f"{page.group(1)}.ipynb") if page else None
        cells[-2:] = describe(ledger)
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def book_ledgers() -> dict[str, dict]:
    """The stored ledger of every page that has one, by page (``evaluation_methods``, ``exercises/ex2_5``)."""
    pages = sorted((INTRO.parent).rglob("*.ipynb"))
    found = {page.relative_to(INTRO.parent).with_suffix("").as_posix(): stored_ledger(page) for page in pages}
    return {name: ledger for name, ledger in found.items() if ledger is not None}


def totals(ledgers: dict[str, dict]) -> dict:
    """The book's counts: pages, checked steps (by algebra alone), distinct assumptions and cited rules, claims."""

    def distinct(kind):
        return len({tuple(entry) for ledger in ledgers.values() for entry in ledger["rules"][kind]})

    counts = {
        "pages": len(ledgers),
        "chains": sum(ledger["chains"] for ledger in ledgers.values()),
        "steps": sum(ledger["steps"] for ledger in ledgers.values()),
        "algebra_steps": sum(ledger["algebra_steps"] for ledger in ledgers.values()),
        "assumptions": distinct("assumption"),
        "cited_rules": distinct("cited"),
    }
    for how, _ in UNPROVED:
        counts[how] = sum(1 for ledger in ledgers.values() for claim in ledger["claims"] if claim["how"] == how)
    routes = [ledger.get("second_route", {}) for ledger in ledgers.values()]
    counts["confirmed"] = sum(route.get("confirmed", 0) for route in routes)
    counts["kernel_only"] = sum(route.get("kernel_only", 0) for route in routes)
    reasons: dict[str, int] = {}
    for route in routes:
        for reason, n in route.get("reasons", {}).items():
            reasons[reason] = reasons.get(reason, 0) + n
    counts["kernel_only_reasons"] = reasons
    argued = [ledger for ledger in ledgers.values() if any(claim["how"] == "argued" for claim in ledger["claims"])]
    counts["argued_pages"] = len(argued)
    return counts


def summary(counts: dict) -> str:
    """What the ledgers say about the whole book, in one paragraph (the same on the landing page and the README)."""
    return (
        f"Across the {counts['pages']} pages with derivations, {counts['chains']} chains check {counts['steps']} "
        f"steps by machine ({counts['algebra_steps']} of them by algebra alone, the others by the rules they name), "
        f"resting on {counts['assumptions']} stated assumptions and {counts['cited_rules']} cited results. "
        f"What the pages hold without a chain is listed in their ledgers as such: {counts['enumerated']} claims "
        f"checked only by exhaustive enumeration, {counts['simulated']} supported only by simulation, "
        f"{counts['argued']} arguments made in words (on {counts['argued_pages']} pages) and {counts['cited']} "
        "results taken from references without proof."
        + (_second_route(counts) if counts.get("confirmed", 0) + counts.get("kernel_only", 0) else "")
    )


def _second_route(counts: dict) -> str:
    return (
        f" A second, independent route evaluates every checked step in random concrete models of its premises: "
        f"{counts.get('confirmed', 0)} steps are confirmed, {counts.get('kernel_only', 0)} "
        f"({_share(counts)} of the checked steps) are checked by the kernel "
        f"only{_reasons(counts.get('kernel_only_reasons', {}))}, and none is refuted (a refuted step is refused)."
    )


def _share(counts: dict) -> str:
    routed = counts.get("confirmed", 0) + counts.get("kernel_only", 0)
    return f"{100 * counts.get('kernel_only', 0) / routed:.1f}%" if routed else "0%"


def _reasons(reasons: dict[str, int]) -> str:
    if not reasons:
        return ""
    return (
        " (" + "; ".join(f"{reason}: {n}" for reason, n in sorted(reasons.items(), key=lambda r: (-r[1], r[0]))) + ")"
    )


def rebuild(text: str, counts: dict[str, int] | None = None) -> str:
    """The text with the ledger columns of every marked table and every marked summary filled in."""
    parts = text.split(START)
    rebuilt = [parts[0]]
    for part in parts[1:]:
        table, tail = part.split(END, 1)
        rebuilt.append(f"{START}\n{_filled(table)}\n{END}{tail}")
    text = "".join(rebuilt)
    if SUMMARY_START in text:
        counts = totals(book_ledgers()) if counts is None else counts
        pattern = re.compile(re.escape(SUMMARY_START) + ".*?" + re.escape(SUMMARY_END), re.S)
        text = pattern.sub(lambda _: f"{SUMMARY_START}\n{summary(counts)}\n{SUMMARY_END}", text)
    return text


def main(argv: list[str]) -> int:
    counts = totals(book_ledgers())
    print(
        f"second route: {counts['confirmed']} steps confirmed, {counts['kernel_only']} kernel only ({_share(counts)})"
        f"{_reasons(counts['kernel_only_reasons'])}, 0 refuted, of {counts['steps']} checked steps"
    )
    stale = []
    for path in (INTRO, README):
        text = path.read_text(encoding="utf-8")
        new = rebuild(text, counts)
        if new == text:
            continue
        if "--check" in argv:
            stale.append(path.relative_to(ROOT).as_posix())
        else:
            path.write_text(new, encoding="utf-8")
    if stale:
        print(f"{', '.join(stale)}: the ledger tables or summaries are out of date; run book/ledger_table.py")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
