"""A refused step reads as a block that wraps in its column, on a desktop and on a phone, in both editions.

A refusal used to be one line of sympy's ``str`` in a code box, up to 2,900 px wide in a 757 px column (358 px on a
phone), scrolled sideways. Each refusal is now measured where it is shown: the block is no wider than its column,
nothing in it reaches past its right edge, and no refusal is left as a line of printed text.

Run ``make book`` first; without a built book or without Chromium the tests are skipped (failed under ``CI=true``).
"""

from __future__ import annotations

import pytest

from .bookcheck import html_dir, measure_on_every_visit, skip_or_fail, toc_pages

pytestmark = pytest.mark.browser

CHINESE = "zh"
SCREENS = {
    "desktop": ({"width": 1366, "height": 900}, "screen"),
    "phone": ({"width": 390, "height": 844}, "screen"),
}
REFUSALS_JS = r"""
() => {
  const found = {blocks: [], printed: []};
  for (const block of document.querySelectorAll('.melearn-refusal')) {
    const box = block.getBoundingClientRect();
    const column = (block.closest('.cell_output') || block.parentElement).getBoundingClientRect();
    let reach = box.right;
    for (const inner of block.querySelectorAll('mjx-container, span, p, div')) {
      const r = inner.getBoundingClientRect();
      if (r.width > 0) reach = Math.max(reach, r.right);
    }
    found.blocks.push({
      width: Math.round(box.width), column: Math.round(column.width),
      overflow: Math.round(reach - box.right), scrolls: block.scrollWidth > block.clientWidth + 1,
      text: block.textContent.slice(0, 80),
    });
  }
  for (const pre of document.querySelectorAll('.cell_output pre')) {
    if (/^(refused|拒绝)[:：]/m.test(pre.textContent)) found.printed.push(pre.textContent.slice(0, 80));
  }
  return found;
}
"""
measure_on_every_visit("refusals", REFUSALS_JS, SCREENS)

PAGES = [page for page in toc_pages() if page.startswith("chapters/")]
EDITION_PAGES = PAGES + [f"{CHINESE}/{page}" for page in PAGES]


@pytest.mark.parametrize("name", EDITION_PAGES)
def test_each_refusal_wraps_in_its_column(page_visits, name):
    if name.startswith(CHINESE + "/") and not (html_dir() / CHINESE / "chapters").is_dir():
        skip_or_fail(f"no Chinese edition in {html_dir() / CHINESE}: run `make book` first")
    report = page_visits.get(name)
    problems = []
    for screen, found in report.measures["refusals"].items():
        problems += [f"{screen}: a refusal printed as text: {text!r}" for text in found["printed"]]
        for block in found["blocks"]:
            if block["width"] > block["column"] or block["overflow"] > 1 or block["scrolls"]:
                problems.append(f"{screen}: {block}")
    assert not problems, f"{report.url}:\n  " + "\n  ".join(problems)
