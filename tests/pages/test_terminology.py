"""The Chinese edition says what the English says, in the textbook's words, and cites only what exists.

* **One term, one word** (``locale/zh_CN/terms.toml``): for each concept the chosen word is used in the
  catalogues and none of the listed alternatives is, outside quotations, code and formulas; and where an English
  message names the concept (its ``labels``: "critical count", a column headed "size"), the translation uses the
  chosen word, not a symbol or a synonym (a header "size" rendered α′ reads as a second level).
* **No English in Chinese formulas**: the ``\\text{...}`` of a translated display formula holds Chinese or
  notation (``s.t.``, ``macro-``), never English words, and no inline formula of a page carries an English phrase.
* **Formula numbers kept**: each translation keeps the formula numbers of its message, (2.27) or
  {eq}`eq-2-27` alike.
* **The pumpkin book's authors** in ``references.bib`` are those on its cover (v2): 谢文睿, 秦州, 贾彬彬.
* **Only notes that exist are cited**: the pumpkin book's Chapter 2 notes cover (2.20), (2.21), (2.27) (with an
  appendix) and (2.41); a page or translation that points to its notes on another formula fails.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from pathlib import Path

import nbformat
import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = sorted((ROOT / "locale" / "zh_CN").rglob("*.po")) + [ROOT / "melearn" / "locale" / "zh_CN" / "melearn.po"]
TERMS = tomllib.loads((ROOT / "locale" / "zh_CN" / "terms.toml").read_text(encoding="utf-8"))["term"]
PUMPKIN_NOTES = {"2.20", "2.21", "2.27", "2.41"}  # the formulas the pumpkin book's Chapter 2 notes explain

_CJK = "\u3400-\u9fff\uff00-\uffef\u3000-\u303f"
_QUOTED = re.compile(r"“[^”]*”|「[^」]*」|（原文：[^）]*）|\"[^\"]*\"")
_FORMAL = re.compile(r"\$\$.*?\$\$|\$[^$]+\$|\{[a-z:]+\}`[^`]*`|``.+?``|`[^`]+`", re.S)


def _messages(path: Path):
    with path.open("rb") as handle:
        catalogue = read_po(handle)
    for message in catalogue:
        if message.id and isinstance(message.id, str) and isinstance(message.string, str) and message.string:
            yield message.id, message.string


def _all_translations():
    return [(path, msgid, msgstr) for path in CATALOGUES for msgid, msgstr in _messages(path)]


def plain(text: str) -> str:
    """``text`` without quotations, code and formulas, with no space between CJK and Latin characters."""
    text = re.sub(r"\$([A-Za-z])\$", r"\1", text)  # 交叉验证 $t$ 检验 -> 交叉验证t检验
    text = _QUOTED.sub(" ", text)
    text = _FORMAL.sub(" ", text)
    text = re.sub(rf"(?<=[{_CJK}])\s+(?=[A-Za-z0-9])|(?<=[A-Za-z0-9])\s+(?=[{_CJK}])", "", text)
    return text


def term_problems(translations) -> list[str]:
    """Every use of an avoided word, and every chosen word that no translation uses."""
    found = []
    texts = [(path, plain(msgstr)) for path, _, msgstr in translations]
    for term in TERMS:
        chosen = plain(term["zh"])
        if not any(chosen in text for _, text in texts):
            found.append(f"{term['en']}: {term['zh']} is never used")
        for avoided in term.get("avoid", []):
            for path, text in texts:
                for match in re.finditer(avoided, text):
                    if chosen in text[max(0, match.start() - 4) : match.end() + 4] and chosen not in avoided:
                        continue  # the avoided pattern is part of the chosen word here
                    found.append(f"{path.relative_to(ROOT)}: {match.group(0)!r} for {term['en']} (use {term['zh']})")
    return found


def test_one_term_one_word():
    problems = term_problems(_all_translations())
    assert not problems, "\n".join(problems)


def test_the_textbook_terms_are_listed():
    """Every term the textbook names (its words as the source notes quote them) is in the list."""
    textbook = {
        "查准率", "查全率", "平衡点", "真正例率", "假正例率", "代价敏感错误率", "代价曲线", "正例概率代价",
        "归一化代价", "期望总体代价", "下界", "留出法", "交叉验证法", "自助法", "包外估计", "比较检验", "假设检验",
        "二项检验", "交叉验证t检验", "McNemar检验", "Friedman检验", "Nemenyi后续检验", "临界值域", "平均序值",
        "偏差-方差分解",
    }  # fmt: skip
    listed = {term["zh"] for term in TERMS if term.get("textbook")}
    assert textbook <= listed, sorted(textbook - listed)


def test_term_check_fails_on_an_avoided_word():
    """The check can fail: 双侧 for two-tailed and 实际水平 for size are reported; 双边 and 实际显著度 are not."""
    bad = term_problems([(ROOT / "x.po", "two-tailed", "教材的检验是双侧的，其实际水平为 0.05。")])
    assert any("'双侧'" in problem for problem in bad) and any("'实际水平'" in problem for problem in bad)
    good = term_problems([(ROOT / "x.po", "two-tailed", "教材的检验是双边的，其实际显著度为 0.05。")])
    assert not [problem for problem in good if "never used" not in problem]
    assert any("双边 is never used" in problem for problem in term_problems([(ROOT / "x.po", "", "无")]))


# the glossary keeps each term's English name in its English column, beside the Chinese one
GLOSSARY = ROOT / "locale" / "zh_CN" / "LC_MESSAGES" / "chapters" / "glossary.po"


def label_problems(translations) -> list[str]:
    """Every translation of a message that names a term (one of its ``labels``) without the term's word."""
    found = []
    for term in TERMS:
        patterns = [re.compile(label) for label in term.get("labels", [])]
        chosen = plain(term["zh"])
        for path, msgid, msgstr in translations:
            if path == GLOSSARY:
                continue
            if any(pattern.search(line) for pattern in patterns for line in msgid.splitlines()):
                if chosen not in plain(msgstr):
                    name = path.relative_to(ROOT)
                    found.append(f"{name}: {term['en']} is {term['zh']}, not as in {msgstr.strip()[:50]!r}")
    return found


