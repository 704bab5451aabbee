"""How a refused step and a rule's name reach the reader: typeset from the sympy objects, never as code.

A refusal is the book's best teaching moment: the refused step, typeset; the reason in words; wrapped to the
column. These tests fail on a refusal printed as one line of sympy's ``str`` (``Sum(Indicator(...))``,
``2*t**(i - 1)``) or of Python's ``repr`` (``('reason')``), and on a rule named in ASCII (``C <= m``, ``T[g]``).
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
import sympy as sp

from melearn.derivation import Derivation, DerivationError, Rule, show_refusal, sums
from melearn.derivation.render import chain_html, refusal_html, refusal_text, rules_html
from melearn.derivation.rules import rule_name

ROOT = Path(__file__).resolve().parents[2]
a, b = sp.symbols("a b")
m = sp.Symbol("m", integer=True, positive=True)
C = sp.Symbol("C", integer=True, nonnegative=True)
p, t = sp.symbols("p t", positive=True)
T = sp.IndexedBase("T")
g = sp.Symbol("g", integer=True)

# what sympy's str and Python's repr print, and TeX never does
CODE = re.compile(r"\*\*|\w\*\w|Sum\(|Indicator\(|Eq\(|\('|'\)|\w\[\w")


def words(html_text: str) -> str:
    """The text of a block outside its formulas (what is shown as words)."""
    no_math = re.sub(r'<span class="math[^"]*">.*?</span>', " ", html_text, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", no_math))


def formulas(html_text: str) -> list[str]:
    return [html.unescape(f) for f in re.findall(r"\\\((.*?)\\\)", html_text, flags=re.S)]


def refused(derivation: Derivation) -> DerivationError:
    with pytest.raises(DerivationError) as caught:
        derivation.check()
    return caught.value


def test_a_refusal_carries_the_step_as_sympy_objects_and_keeps_its_message():
    error = refused(Derivation((a + b) ** 2).step(a**2 + b**2, "forget the cross term"))
    assert error.kind == "does not follow" and error.step == 1 and error.why == "forget the cross term"
    assert error.before == (a + b) ** 2 and error.claimed == a**2 + b**2
    assert sp.simplify(error.difference - 2 * a * b) == 0
    assert "step 1 ('forget the cross term') does not follow from step 0" in str(error)  # tracebacks still read
    assert refusal_text(error) == f"refused: {error}"


def test_a_refusal_is_typeset_not_printed_as_code():
    x = sp.Symbol("x", positive=True)
    wrong = Derivation(sp.Derivative(x ** (m - 1) * (1 - x) ** m, x)).step(
        (m - 1) * x ** (m - 2) * (1 - x) ** m + m * x ** (m - 1) * (1 - x) ** (m - 1),
        r"a wrong sign in $\frac{d}{dx}$",
        rules=[Rule.computation("derivative", sp.Derivative)],
    )
    error = refused(wrong)
    assert CODE.search(str(error)), "the message itself is sympy's str (for tracebacks)"
    shown = refusal_html(error)
    assert not CODE.search(words(shown)), words(shown)
    assert "('" not in shown and "**" not in shown
    tex = " ".join(formulas(shown))
    assert r"\overset{?}{=}" in tex and r"x^{m - 2}" in tex.replace(" ", "").replace("x^{m-2}", r"x^{m - 2}")
    assert r"\frac{d}{dx}" in tex  # the reason's formula typeset too
    # cut at top-level operators into pieces that wrap like words
    assert shown.count("chain-term") >= 3


@pytest.mark.parametrize(
    "derivation, kind",
    [
        (lambda: Derivation(a + b).step(b + a, "commute"), "changes nothing"),
        (
            lambda: Derivation(a + b).step(
                2 * a, "a = b", rules=[Rule.assumption("b is a", {b: a}), Rule.computation("sums", sp.Sum)]
            ),
            "rule not needed",
        ),
    ],
)
def test_every_kind_of_refused_step_is_typeset(derivation, kind):
    error = refused(derivation())
    assert error.kind == kind
    shown = refusal_html(error)
    assert "melearn-refusal" in shown and formulas(shown)
    assert not CODE.search(words(shown))


def test_show_refusal_prints_one_line_outside_a_notebook(capsys):
    error = show_refusal(Derivation((a + b) ** 2).step(a**2 + b**2, "forget the cross term"))
    assert capsys.readouterr().out == f"refused: {error}\n"


def test_rule_names_that_are_conditions_are_typeset_from_sympy():
    assert rule_name(sp.Le(C, m)) == r"$C \leq m$"
    assert rule_name((sp.Lt(0, p, evaluate=False), sp.Lt(p, 1))) == "$0 < p < 1$"
    assert rule_name("linearity of expectation") == "linearity of expectation"
    with pytest.raises(TypeError, match="name"):
        rule_name(3)
    rule = Rule.assumption((sp.Lt(0, p, evaluate=False), sp.Lt(p, 1)), {p: t / (1 + t)})
    assert rule.name == "$0 < p < 1$"
    assert sums.split(T[g]).name == "split the sum at ${T}_{g}$"


def test_a_chain_shows_its_rule_names_as_mathematics():
    d = sp.Symbol("d", integer=True, nonnegative=True)
    inside = sp.Sum(p**a, (a, 0, m))
    chain = (
        Derivation(inside)
        .step(
            sp.Sum(p**a, (a, 0, C)) + sp.Sum(p**a, (a, C + 1, m)),
            "split",
            rules=[sums.split(C), Rule.assumption(sp.Le(C, m), {m: C + d})],
        )
        .check()
    )
    shown = chain_html(chain, sp.latex)
    note = words(shown.split('class="chain-rules"')[1])
    assert "<=" not in note and "C" not in note, note
    assert r"C \leq m" in " ".join(formulas(shown))


def stored_html(page: Path) -> list[str]:
    notebook = json.loads(page.read_text(encoding="utf-8"))
    return [
        "".join(output.get("data", {}).get("text/html", ""))
        for cell in notebook["cells"]
        for output in cell.get("outputs", [])
    ]


def stored_streams(page: Path) -> list[str]:
    notebook = json.loads(page.read_text(encoding="utf-8"))
    return ["".join(o.get("text", "")) for c in notebook["cells"] for o in c.get("outputs", []) if "text" in o]


PAGES = sorted((ROOT / "chapters").rglob("*.ipynb"))
REFUSING = [page for page in PAGES if "show_refusal(" in page.read_text(encoding="utf-8")]


def test_pages_show_refusals():
    assert len(REFUSING) >= 10


@pytest.mark.parametrize("page", REFUSING, ids=lambda p: p.stem)
def test_a_page_shows_its_refusals_typeset(page):
    """No refusal printed as a line of text; each one a block whose words hold no code."""
    printed = [s for s in stored_streams(page) if re.search(r"^refused: ", s, flags=re.M)]
    assert not printed, f"{page.stem} prints a refusal as text: {printed[0][:120]}"
    blocks = [h for h in stored_html(page) if "melearn-refusal" in h]
    assert blocks, f"{page.stem} shows no refusal block"
    for block in blocks:
        assert not CODE.search(words(block)), words(block)[:300]


GREEK_NAMES = (
    "alpha|beta|gamma|delta|epsilon|varepsilon|zeta|eta|theta|iota|kappa|lambda|mu|nu|xi|pi|rho|sigma|tau|upsilon|"
    "phi|chi|psi|omega"
)
# mathematics written in ASCII where a reader sees words: ranges and ellipses (1..k, 1 + ... + k), sub- and
# superscripts (SS_A, ^2), relations (<=, >=, !=, =, <, >, ~), indexing (T[g]), Greek letters spelled out (sigma),
# H0, and arithmetic on short operands (k - 1, TP + FN): a typesetter writes each as a formula
ASCII_MATH = re.compile(
    r"\.\.|[\^_]|[=<>]| ~ |\w\[\w|\bH0\b|\b(?:" + GREEK_NAMES + r")\b|(?:^|[\s(\[])[\w)]{1,3} [-+*/] [\w(]"
)
# what a chain and a refusal show as words: a step's reason, the names of its rules (beside the step and in the
# rule list) and their kind and source, a refusal's head, context, difference and unmet conditions, and the
# chain's assumptions
SHOWN_AS_WORDS = (
    r'<span class="chain-why">(.*?)</span>(?=\s*(?:<span class="chain-rules">|</div>))',
    r'<span class="chain-rules">(.*?)</span>(?=\s*</div>)',
    r'<span class="rule-name">(.*?)</span> <span class="rule-origin">',
    r'<span class="rule-origin">(.*?)</span></div>',
    r'<p class="refusal-[a-z]+[^"]*">(.*?)</p>',
    r'<span class="refusal-context">(.*?)</span>',
    r'<div class="chain-assumptions [^"]*">(.*?)</div>',
)


def ascii_mathematics(blocks: list[str]) -> list[tuple[str, str]]:
    """(text, what in it is ASCII mathematics) for each reason, rule name and refusal the blocks show in words."""
    found = []
    for block in blocks:
        for pattern in SHOWN_AS_WORDS:
            for shown in re.findall(pattern, block, flags=re.S):
                text = " ".join(words(shown).split())
                hits = sorted({hit.group(0).strip() for hit in ASCII_MATH.finditer(text)})
                if hits:
                    found.append((text, ", ".join(hits)))
    return sorted(set(found))


@pytest.mark.parametrize(
    "text",
    [
        "H0: one rank is uniform on 1..k",
        "the sum 1 + 2 + ... + k",
        "definition of SS_A",
        "the sum of (j - (k+1)/2)^2 over j = 1..k",
        "value of sigma",
        "beta = 1",
        "cancel the factor k - 1",
        "C <= m",
        "T[g]",
        "TP + FN counts the positives",
    ],
)
def test_ascii_mathematics_is_seen(text):
    assert ASCII_MATH.search(text)


@pytest.mark.parametrize("text", ["the sum of a constant", "one-sided, post-hoc", "Student's variable", "Beta"])
def test_words_are_not_taken_for_ascii_mathematics(text):
    assert not ASCII_MATH.search(text), text


def test_the_scan_reads_the_words_of_a_chain_and_of_a_refusal_not_its_formulas():
    d = sp.Symbol("d", integer=True, nonnegative=True)

    def chain(why, source=""):
        rules = [sums.split(C), Rule.assumption(sp.Le(C, m), {m: C + d}, source=source)]
        split = sp.Sum(p**a, (a, 0, C)) + sp.Sum(p**a, (a, C + 1, m))
        return Derivation(sp.Sum(p**a, (a, 0, m))).step(split, why, rules=rules).check()

    error = refused(Derivation((a + b) ** 2).step(a**2 + b**2, "forget 2ab = 0"))
    ascii_chain = chain("split at a = C", source="C <= m assumed")
    found = ascii_mathematics([chain_html(ascii_chain, sp.latex), rules_html(ascii_chain.rules), refusal_html(error)])
    assert [text for text, _ in found] == [
        "(assumption; C <= m assumed)",
        "Refused : step 1 (“forget 2ab = 0”) does not follow from step 0",
        "split at a = C",
    ]
    typeset = chain("split at $a = C$", source="$C \\le m$ assumed")
    assert not ascii_mathematics([chain_html(typeset, sp.latex), rules_html(typeset.rules)])


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_reasons_and_rule_names_on_a_page_are_mathematics(page):
    """Every reason, rule name and refusal a page shows typesets its mathematics (``$s_j$``, not ``s_j``)."""
    found = ascii_mathematics(stored_html(page))
    assert not found, f"{page.stem}: {len(found)} texts show ASCII mathematics: " + "; ".join(
        f"{text!r} ({hits})" for text, hits in found[:8]
    )


def test_a_refusal_keeps_its_context_with_it(capsys):
    """What a refused chain leaves out heads its block and its printed line (streams are merged on a page)."""
    error = show_refusal(Derivation((a + b) ** 2).step(a**2 + b**2, "expand"), context="without the cross term")
    assert capsys.readouterr().out == f"without the cross term:\nrefused: {error}\n"
    shown = refusal_html(error, context="without the cross term")
    head = shown.split("</p>")[0]
    assert "without the cross term" in head and "Refused" in head
