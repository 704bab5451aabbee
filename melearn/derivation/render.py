r"""How a checked derivation is shown: HTML rows for the book, LaTeX for other front ends, plain text.

A chain is shown as rows, one per step: the mathematics (typeset by MathJax from the very sympy objects that were
checked) and, beside it or under it when the column is narrow, the reason, as text. What a page supplies (a reason,
a rule name, a notation ``lhs``) can never draw a tick or add a row:

* a reason and a rule name are **text**: in HTML they are escaped and sit in an element MathJax ignores
  (``$\checkmark$`` in a reason is shown as those characters), in LaTeX they are escaped inside ``\text{...}``;
  a formula ``$...$`` inside a reason is typeset only when it contains nothing that draws, colours, overlaps or
  separates rows (:func:`unsafe_tex`), and a tick-like character (✓, √, ...) in a reason is replaced by ``(tick)``;
* the tick is drawn by this module alone, from ``Derivation.checked``, as an element of class ``chain-tick``;
* a notation ``lhs`` (a string) is rendered as mathematics, marked "notation, not checked" and never ticked; it
  may not contain a row separator (``\\``, ``&``) or anything :func:`unsafe_tex` refuses (``ValueError``).

Long steps are cut at their top-level ``+``, ``-`` and ``=`` into pieces that the browser wraps like words
(:func:`cut_formula`): each piece is a formula of its own, and the pieces joined give back the formula. A piece
still too long for a line is cut inside its widest bracket, which is then written at a fixed size (``\biggl(``
... ``\biggr)``), as printed books break a bracket across lines; a long fraction is first written as one over
its denominator times its numerator, a fraction over a product of brackets as the product of two fractions
(:math:`n/(ab) = (n/a)(1/b)`), and a long product is cut between its factors, each later factor led by a dot (a
derivative leading it keeps its scope, in brackets). Every rewrite shows the same number as the sympy object.

The stylesheet ``book/static/chains.css`` of the book lays the rows out (reasons beside their step on a wide column,
under it on a narrow one and on paper).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

import sympy as sp

from ..i18n import joined, labelled, parenthesised, template, translate, translate_latex_text

__all__ = [
    "RuleList",
    "chain_html",
    "chain_latex",
    "chain_text",
    "check_layout",
    "cut_formula",
    "escape_latex_text",
    "freeze_options",
    "math_or_text",
    "refusal_html",
    "refusal_text",
    "rule_list",
    "rules_html",
    "rules_latex",
    "split_top_level",
    "unsafe_tex",
]

LAYOUTS = ("side", "below")


def check_layout(layout: str) -> None:
    """Refuse a layout that is not one of ``LAYOUTS`` (a chain's reasons beside or below its steps)."""
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {LAYOUTS}, got {layout!r}")


# characters that read as a tick (U+2713 CHECK MARK, U+2714, U+2705, U+2611, U+1F5F8, U+1F5F9, U+221A SQUARE ROOT)
TICKS = "\u2713\u2714\u2705\u2611\U0001f5f8\U0001f5f9\u221a"
_TICK = re.compile(f"[{TICKS}]")

# TeX that may not appear in page-supplied mathematics: row and column separators, the tick and the root sign, and
# everything that defines macros, loads code, links, colours, or moves ink over other ink
_UNSAFE_COMMANDS = (
    "checkmark surd sqrtsign cr newline begin end tag notag label ref eqref def gdef edef xdef let futurelet "
    "newcommand renewcommand providecommand newenvironment renewenvironment DeclareMathOperator require unicode "
    "char mathchar delimiter href url class cssId style data html texttip mathtip toggle color textcolor colorbox "
    "fcolorbox bbox enclose cancel bcancel xcancel mathchoice raise lower raisebox llap rlap clap mathllap mathrlap "
    "mathclap smash phantom hphantom vphantom kern mkern hskip mskip hspace mspace moveleft moveright hbox mbox "
    "vbox vcenter halign valign noalign omit span cases matrix array over atop above choose brace brack "
    "displaylines ce pu mmlToken input"
).split()
_UNSAFE = re.compile(r"\\\\|&|\$|\\(?:" + "|".join(_UNSAFE_COMMANDS) + r")(?![A-Za-z])|" + _TICK.pattern)


def unsafe_tex(tex: str) -> str | None:
    r"""The first thing in ``tex`` that page-supplied mathematics may not contain, or None when it is safe.

    Refused: the row and column separators ``\\`` and ``&``, ``$``, tick-like characters, and commands that draw a
    tick or a root sign, define macros, load extensions, link, colour, or move ink (``\checkmark``, ``\def``,
    ``\require``, ``\href``, ``\color``, ``\rlap``, ``\kern``, ...).

    >>> unsafe_tex(r"\bar S_i"), unsafe_tex(r"x \\ y"), unsafe_tex(r"\checkmark")
    (None, '\\\\', '\\checkmark')
    """
    match = _UNSAFE.search(tex)
    return None if match is None else match.group(0)


def check_notation(tex: str, name: str = "lhs") -> str:
    """``tex`` if it is safe as a notation line (see :func:`unsafe_tex`); else a ``ValueError`` naming ``name``."""
    if not isinstance(tex, str):
        raise ValueError(f"{name} must be a string of LaTeX, got {type(tex).__name__}")
    bad = unsafe_tex(tex)
    if bad is not None:
        raise ValueError(
            f"{name} is notation (LaTeX shown as it is, never checked) and may not contain {bad!r}: row separators, "
            "ticks and commands that draw, colour, link or define are refused"
        )
    return tex


# -- latex options: frozen at construction, so that nothing changes the rendering after check() ------------------
def _freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return MappingProxyType({key: _freeze(item) for key, item in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(item) for item in value)
    if isinstance(value, (set, frozenset)):
        return frozenset(_freeze(item) for item in value)
    return value


def freeze_options(options: Mapping | None, name: str = "latex_options") -> Mapping:
    """A read-only copy of ``options`` (nested mappings and lists frozen too); ``ValueError`` if not a mapping."""
    if options is None:
        return MappingProxyType({})
    if not isinstance(options, Mapping):
        raise ValueError(f"{name} must be a mapping of sympy.latex keyword arguments, got {type(options).__name__}")
    return _freeze(options)


# -- text ------------------------------------------------------------------------------------------------------
_LATEX_TEXT_ESCAPES = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "#": r"\#",
    "$": r"\$",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "^": r"\textasciicircum{}",
    "~": r"\textasciitilde{}",
}
_MATH_IN_TEXT = re.compile(r"\$([^$]+)\$")


def _untick(text: str) -> str:
    return _TICK.sub("(tick)", text)


def escape_latex_text(text: str) -> str:
    r"""``text`` escaped for ``\text{...}``: every special character of TeX is shown as itself.

    >>> escape_latex_text(r"50% & #1 $\checkmark$")
    '50\\% \\& \\#1 \\$\\textbackslash{}checkmark\\$'
    """
    return "".join(_LATEX_TEXT_ESCAPES.get(char, char) for char in _untick(text))


def _pieces(text: str) -> list[tuple[str, str]]:
    """``text`` as ("text", words) and ("math", tex) pieces; a ``$...$`` formula that is not safe stays text."""
    pieces: list[tuple[str, str]] = []
    position = 0
    for match in _MATH_IN_TEXT.finditer(text):
        if unsafe_tex(match.group(1)) is not None:
            continue
        if match.start() > position:
            pieces.append(("text", text[position : match.start()]))
        pieces.append(("math", match.group(1)))
        position = match.end()
    if position < len(text):
        pieces.append(("text", text[position:]))
    return pieces


def text_latex(text: str) -> str:
    r"""Text (a reason, a rule name) as ``\text{...}``: escaped, with its safe ``$...$`` formulas kept as formulas.

    >>> print(text_latex(r"add $\bar f$, not $\checkmark$"))
    \text{add $\bar f$, not \$\textbackslash{}checkmark\$}
    """
    parts = [f"${piece}$" if kind == "math" else escape_latex_text(piece) for kind, piece in _pieces(text)]
    return f"\\text{{{''.join(parts)}}}"


def text_html(text: str) -> str:
    """Text as HTML: escaped, with its safe ``$...$`` formulas as inline math (the rest is shown literally)."""
    parts = []
    for kind, piece in _pieces(text):
        if kind == "math":
            parts.append(_math_html(piece))
        else:
            parts.append(html.escape(_untick(piece)))
    return "".join(parts)


def _math_html(tex: str, display: bool = False, css: str = "") -> str:
    body = f"\\displaystyle {tex}" if display else tex
    classes = f"math notranslate nohighlight {css}".strip()
    return f'<span class="{classes}">\\({html.escape(body, quote=False)}\\)</span>'


def math_or_text(tex: str) -> str:
    """``tex`` as inline mathematics for MathJax, or as escaped text when :func:`unsafe_tex` refuses it."""
    if unsafe_tex(tex):
        return f'<span class="tex2jax_ignore mathjax_ignore">{html.escape(tex)}</span>'
    return _math_html(tex)


# -- long formulas ---------------------------------------------------------------------------------------------
_SCOPED = re.compile(r"\\(?:sum|prod|int|iint|oint|lim|max|min|sup|inf|operatorname)(?![A-Za-z])")
_TOKEN = re.compile(r"\\left\b|\\right\b|\\[A-Za-z]+|\\.|[{}]| [+=-] |.", re.S)


def split_top_level(tex: str, min_length: int = 24) -> list[str]:
    r"""Cut ``tex`` before each top-level ``+``, ``-``, ``=`` and ``,\quad`` (outside groups and brackets).

    A product of two brackets (``\right) \left(``) is cut between them too. The pieces, joined, are ``tex``
    again. Pieces shorter than ``min_length`` characters are joined to the one before.

    >>> split_top_level(r"a + \frac{b + c}{2} - \left(d + e\right)", min_length=1)
    ['a', ' + \\frac{b + c}{2}', ' - \\left(d + e\\right)']
    """
    cuts = [0]
    depth = 0
    for match in _TOKEN.finditer(tex):
        token = match.group(0)
        if (
            token == r"\left"
            and depth == 0
            and re.search(r"\\right[)\]] $", tex[: match.start()])
            and not _SCOPED.search(tex[cuts[-1] : match.start()])  # the scope of a sum or integral stays whole
        ):
            cuts.append(match.start() - 1)  # a product of two brackets: ")(" may break, shown as a dot
        if token in ("{", r"\left", r"\begin"):
            depth += 1
        elif token in ("}", r"\right", r"\end"):
            depth -= 1
        elif depth == 0 and token in (" + ", " - ", " = ") and match.start() > 0:
            cuts.append(match.start())
        elif depth == 0 and token == r"\quad" and tex[match.start() - 1] == ",":  # definitions side by side
            cuts.append(match.start())
    pieces = [tex[a:b] for a, b in zip(cuts, cuts[1:] + [len(tex)], strict=True)]
    merged: list[str] = []
    for piece in pieces:
        if merged and len(merged[-1].strip()) < min_length:
            merged[-1] += piece
        else:
            merged.append(piece)
    if len(merged) > 1 and len(merged[-1].strip()) < min_length // 2:
        last = merged.pop()
        merged[-1] += last
    return merged


_LONG_PIECE = 120  # characters of LaTeX: a longer piece is opened at its widest bracket, or its long fraction
_TALL = (  # the TeX size of a bracket cut across lines, from what it holds (TeX's own \bigl( ... \bigr) practice)
    (re.compile(r"\\(?:sum|prod|int)\w*_|\\frac\{[^{}]*\\frac"), r"\Bigg"),
    (re.compile(r"\\frac"), r"\bigg"),
    (re.compile(r"\^|\\left|\\hat|\\bar|\\overline"), r"\Big"),
)


def _group_end(tex: str, start: int) -> int:
    """The index just past the ``{...}`` group that starts at ``tex[start]``."""
    depth = 0
    for match in _TOKEN.finditer(tex, start):
        if match.group(0) == "{":
            depth += 1
        elif match.group(0) == "}":
            depth -= 1
            if depth == 0:
                return match.end()
    raise ValueError(f"unbalanced braces in {tex!r}")


def _top_level_parts(tex: str) -> tuple[list[tuple[int, int, int, int]], list[tuple[int, int, int]]]:
    r"""The ``\left ... \right`` groups and the ``\frac{...}{...}`` of ``tex`` outside every other group.

    Brackets as ``(start, content_start, content_end, end)``: ``tex[start:content_start]`` is ``\left(``,
    ``tex[content_end:end]`` is ``\right)``. Fractions as ``(start, numerator_end, end)``.
    """
    brackets, fractions = [], []
    depth, opened, content = 0, 0, 0
    tokens = list(_TOKEN.finditer(tex))
    for index, match in enumerate(tokens):
        token = match.group(0)
        if token == "\\frac" and depth == 0:
            numerator_end = _group_end(tex, match.end())
            fractions.append((match.start(), numerator_end, _group_end(tex, numerator_end)))
        if token in ("{", r"\left", r"\begin"):
            if token == r"\left" and depth == 0 and index + 1 < len(tokens):
                opened, content = match.start(), tokens[index + 1].end()
            depth += 1
        elif token in ("}", r"\right", r"\end"):
            depth -= 1
            if token == r"\right" and depth == 0 and index + 1 < len(tokens):
                brackets.append((opened, content, match.start(), tokens[index + 1].end()))
    return brackets, fractions


def _size(content: str) -> str:
    return next((size for pattern, size in _TALL if pattern.search(content)), r"\big")


def _bracket_factors(denominator: str) -> list[str]:
    r"""What each bracket of ``denominator`` holds, when it is nothing but a product of ``\left( \right)`` brackets.

    >>> _bracket_factors(r"\left(a + b\right) \times \left(c + d\right)")
    ['a + b', 'c + d']
    >>> _bracket_factors(r"\left(a + b\right)^{2}")
    []
    """
    brackets, _ = _top_level_parts(denominator)
    position, factors = 0, list[str]()
    for start, content_start, content_end, end in brackets:
        between = denominator[position:start].strip()
        if between not in ("", r"\times", r"\cdot") or (between and not factors):
            return []
        if denominator[start:content_start].replace(" ", "") != r"\left(" or denominator[content_end:end] != r"\right)":
            return []
        factors.append(denominator[content_start:content_end])
        position = end
    return factors if denominator[position:].strip() == "" else []


_FACTOR_START = re.compile(r" (?=\\left\(|\{\\binom|\\Gamma|\\frac|\\log|\\mathrm)")
#: a derivative operator begins so: \frac{\partial}{\partial x}, \frac{d^{2}}{d x^{2}}
_DERIVATIVE = re.compile(r"\\frac\{\s*(?:\\partial|d)(?:\^\{?\d+\}?)?\s*\}")


def _derivative_lead(piece: str) -> int:
    r"""The length of the derivative operator that leads ``piece`` (``\frac{\partial}{\partial x} ``), or 0."""
    stripped = piece.lstrip()
    if _DERIVATIVE.match(stripped) is None:
        return 0
    end = _group_end(stripped, _group_end(stripped, len(r"\frac")))
    return len(piece) - len(stripped) + end


def _break_product(piece: str) -> list[str]:
    r"""A long product cut between its factors, each later factor led by a dot, as printed books break one.

    Only spaces outside every group and bracket are cuts, and only before a factor that is a formula of its own
    (a bracket, a binomial coefficient, a fraction, :math:`\Gamma`, a logarithm). A derivative that leads the
    piece keeps its scope: what it differentiates is bracketed, opened on the first piece and closed on the last.
    Nothing is cut after a sum, product, integral or limit (its scope runs to the end). Pieces shorter than a
    third of a line are joined to their neighbour; a piece with no such cut is returned whole.

    >>> tex = r"\frac{\partial}{\partial p} p^{\hat{\epsilon} m} \left(1 - p\right)^{m - \hat{\epsilon} m} "
    >>> tex += r"{\binom{m}{\hat{\epsilon} m}}"
    >>> for part in _break_product(tex):
    ...     print(part)
    \frac{\partial}{\partial p} \Bigl( p^{\hat{\epsilon} m} \left(1 - p\right)^{m - \hat{\epsilon} m}
     \cdot {\binom{m}{\hat{\epsilon} m}} \Bigr)
    """
    cut = _derivative_lead(piece)
    lead, body = piece[:cut], piece[cut:]
    if _SCOPED.search(body) or _DERIVATIVE.search(body):  # their scope runs to the end of the piece
        return [piece]
    cuts, depth = [0], 0
    for match in _TOKEN.finditer(body):
        token = match.group(0)
        if token in ("{", r"\left", r"\begin"):
            depth += 1
        elif token in ("}", r"\right", r"\end"):
            depth -= 1
        elif depth == 0 and token == " " and match.start() > 0 and _FACTOR_START.match(body, match.start()):
            cuts.append(match.start())
    pieces: list[str] = []
    for part in (body[a:b] for a, b in zip(cuts, cuts[1:] + [len(body)], strict=True)):
        if pieces and (len(pieces[-1].strip()) < _LONG_PIECE // 3 or len(part.strip()) < _LONG_PIECE // 6):
            pieces[-1] += part
        else:
            pieces.append(part)
    if len(pieces) == 1:
        return [piece]
    pieces[1:] = [r" \cdot" + part for part in pieces[1:]]
    if lead:
        size = _size(body)
        pieces[0] = f"{lead} {size}l({pieces[0]}"
        pieces[-1] = f"{pieces[-1]} {size}r)"
    return pieces


def _break_long_piece(piece: str) -> list[str]:
    r"""A piece too long for a line, cut inside its widest top-level bracket.

    ``a\left(b + c\right)d`` becomes ``a\bigl(b`` and `` + c\bigr)d``: as in a printed book, a bracket broken
    across lines gets a fixed size, chosen from what it holds (a sum with limits, a fraction, a superscript), so
    that both halves match. A fraction whose numerator is the long part is first written as
    ``\frac{1}{d}\left(n\right)``: the same number, broken the way printed books break it. A piece that cannot
    be opened this way is returned whole.
    """
    if len(piece) <= _LONG_PIECE:
        return [piece]
    brackets, fractions = _top_level_parts(piece)
    widest = max(brackets, key=lambda b: b[2] - b[1], default=None)
    numerator = max(fractions, key=lambda f: f[1] - f[0], default=None)
    if numerator is not None and (widest is None or numerator[1] - numerator[0] > widest[2] - widest[1]):
        start, numerator_end, end = numerator
        body = piece[start + len(r"\frac") + 1 : numerator_end - 1]
        if len(split_top_level(body, min_length=1)) > 1 or len(_break_product(body)) > 1:
            shown = rf"\frac{{1}}{piece[numerator_end:end]} \left({body}\right)"
            rewritten = piece[:start] + shown + piece[end:]
            return [part for cut in split_top_level(rewritten) for part in _break_long_piece(cut)]
    over = max(fractions, key=lambda f: f[2] - f[1], default=None)
    if over is not None and (widest is None or over[2] - over[1] > widest[3] - widest[0]):
        start, numerator_end, end = over
        factors = _bracket_factors(piece[numerator_end + 1 : end - 1])
        if len(factors) > 1:
            # n / (a b) written as n/a times 1/b: the same number, each fraction as wide as one factor
            over_first = piece[start + len(r"\frac") : numerator_end]
            others = " ".join(r"\left(" + factor + r"\right)" for factor in factors[1:])
            first = r"\frac" + over_first + "{" + factors[0] + "}"
            rest = r" \cdot \frac{1}{" + (others if len(factors) > 2 else factors[1]) + "}"
            pieces = [piece[:start] + first, rest + piece[end:]]
            return [part for cut in pieces for part in _break_long_piece(cut)]
    if widest is None:
        return _break_product(piece)
    start, content_start, content_end, end = widest
    content = piece[content_start:content_end]
    inner = split_top_level(content)
    if len(inner) == 1:
        inner = _break_long_piece(content)  # a bracket around one long term: the term is opened in its turn
        if len(inner) == 1:
            return _break_product(piece)
    size = _size(content)
    opening = piece[start + len(r"\left") : content_start].strip()
    closing = piece[content_end + len(r"\right") : end].strip()
    before = piece[:start] + ("" if opening == "." else f"{size}l{opening} ")
    if len(piece[:start].strip()) >= _LONG_PIECE // 3 and opening != ".":
        inner.insert(0, before)  # a long factor before the bracket (a fraction 1/d) on a line of its own
    else:
        inner[0] = before + inner[0]
    inner[-1] += ("" if closing == "." else f" {size}r{closing}") + piece[end:]
    return [part for cut in inner for part in _break_long_piece(cut)]


def cut_formula(tex: str) -> list[str]:
    r"""``tex`` as pieces the browser can wrap like words.

    :func:`split_top_level` cuts it first; every piece still too long for a line is then opened at its widest
    bracket (or long fraction) by :func:`_break_long_piece`.

    Each piece is a formula of its own (balanced braces, ``\left`` and ``\right``); when no fraction was
    rewritten, the pieces joined are ``tex`` with the opened brackets written at a fixed size.
    """
    return [part for piece in split_top_level(tex) for part in _break_long_piece(piece)]


def _terms_html(tex: str, lead: str = "") -> str:
    """``lead tex`` as inline formulas cut at top-level operators, wrapped by the browser like words."""
    spans = []
    for index, piece in enumerate(cut_formula(tex)):
        if index == 0:
            source = f"{{}}{lead} {piece}" if lead else piece
        else:  # a continuation: binary spacing for + - =, a dot for a product cut between its brackets
            source = ("{}\\cdot" if piece.startswith(" \\left") else "{}") + piece
        spans.append(_math_html(source.strip(), display=True, css="chain-term"))
    return "<wbr>".join(spans)


# -- a chain ---------------------------------------------------------------------------------------------------
def _assumptions(derivation) -> tuple[tuple[sp.Basic, tuple[str, ...]], ...]:
    method = getattr(derivation, "assumptions_used", None)
    if method is None:
        return ()
    return tuple((symbol, tuple(names)) for symbol, names in method())


def _rows(derivation, tex) -> list[dict]:
    """The rows of a chain: lhs (tex or ""), relation, expression tex, reason, rules, notation flag, tick flag."""
    ticked = derivation.checked
    rows: list[dict] = []
    lhs = derivation.lhs
    if isinstance(lhs, str):
        check_notation(lhs)
        rows.append(
            dict(
                lhs=lhs,
                rel=r"\mathrel{:=}",
                expr=tex(derivation.start),
                why=derivation.lhs_note,
                rules=(),
                notation=True,
                tick=False,
            )
        )
        head = ""
    else:
        head = tex(lhs) if isinstance(lhs, sp.Basic) else tex(derivation.start)
    # the second route's verdicts (``Derivation.verdicts``): a ticked step it could not evaluate is "kernel only"
    verdicts = tuple(getattr(derivation, "verdicts", ())) if ticked else ()
    for index, link in enumerate(derivation.links()):
        verdict = verdicts[index] if index < len(verdicts) else None
        alone = verdict.reason if verdict is not None and verdict.status == "kernel only" else ""
        rows.append(
            dict(
                lhs=head,
                rel="=",
                expr=tex(link.expr),
                why=link.why,
                rules=link.rules,
                notation=False,
                tick=ticked,
                kernel_only=alone,
            )
        )
        head = ""
    return rows


def kernel_only_note(reason: str) -> str:
    """The words beside a tick the second route could not confirm: "kernel only", and why (translated)."""
    return template("kernel only: {reason}").format(reason=translate(reason))


def _same_words(a: str, b: str) -> bool:
    """Whether two texts say the same words (case, spacing and a closing full stop aside)."""
    words = lambda text: " ".join(text.casefold().rstrip(" .。").split())  # noqa: E731
    return words(a) == words(b)


def _rule_names(row: dict) -> list[str]:
    """The names of a step's rules, translated, without one that only repeats the step's reason word for word."""
    why = translate(row["why"]) if row["why"].strip() else ""
    return [name for name in (translate(rule.name) for rule in row["rules"]) if not (why and _same_words(name, why))]


def _note_latex(row: dict) -> str:
    mark = r"\checkmark\ " if row["tick"] else ""
    if row.get("kernel_only"):
        mark += text_latex(parenthesised(kernel_only_note(row["kernel_only"]))) + r"\ "
    names = joined(_rule_names(row))
    rules = f"[{text_latex(names)}]" if names else ""
    why = row["why"]
    reason = text_latex(translate(why)) if why.strip() else ""
    if row["notation"]:
        label = text_latex(parenthesised(translate("notation, not checked")))
        reason = f"{reason}\\ {label}" if reason else label
    return mark + (f"{reason}\\ {rules}" if reason and rules else reason or rules)


def chain_latex(derivation, tex, *, reasons: bool = True, layout: str = "side") -> str:
    r"""The chain as ``\begin{aligned} ... \end{aligned}`` (see ``Derivation.latex``)."""
    check_layout(layout)
    lines: list[tuple[str, str]] = []
    for row in _rows(derivation, tex):
        head = f"{row['lhs']} " if row["lhs"] else ""
        lines.append((f"{head}&{row['rel']} {row['expr']}", _note_latex(row)))
    if not reasons:
        body = [line for line, _ in lines]
    elif layout == "side":
        body = [f"{line} && {note}" if note else line for line, note in lines]
    else:
        body = [part for line, note in lines for part in (line, rf"&\quad {{\color{{gray}}{{{note}}}}}")]
    assumed = _assumptions(derivation)
    if assumed and reasons:
        listed = translate("; ").join(f"{sp.latex(symbol)}\\ {text_latex(joined(names))}" for symbol, names in assumed)
        body.append(rf"&\quad {text_latex(labelled(translate('assumptions'), ''))}{listed}")
    text = " \\\\\n".join(line.strip() for line in body)
    return f"\\begin{{aligned}}\n{text}\n\\end{{aligned}}"


def _note_html(row: dict) -> str:
    parts = []
    if row["tick"]:
        parts.append(f'<span class="chain-tick" title="{html.escape(translate("checked"))}">\u2713</span>')
    if row.get("kernel_only"):
        parts.append(f'<span class="chain-kernel-only">{html.escape(kernel_only_note(row["kernel_only"]))}</span>')
    if row["notation"]:
        parts.append(f'<span class="chain-notation">{html.escape(translate("notation, not checked"))}</span>')
    if row["why"].strip():
        parts.append(f'<span class="chain-why">{text_html(translate(row["why"]))}</span>')
    names = _rule_names(row)
    if names:
        parts.append(f'<span class="chain-rules">[{text_html(joined(names))}]</span>')
    return " ".join(parts)


_IGNORE = "tex2jax_ignore mathjax_ignore"
_LONG_LHS = 40  # characters of LaTeX: a longer left side gets a line of its own, the steps under it


def chain_html(derivation, tex, *, layout: str = "side") -> str:
    """The chain as HTML rows: the mathematics, then the reason as text; see the module's description."""
    check_layout(layout)
    state = "checked" if derivation.checked else "unchecked"
    rows = _rows(derivation, tex)
    long_lhs = " chain-long-lhs" if any(len(row["lhs"]) > _LONG_LHS for row in rows) else ""
    out = [f'<div class="melearn-chain chain-{layout} chain-{state}{long_lhs}"><div class="chain-rows">']
    for index, row in enumerate(rows):
        kind = " chain-notation-row" if row["notation"] else ""
        lhs = _terms_html(row["lhs"]) if row["lhs"] else ""
        out.append(
            f'<div class="chain-row{kind}" data-step="{index}">'
            f'<div class="chain-lhs">{lhs}</div>'
            f'<div class="chain-body"><div class="chain-expr">{_terms_html(row["expr"], lead=row["rel"])}</div>'
            f'<div class="chain-note {_IGNORE}">{_note_html(row)}</div></div></div>'
        )
    out.append("</div>")
    assumed = _assumptions(derivation)
    if assumed:
        each = (f"{_math_html(sp.latex(s))} {html.escape(joined(translate(n) for n in names))}" for s, names in assumed)
        line = labelled(html.escape(translate("assumptions")), joined(each, "; "))
        out.append(f'<div class="chain-assumptions {_IGNORE}">{line}</div>')
    if not derivation.checked:
        out.append(f'<div class="chain-status {_IGNORE}">{html.escape(translate("not checked"))}</div>')
    out.append("</div>")
    return "".join(out)


def chain_text(derivation, tex=None) -> str:
    """The chain as plain text, one line per step (sympy's ``str`` of each expression), ticks as ``[checked]``."""
    lines = []
    for row in _rows(derivation, lambda expr: str(expr)):
        head = f"{row['lhs']} " if row["lhs"] else "    "
        rel = ":=" if row["notation"] else "="
        note = []
        if row["tick"]:
            note.append("[checked]")
        if row.get("kernel_only"):
            note.append(parenthesised(kernel_only_note(row["kernel_only"])))
        if row["notation"]:
            note.append(parenthesised(translate("notation, not checked")))
        if row["why"].strip():
            note.append(_untick(translate(row["why"])))
        names = _rule_names(row)
        if names:
            note.append("[" + joined(names) + "]")
        lines.append(f"{head}{rel} {row['expr']}" + (f"    {' '.join(note)}" if note else ""))
    return "\n".join(lines)


# -- rule lists ------------------------------------------------------------------------------------------------
def _origin(rule) -> str:
    return joined([translate(rule.kind), translate(rule.source)] if rule.source else [translate(rule.kind)], "; ")


def rules_latex(rules: Iterable) -> str:
    r"""Rules as ``\begin{aligned} ... \end{aligned}``: name and (kind; source) as text, the statement below."""
    lines = []
    for rule in rules:
        name = text_latex(labelled(translate(rule.name), ""))
        statement = translate_latex_text(rule.statement)
        if unsafe_tex(statement) is not None:
            statement = text_latex(statement)
        lines.append(f"&{name}{text_latex(parenthesised(_origin(rule)))} \\\\\n&\\qquad {statement}")
    body = " \\\\\n".join(lines)
    return f"\\begin{{aligned}}\n{body}\n\\end{{aligned}}"


def rules_html(rules: Iterable, *, collapsed: bool = False) -> str:
    """Rules as HTML rows: name, kind and source as text, the statement as mathematics below (cut at top level).

    ``collapsed``: the rows inside a ``<details>`` element whose summary names how many rules there are, closed
    until the reader opens it (the rule list under a chain: the chain comes first, its rules on request).
    """
    rules = tuple(rules)
    out = ['<div class="melearn-rules">']
    if collapsed:
        summary = template("The rules ({n}): kind, source and statement of each").format(n=len(rules))
        out = [f'<details class="melearn-rules-list"><summary class="{_IGNORE}">{html.escape(summary)}</summary>', *out]
    for rule in rules:
        statement = translate_latex_text(rule.statement)
        if unsafe_tex(statement) is None:
            shown = f'<div class="rule-statement">{_terms_html(statement)}</div>'
        else:
            shown = f'<div class="rule-statement {_IGNORE}"><code>{html.escape(statement)}</code></div>'
        out.append(
            f'<div class="rule-row"><div class="rule-head {_IGNORE}"><span class="rule-name">'
            f"{text_html(translate(rule.name))}</span> "
            f'<span class="rule-origin">{text_html(parenthesised(_origin(rule)))}</span></div>{shown}</div>'
        )
    out.append("</div></details>" if collapsed else "</div>")
    return "".join(out)


class RuleList:
    """Rules for display: HTML rows in the book, ``aligned`` LaTeX elsewhere, plain text in a terminal."""

    def __init__(self, rules: Iterable, empty: str = "(no rules: every step is algebra)"):
        self.rules = tuple(rules)
        self.empty = empty

    def _repr_html_(self) -> str:
        if not self.rules:
            return f'<div class="melearn-rules {_IGNORE}">{html.escape(translate(self.empty))}</div>'
        return rules_html(self.rules, collapsed=True)

    def _repr_latex_(self) -> str:
        if not self.rules:
            return f"$$\\begin{{aligned}}{text_latex(translate(self.empty))}\\end{{aligned}}$$"
        return f"$$\n{rules_latex(self.rules)}\n$$"

    def __repr__(self) -> str:
        if not self.rules:
            return translate(self.empty)
        return "\n".join(
            labelled(f"{translate(rule.name)} {parenthesised(_origin(rule))}", translate_latex_text(rule.statement))
            for rule in self.rules
        )


def rule_list(rules: Iterable) -> RuleList:
    """Rules for ``display``: HTML rows in the book (name, kind and source as text, the statement below)."""
    return RuleList(rules)


# -- refusals --------------------------------------------------------------------------------------------------
def refusal_text(error, context: str = "") -> str:
    """A refusal as one line of text: ``refused: <message>`` in the current language (what a terminal shows).

    ``context`` (what the refused chain leaves out or changes) is a line of its own above it.
    """
    line = template("refused: {refusal}").format(refusal=error)
    return f"{labelled(translate(context), '').rstrip()}\n{line}" if context.strip() else line


def _step_label(error) -> str:
    if not error.why.strip():
        return html.escape(template("step {k}").format(k=error.step) if error.step else translate("the first line"))
    why = f"\u201c{text_html(translate(error.why))}\u201d"
    if error.step:
        return template("step {k} ({why})").format(k=error.step, why=why)
    return template("the first line ({why})").format(why=why)


def refusal_html(error, context: str = "") -> str:
    r"""A refusal as the book shows it: a block that wraps in its column, never one line of code.

    The head says what was refused in words (the step's reason typeset where it holds ``$...$``); the step is
    typeset from the sympy objects of the error, the line before it and the step, with a questioned equals sign
    (:math:`\overset{?}{=}`) between them; then what is left between the two sides, and any side condition found
    unmet. A refusal of the chain as a whole (``error.kind`` None) shows its message as text. ``context`` (what
    the refused chain leaves out or changes) heads the block, in words.
    """
    options = dict(getattr(error, "latex_options", None) or {})
    tex = lambda expr: sp.latex(expr, **options)  # noqa: E731
    kind = getattr(error, "kind", None)
    parts = [f'<div class="melearn-refusal refusal-{(kind or "chain").replace(" ", "-")}">']
    head = f"<strong>{html.escape(translate('Refused'))}</strong>"
    if context.strip():
        head += f' <span class="refusal-context">{parenthesised(text_html(translate(context)))}</span>'
    if kind is None or error.claimed is None:
        said = labelled(head, text_html(str(error)))
        parts.append(f'<p class="refusal-head {_IGNORE}">{said}</p></div>')
        return "".join(parts)
    label = _step_label(error)
    previous = html.escape(template("step {k}").format(k=max(error.step - 1, 0)))
    if kind == "changes nothing":
        said = template("{label} changes nothing: it is the line before it again").format(label=label)
    elif kind == "rule not needed":
        rule = text_html(translate(error.rules[0].name)) if error.rules else ""
        said = template(
            "{label} names the rule {rule} but holds without it: a rule beside a step must be needed"
        ).format(label=label, rule=f"\u201c{rule}\u201d")
    else:
        said = template("{label} does not follow from {previous}").format(label=label, previous=previous)
    parts.append(f'<p class="refusal-head {_IGNORE}">{labelled(head, said)}</p>')
    relation = r"\overset{?}{=}" if kind == "does not follow" else "="
    parts.append(
        '<div class="refusal-step">'
        f'<div class="refusal-line">{_terms_html(tex(error.before))}</div>'
        f'<div class="refusal-line">{_terms_html(tex(error.claimed), lead=relation)}</div></div>'
    )
    if kind == "does not follow" and error.difference is not None:
        names = joined(translate(rule.name) for rule in error.rules) or translate("no rules")
        said = template("with {used}, the two sides differ by").format(used=text_html(names))
        parts.append(
            f'<p class="refusal-difference"><span class="{_IGNORE}">{said}</span> '
            f'<span class="refusal-line">{_terms_html(tex(error.difference))}</span></p>'
        )
    if getattr(error, "unmet", ()):
        unmet = joined((text_html(note) for note in error.unmet), "; ")
        said = template("side conditions not met: {unmet}").format(unmet=unmet)
        parts.append(f'<p class="refusal-unmet {_IGNORE}">{said}</p>')
    parts.append("</div>")
    return "".join(parts)


class Refusal:
    """A refusal for ``display``: the typeset block in the book, one line of text in a terminal."""

    def __init__(self, error):
        self.error = error

    def _repr_html_(self) -> str:
        return refusal_html(self.error)

    def __repr__(self) -> str:
        return refusal_text(self.error)
