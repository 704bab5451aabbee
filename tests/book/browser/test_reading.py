"""What a reader sees of the mathematics: formulas broken into as few lines as their width needs, chains whose steps
stay whole while the column has room, chains legible in dark mode, and the first checked chain near its formula.

``test_fit.py`` holds the other side: nothing wider than its column. A formula can fit by being broken into a tower
of one symbol a line; these tests see that. Each page of both editions is measured in its one visit
(``bookcheck.py``) at 1366x900, at 390x844 and laid out for print at the width of an A4 sheet's text (182 mm, the
margins of ``book/build_pdf.py``), each once the book has broken its formulas again for that width
(``book/static/math-reflow.js``).

* Lines: MathJax 4 draws each line of a broken display formula as an ``mjx-linebox``. A formula (or each row of an
  ``aligned`` block) *needs* as many lines as its width, the sum of its lines' widths, takes of its box; it may be
  drawn in at most that many plus one on a desktop and on paper, twice that many plus one on a phone.
* Chains: a step whose pieces would fit on one line of its column is drawn on one line.
* Dark mode: the text of chains and rule lists has a contrast of at least 4.5:1 against what is behind it, and no
  scroll cue is painted over the mathematics in a colour other than the chain's own background.
* Distance: on the pages of (2.20), (2.21), (2.27) and (2.41) the first checked chain starts within one screen of
  the formula's end on a desktop and two on a phone.

Run ``make book`` first; without a built book or without Chromium the tests are skipped (failed under ``CI=true``).
"""

from __future__ import annotations

import math

import pytest

from .bookcheck import CHINESE, html_dir, measure_on_every_visit, skip_or_fail, toc_pages

pytestmark = pytest.mark.browser

PAGES = toc_pages()
EDITION_PAGES = PAGES + [f"{CHINESE}/{page}" for page in PAGES]
DESKTOP = ({"width": 1366, "height": 900}, "screen")
PHONE = ({"width": 390, "height": 844}, "screen")
# an A4 sheet's text width (210 mm less two 14 mm margins) at 96 px to the inch, laid out as on paper
PAPER = ({"width": round(182 / 25.4 * 96), "height": round(269 / 25.4 * 96)}, "print")
SCREENS = {"desktop": DESKTOP, "phone": PHONE, "print": PAPER}
SCREEN_HEIGHT = {"desktop": DESKTOP[0]["height"], "phone": PHONE[0]["height"]}
# the pages whose key formula must be followed closely by its checked derivation, and the formula
# (None: the page's first display formula, the corrected (2.27), which the page states without the book's number)
KEY_PAGES = {
    "chapters/auc": "2.20",
    "chapters/rank_loss": "2.21",
    "chapters/binomial_test_corrected": None,
    "chapters/bias_variance": "2.41",
}
MIN_CONTRAST = 4.5

LINES_JS = r"""
() => {
  const article = document.querySelector('.bd-article') || document.body;
  const where = (el) => {
    const section = el.closest('section[id]');
    const number = el.closest('div.math') && el.closest('div.math').querySelector(':scope > .eqno');
    const text = Array.from((el.textContent || '').replace(/\s+/g, ' ').trim()).slice(0, 40).join('');
    return (number ? number.textContent.replace('#', '').trim() + ' ' : '') +
           `${section ? '#' + section.id : 'page'}: "${text}"`;
  };
  // the width of what a line holds (its box is as wide as the formula's widest line)
  const held = (box) => {
    let left = Infinity, right = -Infinity;
    for (const child of box.children) {
      const r = child.getBoundingClientRect();
      if (r.width < 0.5) continue;
      left = Math.min(left, r.left); right = Math.max(right, r.right);
    }
    return right > left ? right - left : 0;
  };
  // lines drawn and the width they hold, in one cell or one formula (lines of nested tables are their own)
  const lines = (el) => {
    const cell = el.matches('mjx-mtd');
    const boxes = Array.from(el.querySelectorAll('mjx-linebox')).filter((b) => {
      const owner = b.parentElement.closest('mjx-mtd');
      return cell ? owner === el : !owner || !el.contains(owner);
    });
    if (!boxes.length) return {drawn: 1, width: el.getBoundingClientRect().width};
    return {drawn: boxes.length, width: boxes.reduce((sum, b) => sum + held(b), 0)};
  };
  const found = [];
  for (const c of article.querySelectorAll('mjx-container[display="true"]')) {
    if (c.closest('.melearn-chain, .melearn-rules')) continue;
    const box = c.getBoundingClientRect();
    const m = c.querySelector('mjx-math');
    if (!m || box.width === 0 || box.height === 0) continue;
    const room = c.clientWidth || box.width;
    // an aligned block (however deeply it is nested): each of its rows is a line of its own, broken as it needs;
    // else the formula as one
    const rows = Array.from(m.querySelectorAll('mjx-mtr, mjx-mlabeledtr'))
      .filter((row) => !row.querySelector('mjx-mtable'));
    let drawn = 0, needed = 0;
    for (const unit of rows.length ? rows : [m]) {
      const cells = rows.length ? Array.from(unit.querySelectorAll(':scope > mjx-mtd')) : [unit];
      const each = cells.map(lines);
      drawn += Math.max(1, ...each.map((e) => e.drawn));
      needed += Math.max(1, Math.ceil((each.reduce((sum, e) => sum + e.width, 0) - 1) / room));
    }
    found.push({where: where(c), drawn, needed, room: Math.round(room), height: Math.round(box.height)});
  }
  return found;
}
"""

