"""What a reader who does not see the page or does not use a mouse gets, measured in the built book (WCAG 2.2 AA).

Each page of both editions, in the one visit every browser test shares (``bookcheck.PageVisits``), is measured at
a desktop width and at a phone width:

* **axe-core** (the copy bundled by ``axe-playwright-python``; nothing is fetched), its WCAG 2.0-2.2 A and AA rules
  and its best practices. No violation of impact "serious" or "critical" may remain. axe reads every node of a
  page (the rank-loss page has about 28,000, 21,000 of them inside formulas) and one run of it takes 10-100 s
  there on two busy cores, so the sweep reads every page of both editions in all four modes (light and dark, at
  the desktop and the phone width) but not all of each page in each: the whole page in light mode at the desktop
  width; in the three other modes, everything but the drawing of each formula (MathJax's glyphs and its hidden
  MathML; the formula's box, which scrolls on a phone, is read), since what a mode changes in a formula is its
  colour, which ``test_reading.py`` measures on every page. A sample of pages (:data:`SAMPLE`: the landing page, a
  page of chains and a figure, the explorers, the tables of the glossary, the errata) is read whole in every mode.
* **formulas are read**: every formula of the English edition carries MathJax's speech (and Braille), waited for
  (MathJax computes it in a web worker after typesetting, late under load); every formula of the Chinese edition
  keeps the hidden MathML a screen reader reads (MathJax has no Chinese speech rules);
* **formulas are not tab stops**, and the page's tab stops are counted (links and controls only);
* **figures have words**: every figure's ``alt`` says what it shows (not a file name), and a figure that carries
  a result has a description under it;
* **the ✓ of a chain is read** "checked" (已检验 in Chinese).

The checks can fail (:func:`test_the_checks_fail_on_a_page_built_without_them`): a page written as the book was
before these measures (a file name as alt text, formulas in the tab order, no speech, light-grey text) is measured
with the same script, and every check reports it.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest

from .bookcheck import (
    MODE_DESKTOP,
    MODE_PHONE,
    edition_pages,
    fail_if,
    measure_on_every_visit,
    on_every_page,
    toc_pages,
)

pytestmark = pytest.mark.browser

# the pages axe reads whole in every mode, formulas' drawings included (in both editions)
SAMPLE = (
    "chapters/intro",
    "chapters/roc_curve",
    "chapters/mcnemar",
    "chapters/threshold_explorer",
    "chapters/glossary",
    "chapters/errata",
)
IMPACTS = ("serious", "critical")
# axe's rule sets: WCAG 2.0, 2.1 and 2.2, levels A and AA, and its best practices
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


@cache
def axe_source() -> str:
    """axe-core as axe-playwright-python bundles it (no network)."""
    import axe_playwright_python

    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text(encoding="utf-8")


# One script, run in both modes. It waits for MathJax's speech (computed in a web worker after typesetting), then
# counts, then (where axe is due) runs axe in light mode and in dark mode, and puts the page back in light mode.
_MEASURE_JS = r"""
async () => {
  const SAMPLE = %(sample)s, TAGS = %(tags)s, IMPACTS = %(impacts)s;
  const path = location.pathname.replace(/^\//, '').replace(/\.html$/, '');
  const page = path.replace(/^zh\//, '');
  const phone = window.innerWidth < 600;
  const containers = () => Array.from(document.querySelectorAll('mjx-container'));
  // MathJax 4 puts a formula's speech (and Braille) on an mjx-speech element (role img, aria-label); with speech
  // off, a screen reader reads the hidden MathML (mjx-assistive-mml), which speech otherwise hides
  const spoken = (c) => Array.from(c.querySelectorAll('mjx-speech'))
    .some((s) => (s.getAttribute('aria-label') || '').trim().length > 0);
  const assistive = (c) => Array.from(c.querySelectorAll('mjx-assistive-mml'))
    .some((m) => m.getAttribute('aria-hidden') !== 'true' && m.querySelector('math'));
  // speech arrives after typesetting; under load it can take a while
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    await MathJax.startup.promise;
    const options = (MathJax.startup.document && MathJax.startup.document.options) || {};
    const speechWanted = !!options.enableSpeech;  // as the page configured it (off in the Chinese edition)
    const deadline = performance.now() + 60000;
    while (speechWanted && performance.now() < deadline && containers().some((c) => !spoken(c))) {
      await new Promise((done) => setTimeout(done, 250));
    }
  }
  const visible = (el) => {
    if (!el.getClientRects().length) return false;
    for (let p = el; p; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (s.visibility === 'hidden' || s.display === 'none') return false;
      if (p.inert) return false;
    }
    return true;
  };
  const focusable = 'a[href], button, input, select, textarea, summary, iframe, [tabindex], '
    + '[contenteditable="true"], mjx-container';
  const stops = Array.from(document.querySelectorAll(focusable))
    .filter((el) => el.tabIndex >= 0 && !el.disabled && visible(el));
  // a formula that scrolls sideways in its own box is one stop, so that a keyboard can scroll it (data-scroll-stop)
  const formulaStops = stops.filter((el) => el.closest('mjx-container') && !('scrollStop' in el.dataset));
  const figures = Array.from(document.querySelectorAll('.cell_output img, .output img')).map((img) => {
    const next = img.parentElement && img.parentElement.querySelector('details.figure-description');
    return {src: img.getAttribute('src') || '', alt: img.getAttribute('alt') || '',
            described: !!(next && next.textContent.trim().length > 20)};
  });
  const ticks = Array.from(document.querySelectorAll('.chain-tick')).map((t) =>
    ({role: t.getAttribute('role') || '', label: t.getAttribute('aria-label') || ''}));
  const result = {
    page, phone,
    formulas: containers().length,
    spoken: containers().filter(spoken).length,
    assistive: containers().filter(assistive).length,
    tabStops: stops.length,
    formulaStops: formulaStops.length,
    figures, ticks, axe: null,
  };
  const sampled = SAMPLE.includes(page);
  if (!window.axe) (0, eval)(%(axe)s);
  // the theme makes a code cell that scrolls sideways a tab stop 300 ms after a change of width: let it
  await new Promise((done) => setTimeout(done, 400));
  const html = document.documentElement;
  // what axe reads: the whole page in light mode at the desktop width, and on a sampled page in every mode; in the
  // three other modes of the other pages, everything but the drawing of each formula (MathJax's glyphs and its
  // hidden MathML: about three quarters of a page of chains, and what a mode changes there, their colour, is
  // measured on every page by test_reading.py); the formula's own box, which scrolls on a phone, is still read
  const whole = () => sampled || (!phone && html.dataset.theme !== 'dark');
  const context = () => (whole() ? document
    : {include: [['body']], exclude: [['mjx-container > mjx-math'], ['mjx-container > mjx-assistive-mml']]});
  const run = async () => {
    // preload off: axe's preload fetched the theme's @import of basic.css against the page's address, not the
    // stylesheet's, so every visit that ran axe asked the server for a file that does not exist (HTTP 404)
    const found = await axe.run(context(), {
      runOnly: {type: 'tag', values: TAGS}, resultTypes: ['violations'], preload: false,
    });
    return found.violations.filter((v) => IMPACTS.includes(v.impact)).map((v) => ({
      id: v.id, impact: v.impact, nodes: v.nodes.length,
      targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + (n.failureSummary ? ': ' +
        n.failureSummary.split('\n').slice(1, 2).join('').trim().slice(0, 120) : ''))}));
  };
  const settle = async () => {
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    await Promise.all(document.getAnimations().filter((a) => a.playState === 'running'
      && Number.isFinite(a.effect.getComputedTiming().endTime)).map((a) => a.finished.catch(() => null)));
  };
  const before = [html.dataset.theme, html.dataset.mode];
  result.axe = {light: await run()};
  html.dataset.theme = 'dark'; html.dataset.mode = 'dark';
  await settle();
  result.axe.dark = await run();
  [html.dataset.theme, html.dataset.mode] = before;
  await settle();
  return result;
}
"""


@cache
def measure_script() -> str:
    return _MEASURE_JS % {
        "sample": json.dumps(list(SAMPLE)),
        "tags": json.dumps(AXE_TAGS),
        "impacts": json.dumps(list(IMPACTS)),
        "axe": json.dumps(axe_source()),
    }


measure_on_every_visit("accessibility", measure_script(), {"desktop": MODE_DESKTOP, "phone": MODE_PHONE})

# a figure's alt that is only its file: "../_images/2a4f....png", "2a4f.png"
_FILE_NAME = re.compile(r"^\S*\.(png|jpe?g|svg|gif)$|^\S*/\S*$", re.I)


def axe_problems(measured: dict) -> list[str]:
    """The serious and critical violations axe found, one line per rule and colour mode."""
    problems = []
    for colours in ("light", "dark"):
        for violation in (measured.get("axe") or {}).get(colours, []):
            problems.append(
                f"{colours}: {violation['id']} ({violation['impact']}, {violation['nodes']} elements): "
                + "; ".join(violation["targets"])
            )
    return problems


def figure_problems(measured: dict) -> list[str]:
    problems = []
    for figure in measured["figures"]:
        alt = figure["alt"].strip()
        if not alt or _FILE_NAME.match(alt) or len(alt) < 8:
            problems.append(f"{figure['src']}: alt {alt!r} does not say what the figure shows")
        elif not figure["described"]:
            problems.append(f"{figure['src']}: no description under the figure")
    return problems


def formula_problems(measured: dict, chinese: bool) -> list[str]:
    problems = []
    if measured["formulaStops"]:
        problems.append(f"{measured['formulaStops']} of {measured['tabStops']} tab stops are formulas")
    if chinese and measured["assistive"] < measured["formulas"]:
        missing = measured["formulas"] - measured["assistive"]
        problems.append(f"{missing} of {measured['formulas']} formulas without hidden MathML a screen reader reads")
    if not chinese and measured["spoken"] < measured["formulas"]:
        missing = measured["formulas"] - measured["spoken"]
        problems.append(f"{missing} of {measured['formulas']} formulas without speech")
    return problems


def tick_problems(measured: dict, chinese: bool) -> list[str]:
    word = "已检验" if chinese else "checked"
    return [
        f"a tick is announced as role={t['role']!r} label={t['label']!r}"
        for t in measured["ticks"]
        if t["role"] != "img" or t["label"] != word
    ][:3]


def _measured(report, mode: str) -> dict:
    return report.measures["accessibility"][mode]


@on_every_page
def test_no_serious_or_critical_axe_violations(report):
    fail_if(axe_problems(_measured(report, "desktop")), "axe-core, desktop width, light and dark", report)
    fail_if(axe_problems(_measured(report, "phone")), "axe-core, phone width, light and dark", report)


@on_every_page
def test_formulas_are_read_and_are_not_tab_stops(report):
    chinese = "/zh/" in report.url
    problems = formula_problems(_measured(report, "desktop"), chinese)
    fail_if(problems, "formulas a screen reader or keyboard meets", report)


@on_every_page
def test_figures_say_what_they_show(report):
    fail_if(figure_problems(_measured(report, "desktop")), "figures without words", report)


@on_every_page
def test_ticks_are_announced_checked(report):
    chinese = "/zh/" in report.url
    fail_if(tick_problems(_measured(report, "desktop"), chinese), "ticks a screen reader reads", report)


def test_the_phone_sample_is_in_the_book():
    assert set(SAMPLE) <= set(toc_pages()), "a page of SAMPLE is not in _toc.yml"
    assert len(edition_pages()) == 2 * len(toc_pages())


# a page as the book was before: a figure named by its file, formulas in the tab order without speech, pale text,
# and a paragraph legible in light mode only (the page is not in SAMPLE: its dark mode is read without formulas)
_BEFORE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>before</title>
<style>html[data-theme="dark"] .night { color: #333; background: #000; }</style></head><body>
<main><h1>A page as it was</h1>
<p style="color:#ccc">Pale text on white.</p>
<p class="night">Legible on white, near black on black.</p>
<div class="cell_output"><img src="../_images/2a4f.png" alt="../_images/2a4f.png"></div>
<mjx-container tabindex="0"><mjx-math>x</mjx-math></mjx-container>
<mjx-container tabindex="0"><mjx-math>y</mjx-math></mjx-container>
<span class="chain-tick" title="checked">\u2713</span>
<a href="#top">a link</a></main></body></html>"""


def test_the_checks_fail_on_a_page_built_without_them(browser_context, tmp_path):
    page = browser_context.new_page()
    try:
        page.set_content(_BEFORE)
        measured = page.evaluate(measure_script())
    finally:
        page.close()
    assert any(line.startswith("light: color-contrast") for line in axe_problems(measured)), measured["axe"]
    assert any(line.startswith("dark: color-contrast") and ".night" in line for line in axe_problems(measured))
    assert figure_problems(measured) and "does not say" in figure_problems(measured)[0]
    problems = formula_problems(measured, chinese=False)
    assert any("2 of 3 tab stops are formulas" in p for p in problems), problems
    assert any("2 of 2 formulas without speech" in p for p in problems), problems
    assert any("hidden MathML" in p for p in formula_problems(measured, chinese=True))
    assert tick_problems(measured, chinese=False)
