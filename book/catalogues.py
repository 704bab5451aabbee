"""The Chinese edition's message catalogues (``locale/zh_CN/LC_MESSAGES/**/*.po``): update them and check them.

    python -m book.catalogues update     # extract the messages of the English pages, merge them into the catalogues
    python -m book.catalogues check      # fail on a missing, fuzzy or inconsistent translation
    python -m book.catalogues check chapters/auc outputs/auc   # the same, for some catalogues only

``update`` runs Sphinx's gettext builder on the pages (stored outputs, no execution; outputs are not messages,
see ``book/ext/editions.py``) and ``sphinx-intl update``: a new message gets an empty translation, a changed one is
marked fuzzy with its old translation kept as a hint, a removed one becomes obsolete. A message with nothing to
translate (only formulas, numbers, Chinese or punctuation) is translated as itself.

``check`` reads the catalogues of the pages' prose (``locale/zh_CN/LC_MESSAGES``) and of the text their code
generates (``locale/zh_CN/outputs`` and ``melearn/locale/zh_CN``, see ``book/output_catalogues.py``). It counts,
per catalogue, the messages that are untranslated or fuzzy, and the translations whose markup differs from the
message's: the same ``{0}`` placeholders (the numbers of a generated text), formulas (``$...$``), inline code,
roles (``{eq}``, ``{cite}``, ...) and link targets must appear in both, or the translated page would lose a
number, a formula or a link. The translations of generated text are read as an editor would, too: Chinese takes
full-width punctuation (a ``:``, ``;`` or ``,`` right after a Chinese character, or half-width parentheses around
Chinese words, are reported), and an English word left in a Chinese translation is reported unless it is one of
the words kept in English (``kept`` in ``locale/zh_CN/terms.toml``: names, units, code).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tomllib
from collections import Counter
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
LANGUAGE = "zh_CN"
CATALOGUES = LOCALE / LANGUAGE / "LC_MESSAGES"
# what the code of the pages and of melearn generates (translated by melearn.i18n when a page is executed)
OUTPUT_CATALOGUES = [LOCALE / LANGUAGE / "outputs", ROOT / "melearn" / "locale" / LANGUAGE]
POT_DIR = ROOT / "_build" / "gettext"
# Sphinx's gettext builder also writes sphinx.pot: the labels of the book's own templates (book/templates/). Their
# catalogue, sphinx.po, also translates labels of Sphinx and the theme that no page extracts, so it is kept by hand
# (merged with sphinx.pot, those would become obsolete); it must hold every label of sphinx.pot.
KEPT_BY_HAND = ("sphinx.pot",)


def page_templates(out: Path) -> list[Path]:
    """The message templates (``.pot``) of the pages under ``out``: all but those whose catalogue is kept by hand."""
    return sorted(pot for pot in out.rglob("*.pot") if pot.relative_to(out).as_posix() not in KEPT_BY_HAND)


_MATH = re.compile(r"\$\$.*?\$\$|\$[^$]+\$", re.S)
_CODE = re.compile(r"``.+?``|`[^`]+`")
_DOUBLE_CODE = re.compile(r"``.+?``")
_ROLE = re.compile(r"\{([a-z:]+)\}`([^`]*)`")
_LINK_TARGET = re.compile(r"\]\(([^)\s]+)\)")
_RST_ROLE = re.compile(r"(?<![\w}]):([a-z]+(?::[a-z]+)?):`([^`]+)`")
_FIELD = re.compile(r"\{\w*(?:![rs])?\}")  # a {0} or {name} of a generated text
_LATIN = re.compile(r"[A-Za-z]{2,}")


_HAN = "\u3400-\u9fff"
_HALF_AFTER_HAN = re.compile(rf"[{_HAN}][,:;!?]")
_PARENTHESES = re.compile(r"\(([^()]*)\)")
_FORMAL = re.compile(r"\$\$.*?\$\$|\$[^$]+\$|\{[a-z:]+\}`[^`]*`|``.+?``|`[^`]+`", re.S)
# a lower-case English word: not part of an identifier, a path, a call or a keyword argument
_ENGLISH_WORD = re.compile(r"(?<![\w./\\'-])([a-z]{2,})(?![\w(=./'-])")


def half_width_punctuation(text: str) -> list[str]:
    """The half-width punctuation of Chinese ``text``: ``,:;!?`` right after a Chinese character, and parentheses
    around Chinese words (an argument, as in ``P(拒绝)``, is not a parenthesis of the sentence)."""
    text = _FORMAL.sub(" ", text)
    found = [match.group(0) for match in _HALF_AFTER_HAN.finditer(text)]
    for match in _PARENTHESES.finditer(text):
        argument = match.start() > 0 and re.match(r"[A-Za-z0-9_)\]]", text[match.start() - 1])
        if re.search(f"[{_HAN}]", match.group(1)) and not argument:
            found.append(match.group(0))
    return found


@cache
def kept_words() -> frozenset[str]:
    """The English words a Chinese translation of generated text may keep (``kept`` in the terms file)."""
    terms = tomllib.loads((LOCALE / LANGUAGE / "terms.toml").read_text(encoding="utf-8"))
    return frozenset(terms.get("kept", []))


def english_left(translation: str) -> list[str]:
    """The English words of a Chinese translation that are neither kept words nor code (placeholders, formulas)."""
    if not re.search(f"[{_HAN}]", translation):
        return []  # a line translated as itself (a table of code or numbers) is not a Chinese sentence
    text = _FORMAL.sub(" ", re.sub(r"\{\w*(?:![rs])?(?::[^{}]*)?\}", "0", translation))
    return [word for word in _ENGLISH_WORD.findall(text) if word not in kept_words()]


def catalogue_files(pages: list[str] | None = None) -> list[Path]:
    """The catalogues, sorted; only those of ``pages`` (docnames such as ``chapters/auc``) if given."""
    files = sorted(CATALOGUES.rglob("*.po")) + [f for d in OUTPUT_CATALOGUES for f in sorted(d.rglob("*.po"))]
    if pages:
        wanted = {str(Path(page).with_suffix("")) for page in pages}
        files = [f for f in files if str(_name(f)) in wanted]
    return files


def _name(path: Path) -> Path:
    """A catalogue's name in reports: ``chapters/auc`` (prose), ``outputs/auc`` (a page's output), ``melearn``."""
    for base, prefix in ((CATALOGUES, ""), (LOCALE / LANGUAGE, ""), (ROOT / "melearn" / "locale" / LANGUAGE, "")):
        if path.is_relative_to(base):
            return Path(prefix) / path.relative_to(base).with_suffix("")
    return path.with_suffix("")


def needs_translation(message: str) -> bool:
    """Whether ``message`` has words to translate: Latin words outside formulas, code and role targets."""
    text = _MATH.sub("", message)
    text = _ROLE.sub("", text)
    text = _CODE.sub("", text)
    text = _LINK_TARGET.sub("", text)
    text = re.sub(r"\\[A-Za-z]+", "", text)  # LaTeX commands of a display formula
    return bool(_LATIN.search(text))


def markup(text: str) -> Counter:
    """The markup of ``text`` that its translation must keep: roles, code, formulas, link targets.

    Roles come first (a role's target may hold a formula or braces), then inline code (which may hold ``$``),
    then formulas. An rST role of an autodoc docstring (``:func:`x```) counts as its MyST form (``{func}`x```),
    which is what its translation must use: Sphinx parses a translated message with its page's parser (MyST).
    """
    found: Counter = Counter()
    found.update("code:" + m for m in _DOUBLE_CODE.findall(text))  # ``code`` first: it may hold braces and roles
    text = _DOUBLE_CODE.sub("", text)
    text = _RST_ROLE.sub(lambda m: f"{{{m.group(1)}}}`{m.group(2)}`", text)
    for role, target in _ROLE.findall(text):
        # a role's target must survive; its shown text may be translated as `text <target>`
        inner = re.search(r"<([^>]+)>$", target)
        found["role:" + role + ":" + (inner.group(1) if inner else target)] += 1
    rest = _ROLE.sub("", text)
    found.update("code:" + m for m in _CODE.findall(rest))
    rest = _CODE.sub("", rest)
    found.update("math:" + m for m in _MATH.findall(rest))
    rest = _MATH.sub("", rest)
    found.update("link:" + m for m in _LINK_TARGET.findall(rest))
    return found


def problems(path: Path, generated: bool | None = None) -> list[str]:
    """What is wrong with one catalogue: untranslated, fuzzy and inconsistent entries, one line each.

    ``generated``: whether the catalogue holds text the code generates (its ``{0}`` fields are placeholders);
    by default, whether it lies outside the catalogues of the pages' prose.
    """
    from babel.messages.pofile import read_po

    with path.open("rb") as handle:
        catalogue = read_po(handle)
    found = []
    name = _name(path)
    if generated is None:
        generated = not path.is_relative_to(CATALOGUES)
    for message in catalogue:
        if not message.id:
            continue
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        msgstr = message.string if isinstance(message.string, str) else message.string[0]
        first_line = msgid.strip().splitlines()[0][:70] if msgid.strip() else repr(msgid)
        if message.fuzzy:
            found.append(f"{name}: fuzzy: {first_line}")
        elif not msgstr:
            found.append(f"{name}: untranslated: {first_line}")
        elif generated and sorted(_FIELD.findall(msgid)) != sorted(_FIELD.findall(msgstr)):
            fields = f"{_FIELD.findall(msgstr)} for {_FIELD.findall(msgid)}"
            found.append(f"{name}: placeholders differ ({fields}): {first_line}")
        elif markup(msgid) != markup(msgstr):
            lost = markup(msgid) - markup(msgstr)
            added = markup(msgstr) - markup(msgid)
            found.append(f"{name}: markup differs ({dict(lost)} lost, {dict(added)} added): {first_line}")
        elif generated and (marks := half_width_punctuation(msgstr)):
            found.append(f"{name}: half-width punctuation in Chinese ({', '.join(marks)}): {first_line}")
        elif generated and (words := english_left(msgstr)):
            found.append(f"{name}: English left in the translation ({', '.join(words)}): {first_line}")
    return found


def fill_identity(path: Path) -> int:
    """Translate as itself every untranslated message with nothing to translate; return how many."""
    from babel.messages.pofile import read_po, write_po

    with path.open("rb") as handle:
        catalogue = read_po(handle)
    filled = 0
    for message in catalogue:
        if message.id and not message.string and not message.fuzzy and isinstance(message.id, str):
            if not needs_translation(message.id):
                message.string = message.id
                filled += 1
    if filled:
        with path.open("wb") as handle:
            write_po(handle, catalogue, width=76, omit_header=False)
    return filled


def update() -> int:
    """Extract the messages and merge them into the catalogues."""
    build = [sys.executable, "-m", "book.build_edition", "en", "--builder", "gettext"]
    subprocess.run([*build, "--out", str(POT_DIR)], check=True, cwd=ROOT)
    for name in KEPT_BY_HAND:
        (POT_DIR / name).unlink(missing_ok=True)
    subprocess.run(
        [
            str(Path(sys.executable).parent / "sphinx-intl"),
            "update",
            "-p",
            str(POT_DIR),
            "-l",
            LANGUAGE,
            "-d",
            str(LOCALE),
            "-w",
            "76",
        ],
        check=True,
    )
    filled = sum(fill_identity(path) for path in catalogue_files())
    print(f"{filled} messages with nothing to translate filled with themselves")
    return 0


def check(pages: list[str] | None = None) -> int:
    """Print every problem; return 1 if there is one."""
    files = catalogue_files(pages)
    if not files:
        print("no catalogue found", file=sys.stderr)
        return 1
    found = [problem for path in files for problem in problems(path)]
    for problem in found:
        print(problem)
    print(f"{len(files)} catalogues, {len(found)} problems")
    return 1 if found else 0


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=("update", "check"))
    parser.add_argument("pages", nargs="*", help="docnames, e.g. chapters/auc (check only)")
    args = parser.parse_args(argv)
    return update() if args.command == "update" else check(args.pages)


if __name__ == "__main__":
    sys.exit(main())
