"""The interactive explorers in the built book: each control changes the shown numbers to melearn's.

For each explorer (the threshold page, the binomial test, bias and variance), in both editions and at a desktop
(1366 px) and a phone (390 px) width, the test moves every control as a reader does (sets a slider's value and
dispatches ``input``, presses the arrow keys, clicks a sample, picks a data set) and reads the numbers the page
then shows. The expected numbers are computed here, from melearn, from the data (the scores, the grids, the
page's training sets), never read from the JSON the page embeds. It also checks that the explorer fits the
width (no sideways scroll), that its controls are labelled for assistive technology, that its labels are in the
edition's language, and that print hides it; it saves a screenshot of each explorer. The pages are opened without
MathJax, which the explorers do not use: each page's formulas are checked in its one visit.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from melearn import (
    bias_variance_decomposition,
    binomial_critical_error,
    confusion,
    f_beta,
    normalized_cost,
    positive_probability_cost,
)
from melearn.bias_variance import polynomial_predictions
from melearn.explorers import COST_PAIRS, threshold_datasets
from melearn.i18n import load_catalogues

from .bookcheck import HARMLESS_CONSOLE, html_dir, screenshot_dir, skip_or_fail

pytestmark = pytest.mark.browser

EDITIONS = {"en": "", "zh_CN": "zh/"}
WIDTHS = (1366, 390)
PAGES = {
    "threshold": ("chapters/threshold_explorer", "threshold-explorer", "One threshold, four views"),
    "binomial": ("chapters/binomial_test_corrected", "binomial-explorer", "The binomial test, moved by hand"),
    "bias-variance": ("chapters/bias_variance", "bias-variance-explorer", "Bias and variance, degree by degree"),
}


def _label(language: str, text: str) -> str:
    """A label as the edition shows it: the catalogue's translation in Chinese (which must exist)."""
    if language == "en":
        return text
    translated = load_catalogues(language).get(text)
    assert translated and translated != text, f"no Chinese translation of {text!r}"
    return translated


def _open(context, server, language: str, page_name: str, root_id: str, width: int):
    site = html_dir() / EDITIONS[language]
    if not (site / f"{page_name}.html").is_file():
        skip_or_fail(f"no {language} edition of {page_name} in {site}: build the book first")
    errors: list[str] = []
    page = context.new_page()
    page.set_viewport_size({"width": width, "height": 900})
    page.on(
        "pageerror",
        lambda error: (
            errors.append(f"uncaught: {error}") if not any(p.search(str(error)) for p in HARMLESS_CONSOLE) else None
        ),
    )
    page.on(
        "console",
        lambda m: (
            errors.append(m.text)
            if m.type == "error"
            and not m.text.startswith("Failed to load resource")
            and not any(p.search(m.text) for p in HARMLESS_CONSOLE)
            else None
        ),
    )
    # The explorer is left alone by MathJax (mathjax_ignore) and draws no formula; the page's formulas are checked
    # in its one visit (bookcheck.py). MathJax is not loaded here: typesetting a long page of formulas would run
    # beside every move of the controls (it halved the time of these tests).
    page.route("**/_static/mathjax/**", lambda route: route.abort())
    page.goto(f"{server.url}/{EDITIONS[language]}{page_name}.html", wait_until="load")
    page.wait_for_selector(f"#{root_id}[data-ready='true']", timeout=10_000)
    assert page.evaluate("() => document.querySelectorAll('mjx-container').length") == 0  # nothing typeset
    assert page.eval_on_selector(f"#{root_id}", "e => e.classList.contains('mathjax_ignore')"), root_id
    return page, errors


# the text of every named part of an explorer (the first of each name), and how many elements match each of the
# selectors ``counted`` (under the key "count:<selector>")
_SHOWN_JS = """(root, counted) => { const shown = {};
  for (const e of root.querySelectorAll('[data-mlx]')) {
    const name = e.getAttribute('data-mlx');
    if (!(name in shown)) shown[name] = e.textContent.trim();
  }
  for (const selector of counted) shown[`count:${selector}`] = root.querySelectorAll(selector).length;
  return shown; }"""

# set sliders one after the other, each with its input event as a reader's move sends it (the explorers redraw in
# their input handlers, at once), then read what the explorer shows
_SLIDE_JS = (
    """(root, [values, counted]) => { for (const [name, value] of values) {
  const input = root.querySelector(`input[data-mlx="${name}"]`);
  if (!input) throw new Error(`no slider ${name}`);
  input.value = String(value); input.dispatchEvent(new Event('input', {bubbles: true}));
}
return ("""
    + _SHOWN_JS
    + """)(root, counted); }"""
)


