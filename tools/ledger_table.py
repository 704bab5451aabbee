"""Fill the landing page's formula map with what each page proves, read from the pages' stored proof ledgers.

Usage: ``python tools/ledger_table.py [--check]``.

Every chapter page ends with ``display(page_ledger())``, whose plain-text output is the page's ledger as JSON (see
``melearn/derivation/ledger.py``); nbval compares that output with a fresh run whenever the tests run, so the stored
ledgers are the ones the current code produces. This script reads them back from the stored notebooks and rewrites
the last two columns of the formula map in ``chapters/intro.md`` (the table between the ``ledger-table`` markers,
the formula map and the exercises): the steps proved (and how many by algebra alone), and the assumptions and cited
results the page rests on, with what it checks only by enumeration or simulation. ``--check`` rewrites nothing and
exits with status 1 when the table is out of date (the tests run it so).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
INTRO = ROOT / "chapters" / "intro.md"
START, END = "<!-- ledger-table:start -->", "<!-- ledger-table:end -->"
LEDGER_KEYS = {"algebra_steps", "chains", "claims", "rules", "steps"}


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


def _names(entries) -> str:
    return ", ".join(name for name, _source in entries)


def describe(ledger: dict | None) -> tuple[str, str]:
    """The two cells of a page's row: steps proved, and what the page rests on."""
    if ledger is None:
        return "no ledger", "—"
    steps = f"{ledger['steps']} ({ledger['algebra_steps']} by algebra)"
    parts = []
    if ledger["rules"]["assumption"]:
        parts.append(f"assumes: {_names(ledger['rules']['assumption'])}")
    if ledger["rules"]["cited"]:
        parts.append(f"cites: {_names(ledger['rules']['cited'])}")
    claims = ledger["claims"]
    if claims:
        enumerated = sum(1 for c in claims if c["how"] == "enumerated")
        simulated = sum(1 for c in claims if c["how"] == "simulated")
        counted = [f"{n} {how}" for n, how in ((enumerated, "enumerated"), (simulated, "simulated")) if n]
        parts.append("not proved: " + ", ".join(counted))
    rests = "; ".join(parts) if parts else "definitions and algebra only"
    return steps, rests.replace("|", r"\|")


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


def rebuild(text: str) -> str:
    """The intro text with the ledger columns of every marked table filled in."""
    parts = text.split(START)
    rebuilt = [parts[0]]
    for part in parts[1:]:
        table, tail = part.split(END, 1)
        rebuilt.append(f"{START}\n{_filled(table)}\n{END}{tail}")
    return "".join(rebuilt)


def main(argv: list[str]) -> int:
    text = INTRO.read_text(encoding="utf-8")
    new = rebuild(text)
    if "--check" in argv:
        if new != text:
            print("chapters/intro.md: the formula map's ledger columns are out of date; run tools/ledger_table.py")
            return 1
        return 0
    INTRO.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
