r"""The language of the text melearn generates: derivation reasons, rule names, printed lines, figure labels.

One setting chooses it, explicitly: a call to :func:`set_language`, or else the environment variable
``MELEARN_LANGUAGE`` (``en``, the default, or ``zh_CN``), read at the first look-up. The book's Chinese edition
executes its pages with ``MELEARN_LANGUAGE=zh_CN``; the notebooks' stored outputs, which nbval compares, are the
English ones.

In English nothing is looked up: :func:`translate` returns its argument, so the English outputs do not depend
on this module. In another language a text is looked up in the message catalogues (gettext ``.po`` files):

* ``melearn/locale/<language>/melearn.po``: the text of the library itself (rule names, ledger headings,
  figure labels drawn by ``melearn.plotting``);
* every ``.po`` file under the directories listed in ``MELEARN_CATALOGUES`` (separated by ``os.pathsep``): the
  text of the book's pages (their ``say`` lines, step reasons, figure labels).

A text is found either as it is, or by its **number skeleton**: every number in it replaced by a numbered
placeholder, so that one entry serves every run of a line that prints numbers::

    msgid "AUC = {0} from {1} pairs"
    msgstr "AUC = {0}，共 {1} 对"

A text with no word in it (only numbers, formulas, symbols) needs no translation and is returned as it is. A text
with words but no translation is returned in English and, if ``MELEARN_MISSING_TEXT`` names a file, appended to
it: the Chinese build fails when that file is not empty (``book/build_edition.py``).

Nothing is translated behind the code's back: the text reaches this module only through explicit calls. Pages
print generated lines with :func:`say` and wrap the text of their figures in :func:`tr`; ``melearn.plotting``
translates its own titles, labels and legends with :func:`tr` and sets the CJK font of its figures itself. This
module changes no other module (neither ``print`` nor matplotlib) and imports neither matplotlib nor sympy.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

__all__ = ["joined", "labelled", "language", "parenthesised", "say", "set_language", "template", "tr", "translate"]

LANGUAGE_ENV = "MELEARN_LANGUAGE"
CATALOGUES_ENV = "MELEARN_CATALOGUES"
MISSING_ENV = "MELEARN_MISSING_TEXT"
LANGUAGES = ("en", "zh_CN")
#: the CJK font figures use in Chinese (Debian: fonts-wqy-microhei); the next ones are used if it is missing
CJK_FONTS = ("WenQuanYi Micro Hei", "Noto Sans CJK SC", "Source Han Sans SC")
PACKAGE_LOCALE = Path(__file__).resolve().parent / "locale"

_NUMBER = re.compile(r"\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
_PLACEHOLDER = re.compile(r"\{(\d+)\}")
# words outside formulas: two Latin letters in a row, not part of a LaTeX command
_MATH = re.compile(r"\$[^$]*\$")
_WORD = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{2,}")
_CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")

_state: dict = {"language": None, "catalogue": None}


def language() -> str:
    """The current language of generated text: set by :func:`set_language`, else ``MELEARN_LANGUAGE``, else ``en``.

    The environment variable is read at the first call (not when ``melearn`` is imported), and only then.
    """
    if _state["language"] is None:
        _state["language"] = _checked(os.environ.get(LANGUAGE_ENV) or "en")
    return _state["language"]


def _checked(value: str) -> str:
    if value not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, got {value!r}")
    return value


def set_language(value: str) -> None:
    """Generate text in ``value`` (``"en"`` or ``"zh_CN"``) from now on.

    Parameters
    ----------
    value : str
        The language. The catalogues are (re)loaded at the next look-up. Figures drawn by ``melearn.plotting``
        (and on :func:`melearn.plotting.subplots`) after the call use its font.

    Raises
    ------
    ValueError
        If ``value`` is not one of ``LANGUAGES`` (``"en"``, ``"zh_CN"``).
    """
    _state["language"] = _checked(value)
    _state["catalogue"] = None


def needs_translation(text: str) -> bool:
    """Whether ``text`` has words in it (Latin letters outside ``$...$`` formulas and LaTeX commands).

    >>> needs_translation("AUC = 0.875"), needs_translation("$x_1 + y$"), needs_translation("0.5")
    (True, False, False)
    """
    return bool(_WORD.search(_MATH.sub("", text)))


def skeleton(text: str) -> tuple[str, list[str]]:
    """``text`` with its numbers replaced by ``{0}``, ``{1}``, ..., and the numbers.

    >>> skeleton("AUC = 0.875 from 16 pairs")
    ('AUC = {0} from {1} pairs', ['0.875', '16'])
    """
    numbers: list[str] = []

    def placeholder(match: re.Match) -> str:
        numbers.append(match.group(0))
        return "{" + str(len(numbers) - 1) + "}"

    return _NUMBER.sub(placeholder, text), numbers


def translate(text: str) -> str:
    """``text`` in the current language: itself in English, else its catalogue translation.

    Parameters
    ----------
    text : str
        One line or label as melearn or a page generates it in English.

    Returns
    -------
    str
        The translation; ``text`` itself in English, when it has no words, or when no translation is known
        (then it is recorded, see the module's description).
    """
    if language() == "en" or not isinstance(text, str) or not text.strip():
        return text
    catalogue = _catalogue()
    if text in catalogue:
        return catalogue[text]
    if "\n" in text:
        return "\n".join(translate(line) for line in text.split("\n"))
    if not needs_translation(text):
        return text
    shape, numbers = skeleton(text)
    if numbers and shape in catalogue:
        return _PLACEHOLDER.sub(lambda m: numbers[int(m.group(1))], catalogue[shape])
    if not _CJK.search(text):  # a text with Chinese in it and no entry is a translation already
        _record_missing(text, shape)
    return text


def tr(text: str) -> str:
    """The words of a figure (a title, an axis label, a legend entry) in the current language.

    The one call through which figure text is translated, by the pages (``ax.set_title(tr("..."))``) and by the
    modules of ``melearn.plotting``: :func:`translate` under a name short enough for a plotting call.

    Parameters
    ----------
    text : str
        The text as the figure shows it in English.

    Returns
    -------
    str
        Its translation (``text`` itself in English).

    >>> tr("false positive rate (FPR)")
    'false positive rate (FPR)'
    """
    return translate(text)


def say(*lines) -> None:
    """Print lines in the current language, in one write (a kernel never splits a cell's output differently).

    >>> say("AUC = 0.875", "done")
    AUC = 0.875
    done
    """
    import sys

    sys.stdout.write("\n".join(translate(str(line)) for line in lines) + "\n")


def _record_missing(text: str, shape: str) -> None:
    target = os.environ.get(MISSING_ENV)
    if target:
        import json

        with open(target, "a", encoding="utf-8") as handle:
            handle.write(json.dumps({"text": text, "skeleton": shape}, ensure_ascii=False) + "\n")


def _catalogue() -> dict[str, str]:
    if _state["catalogue"] is None:
        _state["catalogue"] = load_catalogues(language())
    return _state["catalogue"]


def catalogue_paths(value: str) -> list[Path]:
    """The ``.po`` files that translate into ``value``: the package's, then the book's (``MELEARN_CATALOGUES``)."""
    paths = sorted((PACKAGE_LOCALE / value).glob("*.po"))
    for directory in filter(None, os.environ.get(CATALOGUES_ENV, "").split(os.pathsep)):
        paths.extend(sorted(Path(directory).rglob("*.po")))
    return paths


def load_catalogues(value: str) -> dict[str, str]:
    """Every translated, non-fuzzy message of the catalogues of ``value``, as ``{msgid: msgstr}``."""
    messages: dict[str, str] = {}
    for path in catalogue_paths(value):
        messages.update(read_po(path))
    return messages


def read_po(path: Path | str) -> dict[str, str]:
    """The translated, non-fuzzy entries of one gettext ``.po`` file (no plural forms, no contexts).

    A small reader, so that the library needs no gettext tooling: entries are separated by blank lines, a
    ``#,`` comment carries the flags, and ``msgid``/``msgstr`` strings continue on lines that start with ``"``.
    """
    entries: dict[str, str] = {}
    text = Path(path).read_text(encoding="utf-8")
    for block in re.split(r"\n\s*\n", text):
        flags: set[str] = set()
        fields: dict[str, list[str]] = {}
        current = None
        for line in block.splitlines():
            line = line.strip()
            if line.startswith("#,"):
                flags.update(flag.strip() for flag in line[2:].split(","))
            elif line.startswith("#") or not line:
                continue
            elif line.startswith(("msgid ", "msgstr ")):
                current, _, rest = line.partition(" ")
                fields[current] = [ast.literal_eval(rest)]
            elif line.startswith('"') and current is not None:
                fields[current].append(ast.literal_eval(line))
        msgid = "".join(fields.get("msgid", []))
        msgstr = "".join(fields.get("msgstr", []))
        if msgid and msgstr and "fuzzy" not in flags:
            entries[msgid] = msgstr
    return entries


def template(message: str) -> str:
    """The translation of a message with ``{name}`` fields, before they are filled (``str.format`` after).

    >>> template("step {k} changes nothing").format(k=3)
    'step 3 changes nothing'
    """
    if language() == "en":
        return message
    catalogue = _catalogue()
    if message in catalogue:
        return catalogue[message]
    _record_missing(message, message)
    return message


# -- punctuation: Chinese text takes full-width marks (（…）, ：, ；, 、); the catalogue of melearn says which
def parenthesised(text: str) -> str:
    """``text`` in the parentheses of the current language: ``(text)``, in Chinese ``（text）``.

    >>> parenthesised("definition; (2.37)")
    '(definition; (2.37))'
    """
    return template("({text})").format(text=text)


def labelled(label: str, text: str) -> str:
    """``label: text`` with the colon of the current language (in Chinese ``label：text``).

    >>> labelled("scope", "every m <= 7")
    'scope: every m <= 7'
    """
    return template("{label}: {text}").format(label=label, text=text)


def joined(items, separator: str = ", ") -> str:
    """``items`` joined by ``separator`` (``", "`` or ``"; "``) as the current language writes it (、 and ；).

    >>> joined(["integer", "positive"]), joined(["a", "b"], "; ")
    ('integer, positive', 'a; b')
    """
    return translate(separator).join(items)


_TEXT_COMMAND = re.compile(r"\\text\{([^{}]*)\}")


def translate_latex_text(latex: str) -> str:
    r"""``latex`` with the words of each ``\text{...}`` translated (their surrounding spaces kept).

    >>> translate_latex_text(r"a + b \text{ for constants } a, b")
    'a + b \\text{ for constants } a, b'
    """
    if language() == "en":
        return latex

    def inner(match: re.Match) -> str:
        words = match.group(1)
        core = words.strip()
        if not core:
            return match.group(0)
        start = words[: len(words) - len(words.lstrip())]
        end = words[len(words.rstrip()) :]
        return "\\text{" + start + translate(core) + end + "}"

    return _TEXT_COMMAND.sub(inner, latex)
