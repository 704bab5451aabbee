"""The worked example on chapters/how_to_verify.md shows the real output of its code.

The page shows a derivation step that names too few rules, and the refusal that ``show_refusal`` prints,
as static text. This test runs the page's code block and compares what it prints with the text the page shows,
so the page cannot drift from what the library really says.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

PAGE = Path(__file__).resolve().parents[2] / "chapters" / "how_to_verify.md"


def _blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", PAGE.read_text(encoding="utf-8"), flags=re.S | re.M)


def test_worked_example_prints_what_the_page_shows():
    (code,) = [block for block in _blocks("python") if "show_refusal" in block]
    (shown,) = [block for block in _blocks("text") if block.startswith("refused:")]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, str(PAGE), "exec"), {})  # noqa: S102 - the page's own example
    assert printed.getvalue() == shown
    assert "step 1 ('split the expectation') does not follow" in shown