class Explorer:
    """The controls and the shown text of one explorer on an open page.

    The shown text, and the number of elements matching each of ``counted`` (CSS selectors), are read once after
    each move of the controls, in the same call to the browser as the move (not one call per number): every move
    goes through :meth:`slide`, :meth:`choose`, :meth:`click` or :meth:`press`.
    """

    def __init__(self, page, root_id: str, counted: tuple[str, ...] = ()):
        self.page, self.root, self.counted = page, f"#{root_id}", list(counted)
        self._shown: dict[str, str] | None = None

    def _read(self) -> dict:
        if self._shown is None:
            self._shown = self.page.eval_on_selector(self.root, _SHOWN_JS, self.counted)
        return self._shown

    def text(self, name: str) -> str:
        shown = self._read()
        assert name in shown, f"{self.root} shows no [data-mlx={name!r}] (it shows {sorted(shown)})"
        return shown[name]

    def slide(self, name: str, value: int, *more: tuple[str, int]) -> None:
        """Move slider ``name`` to ``value``, then each slider of ``more`` (``(name, value)`` pairs) in turn."""
        self._shown = self.page.eval_on_selector(self.root, _SLIDE_JS, [[(name, value), *more], self.counted])

    def choose(self, name: str, value: str) -> None:
        self._shown = None
        self.page.select_option(f'{self.root} select[data-mlx="{name}"]', value)

    def click(self, selector: str) -> None:
        self._shown = None
        self.page.locator(f"{self.root} {selector}").click()

    def press(self, name: str, key: str) -> None:
        self._shown = None
        self.page.focus(f'{self.root} input[data-mlx="{name}"]')
        self.page.keyboard.press(key)

    def count(self, selector: str) -> int:
        if selector in self.counted:
            return self._read()[f"count:{selector}"]
        return self.page.locator(f"{self.root} {selector}").count()


def _layout_checks(page, root_id: str, width: int, where: str) -> None:
    scroll = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll[0] <= scroll[1] + 1, f"{where}: the page scrolls sideways ({scroll})"
    box = page.eval_on_selector(f"#{root_id}", "e => e.getBoundingClientRect().toJSON()")
    assert box["right"] <= width + 1 and box["width"] > 0, f"{where}: the explorer is wider than the screen ({box})"
    right = page.eval_on_selector(
        f"#{root_id}", "e => Math.max(...[...e.querySelectorAll('*')].map(c => c.getBoundingClientRect().right))"
    )
    assert right <= box["right"] + 1, f"{where}: a part of the explorer sticks out to {right} px ({box['right']})"
    unlabelled = page.eval_on_selector_all(
        f"#{root_id} input, #{root_id} select, #{root_id} svg",
        "els => els.filter(e => !e.getAttribute('aria-label')).map(e => e.outerHTML.slice(0, 80))",
    )
    assert not unlabelled, f"{where}: controls or figures without aria-label: {unlabelled}"
    small = page.eval_on_selector_all(
        f"#{root_id} input[type=range], #{root_id} select, #{root_id} button",
        "els => els.filter(e => e.getBoundingClientRect().height < 40).length",
    )
    assert small == 0, f"{where}: {small} controls lower than 40 px (too small to touch)"
    # in the theme's dark mode the explorer stays a light panel with dark text
    colours = page.evaluate(
        """(id) => { document.documentElement.dataset.theme = 'dark'; document.documentElement.dataset.mode = 'dark';
            const root = document.getElementById(id);
            const out = [getComputedStyle(root).backgroundColor,
                         ...[...root.querySelectorAll('h4, label, li')].map(e => getComputedStyle(e).color)];
            document.documentElement.dataset.theme = 'light'; document.documentElement.dataset.mode = 'light';
            return out; }""",
        root_id,
    )
    assert colours[0] == "rgb(251, 251, 252)", f"{where}: the explorer's background in dark mode is {colours[0]}"
    assert set(colours[1:]) == {"rgb(29, 31, 34)"}, f"{where}: text colours in dark mode {set(colours[1:])}"
    page.emulate_media(media="print")
    shown_in_print = page.eval_on_selector(f"#{root_id}", "e => getComputedStyle(e).display")
    page.emulate_media(media="screen")
    assert shown_in_print == "none", f"{where}: the explorer is printed ({shown_in_print})"


