"""The rendering of a chain cannot lie: reasons and notation are text, only the checker draws a tick, and nothing
that changes what the reader sees can change after ``check()`` (``melearn.derivation.render``)."""

from __future__ import annotations

import re

import pytest
import sympy as sp

from melearn.derivation import Derivation, Rule, rule_list
from melearn.derivation.render import cut_formula, escape_latex_text, split_top_level, unsafe_tex

a, b, x = sp.symbols("a b x")
k = sp.Symbol("k", integer=True, positive=True)


def square(why="expand"):
    return Derivation((a + b) ** 2).step(a**2 + 2 * a * b + b**2, why)


def ticks(html: str) -> int:
    return html.count('class="chain-tick"')


def notes(html: str) -> list[str]:
    return re.findall(r'<div class="chain-note tex2jax_ignore mathjax_ignore">(.*?)</div>', html)


# -- a reason is text ------------------------------------------------------------------------------------------
def test_a_reason_cannot_draw_a_tick_in_latex():
    d = square(r"trust me $\checkmark$")  # never checked
    tex = d.latex()
    assert r"\checkmark" not in tex.replace(r"\textbackslash{}checkmark", "")
    assert r"\$\textbackslash{}checkmark\$" in tex


def test_a_reason_cannot_draw_a_tick_in_html():
    d = square(r"trust me $\checkmark$ ✓ ✔")
    page = d._repr_html_()
    assert ticks(page) == 0 and "\u2713" not in page and "\u2714" not in page
    (note,) = notes(page)
    assert r"$\checkmark$" in note and "\\(" not in note  # shown as written, not typeset
    d.check()
    assert ticks(d._repr_html_()) == 1


def test_a_reason_cannot_add_a_row_or_a_column():
    d = square(r"a & b \\ c").check()
    tex = d.latex()
    assert r"\\" not in tex  # one row: no row separator at all
    assert tex.count("&") == tex.count(r"\&") + 3  # the row's own '&=' and '&&' only


def test_a_reason_is_escaped_html():
    page = square("<script>alert(1)</script> & more").check()._repr_html_()
    assert "<script>" not in page and "&lt;script&gt;" in page


def test_a_safe_formula_in_a_reason_is_typeset_and_an_unsafe_one_is_not():
    page = square(r"add and subtract $\bar f$, then $\color{green}{\checkmark}$").check()._repr_html_()
    (note,) = notes(page)
    assert r"\(\bar f\)" in note and r"$\color{green}{\checkmark}$" in note


def test_escape_latex_text_escapes_every_special_character():
    assert escape_latex_text(r"\ & % # $ _ { } ^ ~") == (
        r"\textbackslash{} \& \% \# \$ \_ \{ \} \textasciicircum{} \textasciitilde{}"
    )


# -- a string lhs is notation ----------------------------------------------------------------------------------
@pytest.mark.parametrize("lhs", [r"S \\ &= 0 && \checkmark", r"S & T", r"S \checkmark", r"\def\x{1} S", "S ✓"])
def test_a_string_lhs_cannot_inject_rows_or_ticks(lhs):
    d = Derivation(a + b, lhs=lhs).step(b + a + 0 * x + 1 - 1 + x - x, "commute")
    for render in (d.latex, d._repr_html_, d._repr_latex_):
        with pytest.raises(ValueError, match="lhs"):
            render()


def test_a_string_lhs_is_marked_as_notation_and_never_ticked():
    d = Derivation(a * (b + x), lhs=r"\bar S_i").step(a * b + a * x, "expand").check()
    page = d._repr_html_()
    first, second = re.findall(r'<div class="chain-row[^"]*" data-step="\d+">.*?</div></div></div>', page)
    assert "notation, not checked" in first and ticks(first) == 0
    assert ticks(second) == 1
    assert "notation, not checked" in d.latex().split("\\\\\n")[0]


