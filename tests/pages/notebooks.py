"""The pages of the book as the page tests read them: the notebooks of ``_toc.yml``, their code and their prose."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def toc_notebooks() -> list[Path]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    files = []

    def walk(node):
        if isinstance(node, dict):
            if "file" in node:
                files.append(node["file"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(toc)
    return [ROOT / f"{name}.ipynb" for name in files if (ROOT / f"{name}.ipynb").exists()]


PAGES = [p for p in toc_notebooks() if p.name != "benchmarks.ipynb"]
IDS = [str(p.relative_to(ROOT / "chapters")) for p in PAGES]


def cells(page: Path, kind: str) -> list[dict]:
    return [c for c in json.loads(page.read_text(encoding="utf-8"))["cells"] if c["cell_type"] == kind]


def code(page: Path) -> str:
    return "\n\n".join("".join(c["source"]) for c in cells(page, "code"))


def prose(page: Path) -> str:
    return "\n\n".join("".join(c["source"]) for c in cells(page, "markdown"))