def _screenshot(page, root_id: str, name: str) -> None:
    directory = screenshot_dir()
    directory.mkdir(parents=True, exist_ok=True)
    page.evaluate("() => document.querySelectorAll('.bd-header').forEach(h => { h.style.position = 'static'; })")
    page.locator(f"#{root_id}").screenshot(path=str(directory / f"{name}.png"))


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("language", list(EDITIONS))
def test_threshold_explorer_shows_melearns_numbers(browser_context, server, language, width):
    page_name, root_id, title = PAGES["threshold"]
    page, errors = _open(browser_context, server, language, page_name, root_id, width)
    where = f"{page_name} ({language}) at {width} px"
    try:
        ex = Explorer(page, root_id)
        assert ex.page.locator(f"#{root_id} h4").first.text_content() == _label(language, title)
        specs = threshold_datasets()
        for index, spec in enumerate(specs):
            ex.choose("data", str(index))
            y, s = np.array(spec["labels"]), np.array(spec["scores"])
            thresholds = np.unique(s)[::-1]
            assert page.eval_on_selector(f'#{root_id} input[data-mlx="slider"]', "e => +e.max") == thresholds.size
            p = y.mean()
            for k in range(thresholds.size + 1):
                ex.slide("slider", k)
                predicted = s >= (np.inf if k == 0 else thresholds[k - 1])
                _check_threshold_state(ex, y, predicted, where + f", set {index}, stop {k}")
            # the cost ratio, at the stop of the middle threshold
            k = thresholds.size // 2 + 1
            ex.slide("slider", k)
            c = confusion(y, s >= thresholds[k - 1])
            for j, (c01, c10) in enumerate(COST_PAIRS):
                ex.slide("cost", j)
                want = normalized_cost(c.fn / (c.tp + c.fn), c.fp / (c.fp + c.tn), p, c01, c10)
                assert ex.text("cost-norm") == f"{want:.3f}", where
                assert ex.text("p-cost") == f"{positive_probability_cost(p, c01, c10):.3f}", where
                assert ex.text("ratio") == f"{c01} : {c10}", where
            _check_one_screen(page, root_id, width, where + f", set {index}")
        # clicking a sample cuts just below it: it and every sample tied with it are predicted positive
        ex.choose("data", "0")
        y, s = np.array(specs[0]["labels"]), np.array(specs[0]["scores"])
        for name in ("s5", "s2", "s8", "s4"):
            ex.click(f'button.mlx-sample:has(.mlx-name:text-is("{name}"))')
            score = s[specs[0]["names"].index(name)]
            _check_threshold_state(ex, y, s >= score, where + f", clicked {name}")
        # the clicked sample is marked; another data set starts clean: nothing predicted positive, nothing marked
        assert ex.count('.mlx-sample[aria-pressed="true"]') == 1, where
        ex.choose("data", "1")
        assert ex.count('.mlx-sample[aria-pressed="true"]') == 0, f"{where}: a sample stays marked in another set"
        assert (int(ex.text("tp")), int(ex.text("fp"))) == (0, 0), f"{where}: another set starts at a threshold"
        ex.choose("data", "0")
        # a tied pair enters at one step: from the stop before 0.47 to the stop at 0.47, TP and FP both grow by 1
        ex.slide("slider", 3)
        before = (int(ex.text("tp")), int(ex.text("fp")))
        ex.press("slider", "ArrowRight")
        assert (int(ex.text("tp")), int(ex.text("fp"))) == (before[0] + 1, before[1] + 1), where
        assert ex.count(".mlx-group.mlx-tied .mlx-sample") == 2, where
        ex.choose("data", "0")
        ex.slide("slider", 4)
        ex.slide("cost", 4)
        _screenshot(page, root_id, f"explorer-threshold-{language}-{width}")
        _layout_checks(page, root_id, width, where)
    finally:
        page.close()
    assert not errors, f"{where}: console errors: {errors}"


#: the theme's bar that stays at the top of the window as the page scrolls (its height at 1366 px: 48 px)
_STICKY_BAR = ".bd-header-article"