# -- only the checker ticks, for the chain as rendered ---------------------------------------------------------
def test_ticks_only_when_checked():
    d = square()
    assert ticks(d._repr_html_()) == 0 and "not checked" in d._repr_html_()
    d.check()
    assert ticks(d._repr_html_()) == 1 and "not checked" not in d._repr_html_()
    d.step(a**2 + b**2 + 2 * b * a + 0 * x, "reorder")
    assert ticks(d._repr_html_()) == 0 and r"\checkmark" not in d.latex()


def test_latex_options_and_layout_cannot_change_after_check():
    d = Derivation(a * (b + x), latex_options={"order": "none"}).step(a * b + a * x, "expand").check()
    with pytest.raises(TypeError):
        d.latex_options["order"] = "rev-lex"
    with pytest.raises(AttributeError):
        d.latex_options = {"order": "rev-lex"}
    with pytest.raises(AttributeError):
        d.layout = "below"
    with pytest.raises(AttributeError):
        d.lhs_note = "proved"


def test_nested_latex_options_are_copied_at_construction():
    names = {x: "y"}
    d = Derivation(a * (b + x), latex_options={"symbol_names": names}).step(a * b + a * x, "expand").check()
    before = d.latex()
    names[x] = "z"
    assert d.latex() == before and "z" not in before and d.checked


def test_latex_options_must_be_a_mapping():
    with pytest.raises(ValueError, match="latex_options"):
        Derivation(x, latex_options=[("order", "none")])


# -- what else is shown ----------------------------------------------------------------------------------------
def test_the_assumptions_used_are_listed_under_the_chain():
    d = Derivation(k * (k + 1)).step(k**2 + k, "expand").check()
    d.assumptions_used = lambda: ((k, ("integer", "positive")),)
    assert "assumptions: " in d._repr_html_() and "integer, positive" in d._repr_html_()
    assert r"\text{integer, positive}" in d.latex()


def test_rule_lists_show_names_and_sources_as_text():
    g = sp.Function("g")
    rule = Rule.cited(r"a name with $\checkmark$ & <b>", {g(x): x**2}, source=r"nowhere \\ $\surd$")
    page = rule_list([rule])._repr_html_()
    head = re.search(r'<div class="rule-head tex2jax_ignore mathjax_ignore">(.*?)</div>', page).group(1)
    assert "$\\checkmark$ &amp; &lt;b&gt;" in head and r"nowhere \\ $\surd$" in head and "\\(" not in head
    assert r"\(\displaystyle g{\left(x \right)} = x^{2}\)" in page
    tex = rule_list([rule])._repr_latex_()
    assert r"\checkmark" not in tex.replace(r"\textbackslash{}checkmark", "") and "\\surd" not in tex.replace(
        r"\textbackslash{}surd", ""
    )


def test_the_mime_bundle_holds_html_latex_and_text():
    bundle = square().check()._repr_mimebundle_()
    assert set(bundle) == {"text/html", "text/latex", "text/plain"}
    assert "[checked]" in bundle["text/plain"] and r"\checkmark" in bundle["text/latex"]


@pytest.mark.parametrize(
    "expr",
    [sp.expand((a + b + x) ** 5), sp.Sum(a * x, (x, 1, k)) + sp.Integral(x**2, (x, 0, 1)) - sp.sqrt(a + b), a],
)
def test_long_formulas_are_cut_at_top_level_and_joined_back(expr):
    tex = sp.latex(expr)
    pieces = split_top_level(tex)
    assert "".join(pieces) == tex
    for piece in pieces:
        assert piece.count("{") == piece.count("}") and piece.count(r"\left") == piece.count(r"\right")


def balanced(piece: str) -> bool:
    sized = len(re.findall(r"\\(?:big|Big|bigg|Bigg)[lr]", piece))
    return piece.count("{") == piece.count("}") and piece.count(r"\left") == piece.count(r"\right") and sized <= 1