CHAINS_JS = r"""
() => {
  const article = document.querySelector('.bd-article') || document.body;
  const where = (el) => {
    const section = el.closest('section[id]');
    const text = Array.from((el.textContent || '').replace(/\s+/g, ' ').trim()).slice(0, 40).join('');
    return `${section ? '#' + section.id : 'page'}: "${text}"`;
  };
  const steps = [];
  for (const expr of article.querySelectorAll('.melearn-chain .chain-expr, .melearn-chain .chain-lhs')) {
    const r = expr.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const pieces = Array.from(expr.querySelectorAll(':scope > .chain-term'));
    if (!pieces.length) continue;
    // the lines the step is drawn on: the fragments of its formulas (a piece MathJax broke inside has one a
    // line), grouped by vertical overlap
    const rects = pieces.flatMap((p) => Array.from(p.querySelectorAll('mjx-container'))
      .filter((c) => !c.closest('mjx-assistive-mml')).flatMap((c) => Array.from(c.getClientRects())))
      .filter((q) => q.width > 0.5)
      .sort((a, b) => a.top - b.top);
    let lines = 0, bottom = -Infinity;
    for (const q of rects) {
      if (q.top >= bottom - 2) { lines += 1; bottom = q.bottom; } else bottom = Math.max(bottom, q.bottom);
    }
    const width = pieces.reduce((sum, p) => {
      const s = getComputedStyle(p);
      return sum + p.getBoundingClientRect().width + parseFloat(s.marginLeft) + parseFloat(s.marginRight);
    }, 0);
    // the widest the step may be: its row (the chain's column for the mathematics), less its indent
    const holder = expr.parentElement.getBoundingClientRect();
    const indent = parseFloat(getComputedStyle(expr).paddingLeft) + parseFloat(getComputedStyle(expr).paddingRight);
    const room = Math.min(holder.right, article.getBoundingClientRect().right) - holder.left - indent;
    steps.push({where: where(expr), lines, width: Math.round(width), room: Math.round(room)});
  }
  return steps;
}
"""