def _check_one_screen(page, root_id: str, width: int, where: str) -> None:
    """The threshold slider and the three plots on one screen on a desktop; on a phone, each plot the column wide
    and seen with the slider, which stays at the top of the window as the plots scroll by."""
    boxes = page.eval_on_selector(
        f"#{root_id}",
        """(root, bar) => { const box = e => e.getBoundingClientRect().toJSON();
          const sticky = document.querySelector(bar);
          return {slider: box(root.querySelector('input[data-mlx="slider"]')),
                  plots: [...root.querySelectorAll('svg')].map(box), bar: sticky ? box(sticky).height : 0,
                  column: box(root).width}; }""",
        _STICKY_BAR,
    )
    plots = boxes["plots"]
    assert len(plots) == 3, where
    if width >= 1024:
        reach = max(p["bottom"] for p in plots) - boxes["slider"]["top"]
        screen = 900 - boxes["bar"]
        assert reach <= screen, f"{where}: slider to the foot of the plots {reach:.0f} px, a screen {screen} px"
        assert max(p["top"] for p in plots) - min(p["top"] for p in plots) <= 1, f"{where}: the plots are not in a row"
    else:
        narrow = [round(p["width"]) for p in plots if p["width"] < 0.8 * boxes["column"]]
        assert not narrow, f"{where}: plots narrower than the phone's column: {narrow} px"
        # the plots are stacked: each, scrolled to the foot of the window, is seen with the threshold slider above it
        for index in range(len(plots)):
            seen = page.eval_on_selector(
                f"#{root_id}",
                """(root, [index, bar]) => {
                  const plot = root.querySelectorAll('svg')[index];
                  plot.scrollIntoView({block: 'end', behavior: 'instant'});
                  const sticky = document.querySelector(bar);
                  return {slider: root.querySelector('input[data-mlx="slider"]').getBoundingClientRect().toJSON(),
                          plot: plot.getBoundingClientRect().toJSON(), window: window.innerHeight,
                          bar: sticky ? sticky.getBoundingClientRect().bottom : 0}; }""",
                [index, _STICKY_BAR],
            )
            slider, plot = seen["slider"], seen["plot"]
            assert plot["bottom"] <= seen["window"] + 1, f"{where}: plot {index} not scrolled into view: {seen}"
            assert seen["bar"] - 1 <= slider["top"] and slider["bottom"] <= plot["top"] + 1, (
                f"{where}: with plot {index} in view the threshold slider is not on the screen above it: {seen}"
            )


def _check_threshold_state(ex: Explorer, y, predicted, where: str) -> None:
    c = confusion(y, predicted)
    shown = tuple(int(ex.text(n)) for n in ("tp", "fp", "fn", "tn"))
    assert shown == (c.tp, c.fp, c.fn, c.tn), f"{where}: confusion matrix {shown}, melearn {tuple(c)}"
    m_pos, m_neg = c.tp + c.fn, c.fp + c.tn
    assert ex.text("recall") == f"{c.tp}/{m_pos} = {c.tp / m_pos:.3f}", where
    assert ex.text("tpr") == f"{c.tp}/{m_pos} = {c.tp / m_pos:.3f}", where
    assert ex.text("fpr") == f"{c.fp}/{m_neg} = {c.fp / m_neg:.3f}", where
    if c.tp + c.fp:
        assert ex.text("precision") == f"{c.tp}/{c.tp + c.fp} = {c.tp / (c.tp + c.fp):.3f}", where
        f1 = f_beta(y, predicted) if c.tp else 0.0
        assert ex.text("f1").endswith(f" = {f1:.3f}"), where
    else:
        assert ex.text("precision").startswith("0/0"), where


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("language", list(EDITIONS))
def test_binomial_explorer_shows_melearns_critical_value(browser_context, server, language, width):
    page_name, root_id, title = PAGES["binomial"]
    page, errors = _open(browser_context, server, language, page_name, root_id, width)
    where = f"{page_name} ({language}) at {width} px"
    ms, eps0s, alphas = (10, 20, 30, 50, 100), (0.1, 0.2, 0.3, 0.4, 0.5), (0.01, 0.05, 0.1)
    try:
        ex = Explorer(page, root_id, counted=("rect.mlx-reject", "rect.mlx-keep"))
        assert ex.page.locator(f"#{root_id} h4").first.text_content() == _label(language, title)
        for i, m in enumerate(ms):
            for j, eps0 in enumerate(eps0s):
                for k, alpha in enumerate(alphas):
                    if (i + j + k) % 2:  # half the grid, every value of each control
                        continue
                    ex.slide("m", i, ("eps0", j), ("alpha", k))
                    r = binomial_critical_error(m, eps0, alpha=alpha)
                    state = f"{where}, m = {m}, eps0 = {eps0}, alpha = {alpha}"
                    assert ex.text("m-value") == str(m), state
                    assert ex.text("critical-count") == str(r.critical_count), state
                    assert ex.text("critical-value") == f"{r.critical_count}/{m} = {r.critical_value:.3f}", state
                    assert ex.text("size") == f"{r.size:.4f}", state
                    assert ex.text("size-one-lower") == f"{r.size_one_lower:.4f}", state
                    assert ex.count("rect.mlx-reject") == m - r.critical_count, state
                    assert ex.count("rect.mlx-keep") == r.critical_count + 1, state
                    _check_axis_holds_the_mass(page, root_id, stats.binom.pmf(np.arange(m + 1), m, eps0), state)
        ex.slide("m", 0)
        ex.slide("eps0", 2)
        ex.slide("alpha", 1)
        _screenshot(page, root_id, f"explorer-binomial-{language}-{width}")
        _layout_checks(page, root_id, width, where)
    finally:
        page.close()
    assert not errors, f"{where}: console errors: {errors}"