def test_a_message_that_names_a_term_is_translated_with_its_word():
    problems = label_problems(_all_translations())
    assert not problems, "\n".join(problems)


def test_label_check_fails_on_a_symbol_or_synonym():
    header = "    m eps0 alpha |     eps*    size |  eps_bar    size"
    assert label_problems([(ROOT / "x.po", header, "    m   ε0     α |       ε*      α' |        ε̄      α'")])
    assert label_problems([(ROOT / "x.po", "critical count", "临界个数")])
    assert not label_problems([(ROOT / "x.po", "critical count", "临界计数")])
    assert not label_problems([(ROOT / "x.po", "a sample of size 10", "大小为 10 的样本")])  # not the size of a test


# ---- no English in Chinese display formulas ----

_TEXT = re.compile(r"\\(?:text|textrm|mbox)\{([^{}]*)\}")
NOTATION = {"s.t.", "macro-", "micro-"}  # the textbook's own notation inside formulas


def is_display_formula(msgid: str) -> bool:
    """A message that is one display formula: LaTeX with no inline ``$``, role or sentence around it."""
    return "$" not in msgid and "`" not in msgid and bool(re.search(r"\\[A-Za-z]+|[_^]\{", msgid))


def english_in_formula(msgstr: str) -> list[str]:
    words = []
    for content in _TEXT.findall(msgstr):
        core = content.strip()
        if core in NOTATION or not re.search(r"[A-Za-z]{2,}", core):
            continue
        if re.fullmatch(r"[A-Z]{2,4}|[a-z]{1,3}|(?:var|cov|acc|bias|rank|cost|norm|train|test|Binomial)", core):
            continue  # an operator or a subscript name (TPR, var, rank), not a word of prose
        words.append(core)
    return words


_INLINE = re.compile(r"\$\$.*?\$\$|\$[^$]+\$|\{math\}`[^`]*`", re.S)
# the formulas of the API page come from the library's docstrings, which the pages do not edit
DOCSTRING_CATALOGUE = ROOT / "locale" / "zh_CN" / "LC_MESSAGES" / "chapters" / "api.po"


def prose_in_inline_formula(msgstr: str) -> list[str]:
    """The ``\\text{...}`` of the inline formulas of ``msgstr`` that hold a phrase (two words or more)."""
    found = []
    for formula in _INLINE.findall(msgstr):
        found += [t.strip() for t in _TEXT.findall(formula) if len(re.findall(r"[A-Za-z]{2,}", t)) >= 2]
    return found


def formula_problems(translations) -> list[str]:
    found = []
    for path, msgid, msgstr in translations:
        words = english_in_formula(msgstr) if is_display_formula(msgid) else []
        if path != DOCSTRING_CATALOGUE:
            words += prose_in_inline_formula(msgstr)
        found += [f"{path.relative_to(ROOT)}: \\text{{{word}}} in {msgstr.strip()[:60]!r}" for word in words]
    return found


def test_no_english_in_chinese_display_formulas():
    problems = formula_problems(_all_translations())
    assert not problems, "\n".join(problems)


def test_formula_check_fails_on_english_text():
    fake = [(ROOT / "x.po", r"\sum_{\text{positives}} i", r"\sum_{\text{positives}} i")]
    assert formula_problems(fake)
    assert not formula_problems([(ROOT / "x.po", r"\sum_{\text{positives}} i", r"\sum_{\text{正例}} i")])
    inline = r"排在 $i - (\text{positives before it})$ 个反例之上"
    assert formula_problems([(ROOT / "x.po", inline, inline)])


# ---- numbers and formula numbers unchanged ----

_NUMBERED = re.compile(r"\((2\.\d{1,2})\)|eq-2-(\d{1,2})\b")