DARK_JS = r"""
() => {
  const root = document.documentElement;
  const before = [root.dataset.theme, root.dataset.mode];
  root.dataset.theme = 'dark'; root.dataset.mode = 'dark';
  const article = document.querySelector('.bd-article') || document.body;
  const rgba = (text) => {
    const m = /rgba?\(([^)]+)\)/.exec(text || '');
    if (!m) return null;
    const [r, g, b, a] = m[1].split(/[ ,/]+/).map(Number);
    return [r, g, b, Number.isFinite(a) ? a : 1];
  };
  // what is painted behind an element: the first opaque background colour up the tree
  const behind = (el) => {
    for (let p = el; p; p = p.parentElement) {
      const c = rgba(getComputedStyle(p).backgroundColor);
      if (c && c[3] > 0.5) return c;
    }
    return [255, 255, 255, 1];
  };
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const contrast = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const where = (el) => {
    const section = el.closest('section[id]');
    const text = Array.from((el.textContent || '').replace(/\s+/g, ' ').trim()).slice(0, 40).join('');
    return `${el.className} ${section ? '#' + section.id : 'page'}: "${text}"`;
  };
  const visible = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const text = [];
  const seen = new Set();
  for (const el of article.querySelectorAll('.melearn-chain .chain-note, .melearn-chain .chain-why, ' +
      '.melearn-chain .chain-rules, .melearn-chain .chain-assumptions, .melearn-chain .chain-status, ' +
      '.melearn-chain mjx-container, .melearn-rules .rule-head, .melearn-rules .rule-origin, ' +
      '.melearn-rules mjx-container, .melearn-refusal, .melearn-refusal mjx-container')) {
    if (!visible(el)) continue;
    const fg = rgba(getComputedStyle(el).color), bg = behind(el);
    const ratio = contrast(fg, bg);
    const key = `${el.className}|${fg}|${bg}`;
    if (seen.has(key)) continue;
    seen.add(key);
    text.push({where: where(el), ratio: Math.round(ratio * 100) / 100, color: String(fg), background: String(bg)});
  }
  // a scroll cue's cover is painted in a colour over the start and end of what scrolls: it must be the colour
  // already behind it, else it hides the mathematics under a bar
  const covers = [];
  for (const el of article.querySelectorAll('.melearn-chain *, .melearn-rules *, div.math mjx-container')) {
    const image = getComputedStyle(el).backgroundImage;
    if (!/linear-gradient/.test(image) || !visible(el)) continue;
    const cover = rgba(image.slice(image.indexOf('linear-gradient')));
    const bg = behind(el.parentElement);
    if (cover && cover[3] > 0.05 && cover.slice(0, 3).some((v, i) => Math.abs(v - bg[i]) > 8)) {
      covers.push({where: where(el), cover: String(cover), background: String(bg)});
    }
  }
  root.dataset.theme = before[0]; root.dataset.mode = before[1];
  return {text, covers};
}
"""

DISTANCE_JS = r"""
() => {
  const top = (el) => el.getBoundingClientRect().top + window.scrollY;
  const bottom = (el) => el.getBoundingClientRect().bottom + window.scrollY;
  const numbers = Array.from(document.querySelectorAll('.bd-article div.math > span.eqno'));
  const chain = document.querySelector('.bd-article .melearn-chain');
  const first = document.querySelector('.bd-article div.math');
  return {
    formulas: numbers.map((n) => ({number: n.textContent.replace('#', '').replace(/[()]/g, '').trim(),
                                   end: Math.round(bottom(n.parentElement))})),
    first: first ? Math.round(bottom(first)) : null,
    chain: chain ? Math.round(top(chain)) : null,
  };
}
"""

measure_on_every_visit("lines", LINES_JS, SCREENS)
measure_on_every_visit("chains", CHAINS_JS, {"desktop": DESKTOP, "phone": PHONE})
measure_on_every_visit("dark", DARK_JS, {"desktop": DESKTOP, "phone": PHONE})
measure_on_every_visit("distance", DISTANCE_JS, {"desktop": DESKTOP, "phone": PHONE})


@pytest.fixture
def seen(request, page_visits) -> dict:
    """The measures of this file on one page (its one visit)."""
    name = request.param
    if name.startswith(CHINESE + "/") and not (html_dir() / CHINESE / "chapters").is_dir():
        skip_or_fail(f"no Chinese edition in {html_dir() / CHINESE}: run `make book` first")
    report = page_visits.get(name)
    if not report.typeset:
        pytest.fail(f"{report.url}: MathJax did not load", pytrace=False)
    return report.measures


def pages(names):
    return pytest.mark.parametrize("seen", names, indirect=True, ids=names)


def _list(items) -> str:
    return "\n  - " + "\n  - ".join(items)


def allowed_lines(needed: int, mode: str) -> int:
    """The most lines a formula that needs ``needed`` lines may be drawn in: one more, twice plus one on a phone."""
    return 2 * needed + 1 if mode == "phone" else needed + 1


