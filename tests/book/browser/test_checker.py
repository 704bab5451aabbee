"""The page checker itself must see problems: a small page with a broken formula, a missing image, a broken
link, a script error and an external request is served by the same local server and must be flagged, while
a clean page next to it must not."""

from __future__ import annotations

import json
import os
import shutil

import pytest
import yaml

from book.column_fit import FIT_JS

from .bookcheck import REPO, LinkChecker, LocalServer, claimed_formulas, visit

pytestmark = pytest.mark.browser

# the book's own MathJax configuration (local fonts, no speech files), as Sphinx writes it into each page
_BOOK_MATHJAX = yaml.safe_load((REPO / "_config.yml").read_text(encoding="utf-8"))["sphinx"]["config"][
    "mathjax3_config"
]
_MATHJAX = {
    **_BOOK_MATHJAX,
    "options": {**_BOOK_MATHJAX["options"], "processHtmlClass": "tex2jax_process|mathjax_process|math|output_area"},
}
_MATHJAX_JS = json.dumps(_MATHJAX).replace("{", "{{").replace("}", "}}")
# each page names its icon, as the book's do (without one the browser asks for /favicon.ico and logs a 404)
HEAD = (
    """<!DOCTYPE html><html><head><meta charset="utf-8"><title>{title}</title>
<link rel="icon" href="data:,">
<script>
window.MathJax = """
    + _MATHJAX_JS
    + """</script>
<script defer src="_static/mathjax/tex-mml-chtml.js"></script></head>
<body><main><h1>{title}</h1>{body}</main></body></html>"""
)

CLEAN = HEAD.format(
    title="(9.1) A clean page",
    body=r"""
<p>Inline <span class="math notranslate nohighlight">\(\frac{1}{2}\)</span> and a formula:</p>
<div class="math notranslate nohighlight" id="equation-eq-9-1"><span class="eqno">(9.1)<a class="headerlink"
 href="#equation-eq-9-1">#</a></span>\[x = \frac{1}{2}\]</div>
<pre><code>print("\\(not math\\) $$ in code is fine")</code></pre>
<p><a href="clean.html#equation-eq-9-1">(9.1)</a> <a href="other.html">other</a></p>
""",
)

BROKEN = HEAD.format(
    title="(9.1)-(9.2) A broken page",
    body=r"""
<p>Extra brace: <span class="math notranslate nohighlight">\(\frac{1}{2}}\)</span></p>
<p>Unknown macro: <span class="math notranslate nohighlight">\(\fracc{1}{2}\)</span></p>
<p>Never typeset: \(\frac{1}{\)</p>
<div class="math notranslate nohighlight" id="equation-eq-9-1"><span class="eqno">(9.1)</span>\[y\]</div>
<img src="missing.png" alt="a figure that is not there">
<a href="nowhere.html">a dead link</a> <a href="other.html#no-such-id">a dead anchor</a>
<a href="clean.html#equation-eq-9-1">(9.3)</a> <a href="#equation-eq-9-1">(9.9)</a>
<img src="https://example.invalid/tracker.png" alt="">
<script>undefinedFunction();</script>
""",
)

# MathJax loaded 1.5 s after the page: the checker must wait for it, however late, and then see its errors
SLOW_MATHJAX = HEAD.format(
    title="A page whose MathJax comes late",
    body=r'<p>Extra brace: <span class="math notranslate nohighlight">\(\frac{1}{2}}\)</span></p>',
).replace(
    '<script defer src="_static/mathjax/tex-mml-chtml.js"></script>',
    """<script>window.addEventListener("load", () => setTimeout(() => {
  const script = document.createElement("script");
  script.src = "_static/mathjax/tex-mml-chtml.js";
  document.head.appendChild(script);
}, 1500));</script>""",
)

# a box that widens past a phone's width only at the end of a 0.8 s transition started by the change of width:
# the phone check must measure the page once its transitions have ended, not at a fixed time after the change
SLOW_LAYOUT = HEAD.format(
    title="A page whose layout settles slowly",
    body="""<style>.grows { width: 100px; height: 10px; background: #888; transition: width 0.8s steps(1, end); }
@media (max-width: 600px) { .grows { width: 700px; } }</style><div class="grows"></div>""",
)


# two pages of a book printed as one (Sphinx's singlehtml marks where each starts): a formula too wide for a phone
# on the second (a word, which MathJax cannot break into lines), a narrow one on the first
ONE_PAGE_BOOK = HEAD.format(
    title="A book as one page",
    body=r"""<div class="bd-article">
<span id="document-chapters/first"></span><section id="first"><h2>First</h2>
<div class="math notranslate nohighlight">\[x = 1\]</div></section>
<span id="document-chapters/second"></span><section id="second"><h2>Second</h2>
<div class="math notranslate nohighlight">\[\text{unbreakableunbreakableunbreakableunbreakableunbreakable}\]</div>
</section></div>""",
)