def _check_axis_holds_the_mass(page, root_id: str, pmf, where: str) -> None:
    """The bars (one per count, in order) drawn inside the frame hold all but 0.1% of the mass (SciPy's binomial
    distribution), and the counts of probability at least 0.001 spread over at least 40% of the frame's width."""
    centres, left, width = page.eval_on_selector(
        f'#{root_id} svg[data-mlx="pmf"]',
        """svg => { const box = svg.querySelector('rect.mlx-box');
          const bars = [...svg.querySelectorAll('rect.mlx-reject, rect.mlx-keep')];
          return [bars.map(r => +r.getAttribute('x') + +r.getAttribute('width') / 2),
                  +box.getAttribute('x'), +box.getAttribute('width')]; }""",
    )
    centres = np.array(centres)
    assert centres.size == pmf.size, where
    inside = (centres >= left - 0.5) & (centres <= left + width + 0.5)
    assert pmf[~inside].sum() < 1e-3, f"{where}: {pmf[~inside].sum():.4f} of the mass outside the axis"
    heavy = centres[pmf >= 1e-3]
    spread = (heavy.max() - heavy.min()) / width
    assert spread >= 0.4, f"{where}: the mass fills {spread:.0%} of the axis"


def _bias_variance_page_study():
    """The study of the bias-variance page (its numeric verification): the same seed, sets and learner."""
    rng = np.random.default_rng(2037)
    sigma, m, T = 0.3, 12, 1000
    x_train, x_test = np.linspace(0, 1, m), np.linspace(0, 1, 41)
    g = np.sin(2 * np.pi * x_test)
    labels_train = np.sin(2 * np.pi * x_train) + sigma * rng.standard_normal((T, m))
    labels_test = g + sigma * rng.standard_normal((T, 41))
    inputs = np.broadcast_to(x_train, (T, m))
    return [
        bias_variance_decomposition(polynomial_predictions(inputs, labels_train, x_test, d), labels_test, g)
        for d in range(11)
    ]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("language", list(EDITIONS))
def test_bias_variance_explorer_shows_melearns_decomposition(browser_context, server, language, width):
    page_name, root_id, title = PAGES["bias-variance"]
    page, errors = _open(browser_context, server, language, page_name, root_id, width)
    where = f"{page_name} ({language}) at {width} px"
    try:
        ex = Explorer(page, root_id, counted=("polyline.mlx-fit",))
        assert ex.page.locator(f"#{root_id} h4").first.text_content() == _label(language, title)
        for degree, r in enumerate(_bias_variance_page_study()):
            ex.slide("degree", degree)
            state = f"{where}, degree {degree}"
            assert ex.text("degree-value") == str(degree), state
            for key in ("bias2", "variance", "noise", "error"):
                assert ex.text(key) == f"{getattr(r, key):.4f}", f"{state}: {key}"
            assert ex.text("cross") == f"{r.cross:+.4f}", state
            assert ex.count("polyline.mlx-fit") == 8, state
        ex.slide("degree", 3)
        _screenshot(page, root_id, f"explorer-bias-variance-{language}-{width}")
        _layout_checks(page, root_id, width, where)
    finally:
        page.close()
    assert not errors, f"{where}: console errors: {errors}"