def numbers(text: str) -> Counter:
    """The formula numbers of ``text``: (2.27) and {eq}`eq-2-27` alike."""
    text = re.sub(r"\d+(?:\.\d+)? ?(?:million|billion|万|亿)", " ", text)  # 1.7 million is 170 万
    text = re.sub(r"\d+\.\d+\.\d+", " ", text)  # section numbers (2.4.1) may be written 2.4.1 节
    text = re.sub(rf"(?<=[{_CJK}])\d+\.\d+", " ", text)  # a Chinese name in an English message (数据集3.0)
    return Counter(a or f"2.{b}" for a, b in _NUMBERED.findall(text))


def number_problems(translations) -> list[str]:
    found = []
    for path, msgid, msgstr in translations:
        if numbers(msgid) != numbers(msgstr):
            lost, added = numbers(msgid) - numbers(msgstr), numbers(msgstr) - numbers(msgid)
            found.append(f"{path.relative_to(ROOT)}: {dict(lost)} lost, {dict(added)} added: {msgid[:60]!r}")
    return found


def test_numbers_and_formula_numbers_kept():
    problems = number_problems(_all_translations())
    assert not problems, "\n".join(problems)


def test_number_check_fails_on_a_changed_number():
    assert number_problems([(ROOT / "x.po", "formula (2.27) at 0.05", "式 (2.26)，0.05")])
    assert number_problems([(ROOT / "x.po", "{eq}`eq-2-27`", "式 (2.26)")])
    assert not number_problems([(ROOT / "x.po", "formula (2.27) at 0.05", "在 0.05 下的式 (2.27)")])


# ---- the bibliography ----


def bib_entry(key: str) -> str:
    text = (ROOT / "references.bib").read_text(encoding="utf-8")
    match = re.search(r"@\w+\{" + re.escape(key) + r",(.*?)\n\}", text, re.S)
    assert match, key
    return match.group(1)


def test_pumpkin_book_authors_as_on_its_cover():
    entry = bib_entry("xie2023pumpkin")
    authors = re.search(r"author\s*=\s*\{(.*)\},", entry).group(1)
    assert [name.strip() for name in authors.split(" and ")] == ["Xie, Wenrui", "Qin, Zhou", "Jia, Binbin"]
    assert "机器学习公式详解" in entry


# ---- citations of the pumpkin book's notes ----

_FORMULA = r"(?:\((2\.\d+)\)|\{eq\}`eq-2-(\d+)`)"
_NOTES_EN = re.compile(r"notes (?:on|to) ((?:" + _FORMULA + r"(?:,? and |, | or |-)?)+|these formulas|them)")
_NOTES_ZH = re.compile(r"对 ?((?:" + _FORMULA + r"[、和与及 ]*)+|这些公式)\s*的(?:注解|解释)")


def cited_notes(text: str) -> list[str]:
    """The formulas whose pumpkin-book notes ``text`` cites ('?' for notes it does not name)."""
    if "xie2023pumpkin" not in text and "pumpkin book" not in text and "南瓜书" not in text:
        return []
    cited = []
    for match in [*_NOTES_EN.finditer(text), *_NOTES_ZH.finditer(text)]:
        span = match.group(1)
        formulas = [a or f"2.{b}" for a, b in re.findall(_FORMULA, span)]
        cited.extend(formulas or ["?"])
    return cited


def page_paragraphs():
    for path in sorted((ROOT / "chapters").rglob("*.ipynb")):
        notebook = nbformat.read(path, as_version=4)
        for cell in notebook.cells:
            if cell.cell_type == "markdown":
                for paragraph in re.split(r"\n\s*\n", cell.source):
                    yield path, " ".join(paragraph.split())
    for path in sorted((ROOT / "chapters").rglob("*.md")):
        for paragraph in re.split(r"\n\s*\n", path.read_text(encoding="utf-8")):
            yield path, " ".join(paragraph.split())
    for path, _, msgstr in _all_translations():
        yield path, msgstr


def citation_problems(paragraphs) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}: the pumpkin book's notes on ({formula}) do not exist: {text[:80]!r}"
        for path, text in paragraphs
        for formula in cited_notes(text)
        if formula not in PUMPKIN_NOTES
    ]


def test_only_pumpkin_book_notes_that_exist_are_cited():
    problems = citation_problems(page_paragraphs())
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("the pumpkin book's notes on (2.1) {cite}`xie2023pumpkin`", True),
        ("the pumpkin book's notes on these formulas {cite}`xie2023pumpkin`", True),
        ("南瓜书对 (2.1) 的注解 {cite}`xie2023pumpkin`", True),
        ("the pumpkin book {cite}`xie2023pumpkin`, in its notes on (2.27)", False),
        ("from its notes on {eq}`eq-2-20`, the pumpkin book {cite}`xie2023pumpkin`", False),
    ],
)
def test_citation_check_can_fail(text, bad):
    assert bool(citation_problems([(ROOT / "x.md", text)])) is bad