@pytest.fixture(scope="module")
def synthetic_site(tmp_path_factory, book_html):
    site = tmp_path_factory.mktemp("synthetic-book")
    (site / "clean.html").write_text(CLEAN, encoding="utf-8")
    (site / "broken.html").write_text(BROKEN, encoding="utf-8")
    (site / "slow-mathjax.html").write_text(SLOW_MATHJAX, encoding="utf-8")
    (site / "slow-layout.html").write_text(SLOW_LAYOUT, encoding="utf-8")
    (site / "one-page.html").write_text(ONE_PAGE_BOOK, encoding="utf-8")
    (site / "other.html").write_text(HEAD.format(title="Other", body="<p id='here'>x</p>"), encoding="utf-8")
    (site / "_static").mkdir()
    try:
        os.symlink(book_html / "_static" / "mathjax", site / "_static" / "mathjax")
    except OSError:
        shutil.copytree(book_html / "_static" / "mathjax", site / "_static" / "mathjax")
    with LocalServer(site) as server:
        yield server


def test_checker_passes_a_clean_page(browser_context, synthetic_site):
    report = visit(browser_context, f"{synthetic_site.url}/clean.html", synthetic_site.url, LinkChecker())
    assert report.typeset
    assert not report.math_errors and not report.untypeset_tex, (report.math_errors, report.untypeset_tex)
    assert not report.console_errors and not report.failed_requests and not report.external_requests
    assert not report.broken_links and not report.bad_equation_refs
    assert report.equation_numbers == ["(9.1)"] and not report.equation_headerlinks_missing


def test_checker_flags_a_broken_page(browser_context, synthetic_site):
    report = visit(browser_context, f"{synthetic_site.url}/broken.html", synthetic_site.url, LinkChecker())
    errors = " | ".join(report.math_errors)
    assert 'Extra close brace or missing open brace in "\\frac{1}{2}}"' in errors, errors
    assert "undefined control sequence \\fracc" in errors, errors
    assert any("\\(" in item and "frac{1}{" in item for item in report.untypeset_tex), report.untypeset_tex
    assert any("missing.png" in item for item in report.broken_images), report.broken_images
    assert any("undefinedFunction" in item for item in report.console_errors), report.console_errors
    assert any("missing.png" in item and "404" in item for item in report.failed_requests), report.failed_requests
    assert any("example.invalid" in item for item in report.external_requests), report.external_requests
    broken = " | ".join(report.broken_links)
    assert "nowhere.html" in broken and "HTTP 404" in broken and "#no-such-id" in broken, broken
    assert any("(9.3)" in item and "(9.1)" in item for item in report.bad_equation_refs), report.bad_equation_refs
    assert any("(9.9)" in item and "(9.1)" in item for item in report.bad_equation_refs), report.bad_equation_refs
    assert report.equation_headerlinks_missing == ["(9.1) (id equation-eq-9-1)"]
    claimed = claimed_formulas(report.h1)
    assert claimed == ["9.1", "9.2"] and "(9.2)" not in report.equation_numbers


def test_checker_waits_for_a_late_mathjax(browser_context, synthetic_site):
    report = visit(browser_context, f"{synthetic_site.url}/slow-mathjax.html", synthetic_site.url, LinkChecker())
    assert report.typeset, report.math_errors
    errors = " | ".join(report.math_errors)
    assert 'Extra close brace or missing open brace in "\\frac{1}{2}}"' in errors, errors


def test_checker_measures_a_phone_once_the_layout_has_settled(browser_context, synthetic_site):
    report = visit(browser_context, f"{synthetic_site.url}/slow-layout.html", synthetic_site.url, LinkChecker())
    assert "is 70" in report.phone_overflow and "div.grows" in report.phone_overflow, report.phone_overflow


def test_the_fit_measure_names_the_page_of_what_it_finds_in_a_one_page_book(browser_context, synthetic_site):
    """The PDFs are measured in the one page they are printed from: each finding must name its page of the book."""
    page = browser_context.new_page()
    try:
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(f"{synthetic_site.url}/one-page.html", wait_until="load")
        page.evaluate("() => MathJax.startup.promise")
        fit = page.evaluate(FIT_JS)
    finally:
        page.close()
    assert fit["pages"] == ["chapters/first", "chapters/second"], fit["pages"]
    found = {(d["page"], d["wide"]) for d in fit["display"]}
    assert found == {("chapters/first", False), ("chapters/second", True)}, fit["display"]


@pytest.mark.parametrize(
    "title, numbers",
    [
        ("(2.18)-(2.19) The ROC curve", ["2.18", "2.19"]),
        ("(2.37)-(2.42) Bias and variance", ["2.37", "2.38", "2.39", "2.40", "2.41", "2.42"]),
        ("(2.20) AUC: the area under the ROC curve", ["2.20"]),
        ("(2.31), (2.32) Two tests", ["2.31", "2.32"]),
        ("Glossary", []),
    ],
)
def test_claimed_formulas(title, numbers):
    assert claimed_formulas(title) == numbers