def test_a_piece_too_long_for_a_line_is_opened_at_its_widest_bracket():
    tex = r"{}= \mathbb{E}\left[" + " + ".join([r"\left(\frac{\epsilon_1}{3} - \epsilon_2\right)^{2}"] * 4) + r"\right]"
    pieces = cut_formula(tex)
    assert len(pieces) > 1 and all(balanced(piece) for piece in pieces)
    # one bracket, at one size, opened on the first piece and closed on the last; nothing else changed
    assert pieces[0].count(r"\biggl[") == 1 and pieces[-1].rstrip().endswith(r"\biggr]")
    assert "".join(pieces).replace(r"\biggl[ ", r"\left[").replace(r" \biggr]", r"\right]") == tex


def test_a_long_fraction_is_broken_as_one_over_its_denominator_times_its_numerator():
    numerator = " + ".join([r"\sum_{i=1}^{n} \mathbb{I}\left(f(x_i) \neq y_i\right) c_{01}"] * 3)
    pieces = cut_formula(rf"{{}}\mathrel{{:=}} \frac{{{numerator}}}{{m}}")
    assert len(pieces) > 1 and all(balanced(piece) for piece in pieces)
    assert pieces[0].startswith(r"{}\mathrel{:=} \frac{1}{m} \Biggl(") and pieces[-1].endswith(r"\Biggr)")


def test_a_fraction_over_a_product_of_brackets_is_cut_into_two_fractions():
    tp, tn, fp, fn = sp.symbols(r"\mathit{TP} \mathit{TN} \mathit{FP} \mathit{FN}", positive=True)
    expr = 4 * tn * tp / ((fn + fp + 2 * tp) * (fn + fp + 2 * tn + 2 * tp))
    tex = sp.latex(expr, mul_symbol="times")
    first, second = cut_formula(tex)
    # n / (a b) as n/a times 1/b, with nothing else changed; each side is a formula of its own
    assert first.replace(r"\mathit", "") == r"\frac{4 \times {TN} \times {TP}}{{FN} + {FP} + 2 \times {TP}}"
    assert second.replace(r"\mathit", "") == r" \cdot \frac{1}{{FN} + {FP} + 2 \times {TN} + 2 \times {TP}}"


def test_a_long_product_is_cut_between_its_factors_and_a_derivative_keeps_its_scope():
    eps, hat, m = sp.symbols(r"epsilon \hat{\epsilon} m", positive=True)
    body = eps ** (hat * m) * (1 - eps) ** (m - hat * m) * sp.binomial(m, hat * m)
    pieces = cut_formula(sp.latex(sp.Derivative(body, eps)))
    assert len(pieces) == 2 and all(balanced(piece) for piece in pieces)
    assert pieces[0].startswith(r"\frac{\partial}{\partial \epsilon} \Bigl(") and pieces[-1].endswith(r"\Bigr)")
    assert pieces[1].startswith(r" \cdot {\binom")
    # a variable with braces in the operator's denominator (the operator's end is found by its groups)
    braced = cut_formula(sp.latex(sp.Derivative(body.subs(eps, hat**2), hat)))
    assert braced[0].startswith(r"\frac{\partial}{\partial \hat{\epsilon}} \Bigl(") and braced[-1].endswith(r"\Bigr)")
    # a derivative inside the product: its scope runs to the end, so nothing after it is cut
    inside = sp.latex(sp.gamma(m) * sp.binomial(m, hat) * sp.Derivative(body, eps), long_frac_ratio=None)
    assert all(r"\partial" not in piece for piece in cut_formula(inside)[:-1])
    # a long sum's scope is never cut
    summed = sp.latex(sp.Sum(body * sp.binomial(m, hat) * sp.gamma(m), (m, 1, 9)))
    assert cut_formula(summed) == [summed]


