"""The worked example on chapters/how_to_verify.md shows the real output of its code.

The page shows a derivation step that names too few rules, and the refusal that ``show_refusal`` prints,
as static text. This test runs the page's code block in a fresh interpreter and compares what it prints with the
text the page shows, so the page cannot drift from what the library really says.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

PAGE = Path(__file__).resolve().parents[3] / "chapters" / "how_to_verify.md"


def _blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", PAGE.read_text(encoding="utf-8"), flags=re.S | re.M)


def test_worked_example_prints_what_the_page_shows():
    (code,) = [block for block in _blocks("python") if "show_refusal" in block]
    (shown,) = [block for block in _blocks("text") if block.startswith("refused:")]
    # in a fresh interpreter, as a reader runs it: what the code prints must not depend on what other tests of the
    # same pytest process (an xdist worker runs many files) created before it, such as sympy symbols of equal names
    completed = subprocess.run(
        [sys.executable, "-c", code], cwd=PAGE.parent, capture_output=True, text=True, timeout=300, check=False
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout == shown
    assert "step 1 ('split the expectation') does not follow" in shown