def test_allowed_lines():
    assert [allowed_lines(n, "desktop") for n in (1, 2, 5)] == [2, 3, 6]
    assert [allowed_lines(n, "phone") for n in (1, 2, 5)] == [3, 5, 11]
    assert allowed_lines(1, "print") == 2


def towers(found: list[dict], mode: str) -> list[str]:
    return [
        f"{f['where']}: {f['drawn']} lines, needs {f['needed']} in {f['room']} px ({f['height']} px tall)"
        for f in found
        if f["drawn"] > allowed_lines(f["needed"], mode)
    ]


def test_a_tower_is_found():
    tower = {"where": "(2.41)", "drawn": 123, "needed": 1, "room": 676, "height": 3718}
    whole = {"where": "(2.21)", "drawn": 1, "needed": 1, "room": 676, "height": 62}
    assert towers([tower, whole], "desktop") == ["(2.41): 123 lines, needs 1 in 676 px (3718 px tall)"]
    assert towers([dict(whole, drawn=3)], "phone") == []


@pages(EDITION_PAGES)
@pytest.mark.parametrize("mode", list(SCREENS))
def test_display_formulas_drawn_in_as_few_lines_as_their_width_needs(seen, mode):
    found = towers(seen["lines"][mode], mode)
    assert not found, f"{mode}: display formulas broken into more lines than their width needs:{_list(found)}"


def broken_with_room(steps: list[dict]) -> list[str]:
    return [
        f"{s['where']}: {s['lines']} lines for {s['width']} px in {s['room']} px"
        for s in steps
        if s["lines"] > 1 and s["width"] <= s["room"]
    ]


def test_a_step_broken_with_room_is_found():
    assert broken_with_room([{"where": "β", "lines": 2, "width": 300, "room": 700}]) == [
        "β: 2 lines for 300 px in 700 px"
    ]
    assert broken_with_room([{"where": "β", "lines": 2, "width": 900, "room": 700}]) == []


@pages(EDITION_PAGES)
@pytest.mark.parametrize("mode", ["desktop", "phone"])
def test_no_chain_step_broken_while_its_column_has_room(seen, mode):
    found = broken_with_room(seen["chains"][mode])
    assert not found, f"{mode}: chain steps broken though their column holds them:{_list(found)}"


@pages(EDITION_PAGES)
@pytest.mark.parametrize("mode", ["desktop", "phone"])
def test_chains_legible_in_dark_mode(seen, mode):
    dark = seen["dark"][mode]
    faint = [f"{t['where']}: {t['ratio']}:1 ({t['color']} on {t['background']})" for t in dark["text"]]
    faint = [line for line, t in zip(faint, dark["text"], strict=True) if t["ratio"] < MIN_CONTRAST]
    covers = [f"{c['where']}: {c['cover']} over {c['background']}" for c in dark["covers"]]
    assert not faint, f"{mode}: chain text below {MIN_CONTRAST}:1 in dark mode:{_list(faint)}"
    assert not covers, f"{mode}: scroll cues painted over the mathematics in dark mode:{_list(covers)}"


def distance(measured: dict, number: str | None) -> float:
    """Pixels from the end of formula ``number`` (``None``: the first display formula) to the top of the page's first
    chain (inf without one): what a reader scrolls past, having read the formula, to reach its derivation."""
    if number is None:
        end = measured["first"]
    else:
        end = next((f["end"] for f in measured["formulas"] if f["number"] == number), None)
    if end is None or measured["chain"] is None:
        return math.inf
    return measured["chain"] - end


KEY = [name for page in KEY_PAGES for name in (page, f"{CHINESE}/{page}")]


@pytest.mark.parametrize("seen", KEY, indirect=True)
@pytest.mark.parametrize("mode", ["desktop", "phone"])
def test_first_chain_near_its_formula(seen, mode, request):
    page = request.node.callspec.params["seen"].removeprefix(CHINESE + "/")
    number = KEY_PAGES[page]
    far = distance(seen["distance"][mode], number)
    screens = 1 if mode == "desktop" else 2
    assert far <= screens * SCREEN_HEIGHT[mode], (
        f"{mode}: the first chain starts {far} px below ({number or 'the first formula'}), "
        f"more than {screens} screen(s) of {SCREEN_HEIGHT[mode]} px"
    )