def test_a_bracket_around_one_long_term_opens_the_term():
    p, c01, c10, fnr, fpr = sp.symbols(r"p \mathrm{cost}_{01} \mathrm{cost}_{10} \mathrm{FNR} \mathrm{FPR}")
    ratio = (fnr * c01 * p + fpr * c10 * (1 - p)) / (c01 * p + c10 * (1 - p))
    tex = sp.latex(sp.Subs(ratio, p, sp.Rational(1, 2)))
    pieces = cut_formula(tex)
    assert len(pieces) == 3 and all(len(piece) < len(tex) * 0.6 for piece in pieces)
    # the numerator is the long part: 1/d on a line of its own, then the numerator opened at its plus
    assert pieces[0].strip().startswith(r"\frac{1}{") and pieces[0].rstrip().endswith(r"\Bigl(")
    assert pieces[2].startswith(" + ")
    # the evaluation bar closes the last piece, at the fixed size of the bracket it closed
    assert re.search(r"\\biggr\|_\{\\substack\{ p=\\frac\{1\}\{2\} \}\}$", pieces[-1])


def test_definitions_side_by_side_are_cut_between_them():
    tex = r"P_i \mathrel{:=} \frac{TP_i}{TP_i + FP_i},\quad R_i \mathrel{:=} \frac{TP_i}{TP_i + FN_i}"
    assert split_top_level(tex) == [tex[: tex.index(r"\quad")], tex[tex.index(r"\quad") :]]


@pytest.mark.parametrize(
    "expr",
    [sp.expand((a + b + x) ** 9), sp.Sum((a * x + b) ** 2 + sp.sqrt(x), (x, 1, k)) * (a + b) ** 5, (a + b) ** 12 / 7],
)
def test_every_piece_of_a_cut_formula_is_a_formula(expr):
    tex = sp.latex(sp.expand(expr) / (a + 3) + sp.Function("g")(sp.expand((a - b) ** 6)), long_frac_ratio=None)
    assert all(balanced(piece) for piece in cut_formula(tex))


def test_a_short_piece_is_never_opened():
    tex = r"\left(a + b\right)^{2}"
    assert cut_formula(tex) == [tex]


def test_unsafe_tex_names_what_it_refuses():
    assert unsafe_tex(r"\frac{a}{b} + \operatorname{acc}(f)") is None
    assert unsafe_tex(r"\rlap{\checkmark}") == r"\rlap"


# -- what a reader reads: a reason said once, a rule list on request ------------------------------------------
def test_a_reason_is_not_repeated_by_its_rule_name():
    same = Rule.assumption("expand the square", {sp.Symbol("q"): 1}, source="any algebra text")
    other = Rule.assumption("binomial theorem", {sp.Symbol("r"): 1}, source="any algebra text")
    d = Derivation((a + b) ** 2).step(a**2 + 2 * a * b + b**2, "Expand the square.", rules=[same, other])
    (note,) = notes(d._repr_html_())
    assert note.count("xpand the square") == 1 and "[binomial theorem]" in note
    text = d._repr_mimebundle_()["text/plain"] if hasattr(d, "_repr_mimebundle_") else ""
    assert d.latex().count("xpand the square") == 1 and text.count("xpand the square") == 1
    alone = Derivation((a + b) ** 2).step(a**2 + 2 * a * b + b**2, "expand the square", rules=[same])
    (note,) = notes(alone._repr_html_())
    assert "chain-rules" not in note and note.count("expand the square") == 1
    # a different reason keeps its rule's name
    kept = Derivation((a + b) ** 2).step(a**2 + 2 * a * b + b**2, "multiply out", rules=[same])
    assert "[expand the square]" in notes(kept._repr_html_())[0]


def test_a_rule_list_is_collapsed_under_its_chain_and_names_how_many_rules():
    rules = [Rule.assumption(f"rule {n}", {sp.Symbol("q"): n}, source="a source") for n in (1, 2)]
    page = rule_list(rules)._repr_html_()
    assert page.startswith('<details class="melearn-rules-list">') and page.endswith("</details>")
    assert "<summary" in page and "open" not in page.split(">")[0]
    assert "The rules (2)" in page and page.count('class="rule-row"') == 2
