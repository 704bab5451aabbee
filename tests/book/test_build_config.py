"""The build and test configuration keeps its promises.

- ``book/ext/build_settings.py``: repository buttons only for a well-formed configured address; the execution mode
  override that ``make test`` uses.
- one version (``melearn.__version__``, read by ``pyproject.toml``), and dependency groups that name exactly what
  ``requirements/top-level.txt`` lists, all of it pinned in ``requirements/lock.txt``.
- a full ``pytest`` run (``make test``) collects every page, so a notebook that nbval silently stopped collecting
  cannot pass unnoticed.
"""

from __future__ import annotations

import importlib.util
import json
import re
import tomllib
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from sphinx.errors import ConfigError

import melearn
from book import step_times

from .extensions import load_extension

REPO = Path(__file__).resolve().parents[2]


def _load(name: str, path: Path):
    """The module at ``path`` (the root ``conftest.py``), loaded as ``name``."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build_settings = load_extension("build_settings")


def _config(**theme):
    return SimpleNamespace(html_theme_options=theme, nb_execution_mode="force")


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirement_name(line: str) -> str:
    return _canonical(re.split(r"[<>=!~\[; ]", line.strip(), maxsplit=1)[0])


# --- repository buttons -------------------------------------------------------------------------------------


def test_default_config_names_no_repository():
    config = yaml.safe_load((REPO / "_config.yml").read_text(encoding="utf-8"))
    assert config["repository"]["url"] == ""
    assert not config["html"]["use_repository_button"] and not config["html"]["use_issues_button"]
    assert not any(config["launch_buttons"].get(key) for key in ("binderhub_url", "colab_url", "jupyterhub_url"))
    assert "build_settings" in config["sphinx"]["local_extensions"]


def test_every_style_and_script_of_the_book_is_on_every_page():
    """The book's styles and script live in ``book/static`` (not ``_static``): ``_config.yml`` lists each one."""
    config = yaml.safe_load((REPO / "_config.yml").read_text(encoding="utf-8"))["sphinx"]["config"]
    [static] = [REPO / path for path in config["html_static_path"]]
    assert static == REPO / "book" / "static" and not (REPO / "_static").exists()
    for kind, listed in (("css", config["html_css_files"]), ("js", config["html_js_files"])):
        found = sorted(path.relative_to(static).as_posix() for path in static.rglob(f"*.{kind}"))
        assert found and sorted(listed) == found, kind


def test_no_address_turns_every_button_off(monkeypatch):
    monkeypatch.delenv(build_settings.REPOSITORY_ENV, raising=False)
    monkeypatch.delenv(build_settings.EXECUTION_ENV, raising=False)
    config = _config(
        repository_url="https://github.com/someone/else",
        use_repository_button=True,
        launch_buttons={"binderhub_url": "https://mybinder.org", "notebook_interface": "classic"},
    )
    build_settings._apply(None, config)
    options = config.html_theme_options
    assert options["repository_url"] == ""
    assert not options["use_repository_button"] and not options["use_issues_button"]
    assert not options["use_edit_page_button"]
    assert options["launch_buttons"]["binderhub_url"] == "" and options["launch_buttons"]["colab_url"] == ""
    assert options["launch_buttons"]["notebook_interface"] == "classic"
    assert config.nb_execution_mode == "force"


def test_a_github_address_turns_the_buttons_on(monkeypatch):
    monkeypatch.setenv(build_settings.REPOSITORY_ENV, "https://github.com/owner/book/")
    config = _config(launch_buttons={"notebook_interface": "classic", "binderhub_url": ""})
    build_settings._apply(None, config)
    options = config.html_theme_options
    assert options["repository_url"] == "https://github.com/owner/book"
    assert options["use_repository_button"] and options["use_issues_button"]
    assert options["launch_buttons"] == {
        "notebook_interface": "classic",
        "binderhub_url": "https://mybinder.org",
        "colab_url": "https://colab.research.google.com",
    }


def test_a_gitlab_address_gets_no_colab_button():
    options = build_settings.repository_options("https://gitlab.com/owner/book")
    assert options["launch_buttons"] == {"binderhub_url": "https://mybinder.org"}


@pytest.mark.parametrize(
    "url",
    [
        "github.com/owner/book",
        "https://github.com/owner",
        "http://github.com/a/b",
        "https://example.org/a/b",
        "https://github.com/a/b/tree/main",
        "TODO",
    ],
)
def test_a_malformed_address_fails_the_build(url):
    with pytest.raises(ConfigError, match="MELEARN_REPOSITORY_URL"):
        build_settings.repository_options(url)


def test_execution_mode_override():
    assert build_settings.execution_mode(None, "force") == "force"
    assert build_settings.execution_mode("", "force") == "force"
    assert build_settings.execution_mode(" off ", "force") == "off"
    with pytest.raises(ConfigError, match="MELEARN_BOOK_EXECUTION"):
        build_settings.execution_mode("no", "force")


# --- the commands ---------------------------------------------------------------------------------------------


def _make_recipe(target: str) -> str:
    text = (REPO / "Makefile").read_text(encoding="utf-8")
    match = re.search(rf"^{target}:.*\n((?:\t.*\n|#.*\n)*)", text, flags=re.MULTILINE)
    assert match, f"no target {target} in the Makefile"
    return match.group(1)


def _make_variable(name: str) -> str:
    match = re.search(rf"^{name} := (.*)$", (REPO / "Makefile").read_text(encoding="utf-8"), flags=re.MULTILINE)
    assert match, f"no variable {name} in the Makefile"
    return match.group(1)


def _make_prerequisites(target: str) -> list[str]:
    match = re.search(rf"^{target}:(.*)$", (REPO / "Makefile").read_text(encoding="utf-8"), flags=re.MULTILINE)
    assert match, f"no target {target} in the Makefile"
    return match.group(1).split()


def test_make_book_executes_and_make_test_builds_from_stored_outputs():
    assert "execute_notebooks: force" in (REPO / "_config.yml").read_text(encoding="utf-8")
    book, test = _make_recipe("book"), _make_recipe("test")
    assert "MELEARN_BOOK_EXECUTION" not in book
    # make test's steps after lint run side by side (make -j3 test-after-lint): the English site from the stored
    # outputs, the Chinese site and the PDFs, the tests that need no build; then the tests of the built book
    assert "-j3" in test and "test-after-lint" in test and "pytest" not in test
    assert "-m book.build_edition en --execution off" in _make_recipe("test-en-site")
    strict = (REPO / "book" / "build_edition.py").read_text(encoding="utf-8")
    assert "warningiserror=True" in strict and "keep_going=True" in strict and '"nitpicky": True' in strict


def test_make_test_runs_every_test_exactly_once():
    """Two pytest runs whose marker expressions are complements: each test runs in one of them, nbval once.

    The tests of the built book wait for both PDFs (and so for both sites); the others need no build.
    """
    # the library's tests on the other Python versions (another interpreter, not one of the two runs) go beside
    assert _make_prerequisites("test-after-lint") == ["test-built", "test-unbuilt", "test-versions"]
    assert _make_prerequisites("test-versions") == []
    assert "-m book.python_versions" in _make_recipe("test-versions") and "pytest" not in _make_recipe("test-versions")
    runs = {
        target: re.findall(r"pytest (.*)\)$", _make_recipe(target), flags=re.MULTILINE)
        for target in ("test-built", "test-unbuilt")
    }
    assert runs["test-built"] == ["-m built $(BUILT_TESTS) $(XDIST)"], runs
    assert runs["test-unbuilt"] == ['-m "not built" $(XDIST)'], runs
    # the built run collects the files the root conftest.py marks built, and no other
    built = _load("root_conftest", REPO / "conftest.py").BUILT_TESTS
    assert {path.rstrip("/") for path in built} == set(_make_variable("BUILT_TESTS").split())
    assert {"test-zh-pdf", "test-en-pdf"} <= set(_make_prerequisites("test-built"))
    assert _make_prerequisites("test-unbuilt") == []  # they wait for no build
    assert _make_prerequisites("test-zh-pdf") == ["test-zh-site"]
    # the English PDF waits for both sites, so that the two PDFs are printed side by side
    assert _make_prerequisites("test-en-pdf") == ["test-en-site", "test-zh-site"]


def test_every_test_that_reads_the_build_is_marked_built():
    """The root conftest.py marks ``built`` every test of the files that read ``_build``, and no other test.

    A test file that reads the built book (its HTML, its PDFs) must be one of ``BUILT_TESTS``; otherwise it would
    run beside the builds, on a book half built.
    """
    root_conftest = _load("root_conftest", REPO / "conftest.py")
    reads_the_build = re.compile(r'REPO / "_build"|html_dir\(|pdf_path\(')
    files = sorted(path.relative_to(REPO).as_posix() for path in (REPO / "tests").rglob("test_*.py"))
    this = Path(__file__).relative_to(REPO).as_posix()  # it names the patterns, and reads no build
    readers = [
        name for name in files if name != this and reads_the_build.search((REPO / name).read_text(encoding="utf-8"))
    ]
    assert "tests/book/test_editions.py" in readers and "tests/book/browser/test_pdf.py" in readers, readers
    unmarked = [name for name in readers if not name.startswith(root_conftest.BUILT_TESTS)]
    assert not unmarked, f"test files that read _build but are not marked built: {unmarked}"

    class Item:  # what the hook reads and writes of a collected test
        def __init__(self, nodeid: str):
            self.nodeid, self.markers = nodeid, []

        def add_marker(self, marker) -> None:
            self.markers.append(marker.name)

    items = [Item(f"{name}::test_something[param]") for name in files]
    root_conftest.pytest_collection_modifyitems(None, items)
    marked = {item.nodeid.partition("::")[0] for item in items if "built" in item.markers}
    assert marked == {name for name in files if name.startswith(root_conftest.BUILT_TESTS)}
    assert "tests/melearn/test_ranking.py" not in marked and "tests/book/browser/test_fit.py" in marked


def test_ci_runs_exactly_make_test():
    commands = [
        line.strip()
        for line in (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    assert commands[-1] == "make test"
    assert sum("make " in line for line in commands) == 1
    # the README's quick start: one command builds the book, one runs every test, and that one is CI's
    quick_start = (REPO / "README.md").read_text(encoding="utf-8").split("## Quick start", 1)[1].split("\n## ")[0]
    block = quick_start.split("```bash\n", 1)[1].split("```", 1)[0]
    assert [line.split("#")[0].strip() for line in block.splitlines()] == ["make book", commands[-1]]


def test_the_workflow_caches_what_the_build_keeps_under_the_inputs_it_depends_on():
    """The fork's CI keeps the Chinese execution and the PDFs (with what is kept beside them) where the build looks.

    Its cache key hashes every input of the execution (``book/build_edition.py``'s ``execution_inputs``), so a
    cache is restored only for the same inputs; a cached path the build no longer uses would silently cache
    nothing. (GitHub's globs are matched here with ``fnmatch``, whose ``*`` also crosses ``/``.)
    """
    import fnmatch
    import itertools

    from book.build_edition import ROOT, cache_dir, execution_inputs
    from book.build_pdf import VOLUMES, contents_path, fit_path, inputs_path, pdf_path

    workflow = yaml.safe_load((REPO / ".github" / "workflows" / "ci.yml").read_text(encoding="utf-8"))
    caches = [
        step["with"] for step in workflow["jobs"]["test"]["steps"] if step.get("uses", "").startswith("actions/cache@")
    ]
    (book,) = [cache for cache in caches if ".jupyter_cache" in cache["path"]]
    paths = book["path"].split()
    assert cache_dir("zh_CN").parent.relative_to(ROOT).as_posix() in paths
    for language, volume in itertools.product(("en", "zh_CN"), VOLUMES):
        target = pdf_path(language, volume)
        for kept_path in (target, contents_path(target), fit_path(target), inputs_path(target)):
            kept = kept_path.relative_to(ROOT).as_posix()
            assert any(fnmatch.fnmatch(kept, path) for path in paths), kept
    hashed = re.findall(r"'([^']+)'", re.search(r"hashFiles\(([^)]*)\)", book["key"]).group(1))
    inputs = [path.relative_to(ROOT).as_posix() for path in execution_inputs()]
    unhashed = [name for name in inputs if not any(fnmatch.fnmatch(name, pattern) for pattern in hashed)]
    assert not unhashed, f"inputs of the execution missing from the cache key: {unhashed[:5]}"
    assert book["restore-keys"].strip() == book["key"].rsplit("-${{", 1)[0] + "-"  # the same inputs only
    (pip,) = [cache for cache in caches if cache is not book]
    assert "requirements/lock.txt" in pip["key"]


def test_a_full_run_collects_every_page(request):
    """Under ``make test`` (pytest with no paths: the testpaths), every chapter notebook is collected by nbval."""
    if request.config.args_source != pytest.Config.ArgsSource.TESTPATHS:
        pytest.skip("not a full run: only `pytest` without paths collects every page")
    collected = {Path(str(item.path)).resolve() for item in request.session.items if item.path.suffix == ".ipynb"}
    pages = {p.resolve() for p in (REPO / "chapters").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts}
    assert pages, "no notebooks in chapters/"
    assert pages <= collected, f"pages nbval did not collect: {sorted(p.name for p in pages - collected)}"


# --- packaging ------------------------------------------------------------------------------------------------


def _pyproject() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def test_one_source_for_the_version():
    project = _pyproject()
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "melearn.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", melearn.__version__)


def _groups(project: dict) -> dict[str, set[str]]:
    groups = project["dependency-groups"]

    def names(group: str) -> set[str]:
        found = set()
        for entry in groups[group]:
            found |= names(entry["include-group"]) if isinstance(entry, dict) else {_requirement_name(entry)}
        return found

    return {group: names(group) for group in groups}


def _top_level() -> dict[str, str]:
    lines = (REPO / "requirements" / "top-level.txt").read_text(encoding="utf-8").splitlines()
    return {_requirement_name(line): line.strip() for line in lines if line.strip() and not line.startswith("#")}


def test_dependency_groups_match_the_top_level_requirements():
    project = _pyproject()
    declared = {_requirement_name(entry) for entry in project["project"]["dependencies"]}
    for entries in project["project"]["optional-dependencies"].values():  # the extras, but melearn's own
        declared |= {_requirement_name(entry) for entry in entries} - {"melearn"}
    for names in _groups(project).values():
        declared |= names
    top_level = set(_top_level())
    assert declared == top_level, (
        f"only in pyproject.toml: {sorted(declared - top_level)}; only in top-level.txt: {sorted(top_level - declared)}"
    )
    groups = _groups(project)
    assert groups["book"] <= groups["test"], "the tests build the book: the test group includes the book group"


def test_every_top_level_requirement_is_pinned_in_the_lock_file():
    lock = {}
    for line in (REPO / "requirements" / "lock.txt").read_text(encoding="utf-8").splitlines():
        if "==" in line and not line.startswith("#"):
            name, version = line.split("==", 1)
            lock[_canonical(name)] = version.strip()
    missing = sorted(set(_top_level()) - set(lock))
    assert not missing, f"top-level requirements without a pin in requirements/lock.txt: {missing}"
    for name, line in _top_level().items():
        if "==" in line:
            assert line.split("==", 1)[1] == lock[name], f"{line} disagrees with the lock file ({lock[name]})"


def test_make_test_keeps_together_what_must_share_a_process():
    """``--dist loadscope``: a notebook's cells, and the checks of one page of the built book, stay together."""
    root_conftest = _load("root_conftest", REPO / "conftest.py")
    assert "--dist loadscope" in (REPO / "Makefile").read_text(encoding="utf-8")

    scope = root_conftest.scope_of
    assert scope("chapters/auc.ipynb::Cell 0") == scope("chapters/auc.ipynb::Cell 7") == "chapters/auc.ipynb"
    assert scope("chapters/auc.ipynb::Cell 0") != scope("chapters/roc_curve.ipynb::Cell 0")
    pages = "tests/book/browser/test_book_pages.py"
    one = scope(f"{pages}::test_images_load[chapters/auc]")
    assert one == scope(f"{pages}::test_no_console_errors[chapters/auc]") != scope(pages)
    assert one != scope(f"{pages}::test_images_load[chapters/intro]")
    assert scope(f"{pages}::test_images_load[zh/chapters/auc]") != one
    assert (
        scope(f"{pages}::test_screenshots_saved") == scope(f"{pages}::test_search_finds_pages[AUC-expected0]") == pages
    )
    assert scope("tests/melearn/test_ranking.py::test_seed_example_exact_values") == "tests/melearn/test_ranking.py"


# --- the browser ------------------------------------------------------------------------------------------------


def test_chromium_flags_live_once():
    """The PDF printer and the browser tests launch Chromium with one list of flags, book/chromium.py's."""
    flag = "--disable-background-networking"
    top = [path for path in REPO.iterdir() if path.is_dir() and not path.name.startswith((".", "_build"))]
    sources = [
        path
        for folder in sorted(top)
        for path in sorted(folder.rglob("*.py"))
        if flag in path.read_text(encoding="utf-8") and path.name != "test_build_config.py"
    ]
    assert [path.relative_to(REPO).as_posix() for path in sources] == ["book/chromium.py"]
    users = (("book/build_pdf.py", "from .chromium"), ("tests/book/browser/bookcheck.py", "from book.chromium"))
    for user, imported in users:
        assert f"{imported} import CHROMIUM_ARGS" in (REPO / user).read_text(encoding="utf-8"), user


def test_chinese_search_words_come_from_the_glossary():
    """jieba's user dictionary for the Chinese search holds the glossary's Chinese terms (book/ext/reader.py)."""
    reader = load_extension("reader")
    found = reader.glossary_words((REPO / "chapters" / "glossary.md").read_text(encoding="utf-8"))
    for term in ("查准率", "偏差", "自助法", "留出法", "排序损失", "代价曲线", "二项检验"):
        assert term in found, term
    assert found == sorted(set(found))
    assert reader.glossary_words("| Term | Chinese |\n|---|---|\n| P-R curve | P-R曲线 |\n| x | 留出法 |") == [
        "曲线",
        "留出法",
    ]


def test_chinese_search_stems_as_sphinx_does_with_its_own_word_list():
    """The Chinese index (``book/ext/reader.py``) keeps its Latin words per index, in a set, and stems as Sphinx does.

    Sphinx 7.4's ``SearchChinese`` keeps them in a list on the class: shared by every index, and searched word by
    word (the one-page book took 33 s to index). A word seen by one index must not change how another stems.
    """
    from sphinx.search.zh import SearchChinese

    chinese_search = load_extension("reader")._chinese_search()
    text = "The ROC curve 与 AUC: the area under the curve, 查准率 and recall; ers at TPR"
    ours, sphinx = chinese_search({}), SearchChinese({})
    assert ours.split(text) == sphinx.split(text)
    for word in ours.split(text) + ["ers", "er", "curves", "areas", "tpr"]:
        assert ours.stem(word) == sphinx.stem(word), word
    assert "ers" in ours.latin_terms
    fresh = chinese_search({})
    assert "ers" not in fresh.latin_terms, "a new index starts with the words of an earlier one"
    # "ers" is a Latin word of the first index, whose stem would be too short: kept whole; a fresh index stems it
    assert ours.stem("ers") == "ers" and fresh.stem("ers") == "er"


def test_the_one_page_links_its_files_without_the_checksums_sphinx_takes_from_the_last_build():
    """The one page printed links ``_static/proof.css``, not ``?v=`` and a checksum (``book/ext/editions.py``).

    Sphinx computes the checksum from the file in the output folder when the page is written, which the one-page
    builder fills after writing: the page's bytes then differed between a first and a second build of the same
    sources, and its PDF was printed again. The site's pages keep their checksums (a browser caches them).
    """
    editions = load_extension("editions")

    def css_tag(name):
        return f'<link href="_static/{name}?v=8c6b312c" rel="stylesheet" />'

    def js_tag(name):
        return f'<script src="_static/{name}?v=0f3a9b1e"></script>'

    def page_context(builder: str) -> dict:
        context = {"css_tag": css_tag, "js_tag": js_tag}
        app = SimpleNamespace(builder=SimpleNamespace(name=builder))
        editions._one_page_links_files_without_checksums(app, "chapters/intro", "page.html", context, None)
        return context

    one_page = page_context("singlehtml")
    assert one_page["css_tag"]("proof.css") == '<link href="_static/proof.css" rel="stylesheet" />'
    assert one_page["js_tag"]("mathjax/tex-chtml.js") == '<script src="_static/mathjax/tex-chtml.js"></script>'
    site = page_context("html")
    assert site["css_tag"]("proof.css") == css_tag("proof.css") and site["js_tag"]("a.js") == js_tag("a.js")
    # only Sphinx's query at the end of the address goes: not a query a script needs, not a longer one
    assert editions._without_checksum(lambda _: '<script src="x.js?config=TeX"></script>', "") == (
        '<script src="x.js?config=TeX"></script>'
    )
    assert editions._without_checksum(lambda _: '<a href="y.css?v=8c6b312c0">', "") == '<a href="y.css?v=8c6b312c0">'


def test_a_pdf_reuses_only_the_contents_numbers_of_the_same_pages(tmp_path):
    """``book/build_pdf.py`` fills in the last build's page numbers only for exactly the same contents entries.

    Whatever it fills in, a PDF is kept only when its contents agree with its own link targets (``print_pdf``).
    """
    from book.build_pdf import contents_path, remembered_contents

    target = tmp_path / "melearn-en.pdf"
    assert remembered_contents(target, ["a", "b"]) == {}  # no earlier build
    contents_path(target).write_text(json.dumps({"a": 3, "b": 9}), encoding="utf-8")
    assert remembered_contents(target, ["b", "a"]) == {"a": 3, "b": 9}
    assert remembered_contents(target, ["a", "b", "c"]) == {}  # a page was added
    assert remembered_contents(target, ["a"]) == {}  # a page was removed
    for broken in ('{"a": 3, "b": "9"}', '{"a": 0, "b": 9}', "[3, 9]", "{not json"):
        contents_path(target).write_text(broken, encoding="utf-8")
        assert remembered_contents(target, ["a", "b"]) == {}, broken


def _printing(monkeypatch, tmp_path):
    """book/build_pdf.py with a one-page build and a printing that only record what they were asked to do."""
    from book import build_pdf

    page_dir, pdf_dir = tmp_path / "singlehtml", tmp_path / "pdf"
    page_dir.mkdir()
    (page_dir / "intro.html").write_text("<p>(2.20)</p>", encoding="utf-8")
    printed, failing = [], []

    def print_pdf(page, target, language, volume):
        assert page.read_text(encoding="utf-8") == (page_dir / "intro.html").read_text(encoding="utf-8")
        if volume == "book":  # each build prints both volumes from the one page, alike: the book's are counted
            printed.append(language)
        if failing:
            raise RuntimeError("the printing failed")
        for path in (target, build_pdf.contents_path(target), build_pdf.fit_path(target)):
            path.write_text(f"printing {len(printed)}", encoding="utf-8")

    monkeypatch.setattr(build_pdf, "build", lambda language, builder, execution: 0)
    monkeypatch.setattr(build_pdf, "output_dir", lambda language, builder: page_dir if builder != "html" else tmp_path)
    monkeypatch.setattr(build_pdf, "root_page", lambda: "intro")
    monkeypatch.setattr(
        build_pdf, "pdf_path", lambda language, volume="book": pdf_dir / f"melearn-{language}-{volume}.pdf"
    )
    monkeypatch.setattr(build_pdf, "print_pdf", print_pdf)
    (tmp_path / "book").mkdir()
    for name in build_pdf.PRINTING_SCRIPTS:
        (tmp_path / "book" / name).write_bytes((REPO / "book" / name).read_bytes())
    monkeypatch.setattr(build_pdf, "ROOT", tmp_path)
    pdf_dir.mkdir()
    return build_pdf, page_dir, printed, failing


def test_a_pdf_is_printed_again_exactly_when_what_it_is_printed_from_changed(monkeypatch, tmp_path):
    """A rebuild keeps the PDF printed from the same inputs; a change in any of them prints it again."""
    build_pdf, page_dir, printed, failing = _printing(monkeypatch, tmp_path)
    assert build_pdf.build_pdf("en") == 0 and printed == ["en"]  # nothing printed before
    assert build_pdf.build_pdf("en") == 0 and printed == ["en"]  # the same page: kept
    assert build_pdf.build_pdf("en", reprint=True) == 0 and printed == ["en"] * 2  # --print always
    (page_dir / "_images").mkdir()
    (page_dir / "_images" / "roc.png").write_bytes(b"a figure the page loads")
    assert build_pdf.build_pdf("en") == 0 and printed == ["en"] * 3  # a file beside the page changed
    target = build_pdf.pdf_path("en")
    build_pdf.fit_path(target).unlink()
    assert build_pdf.build_pdf("en") == 0 and printed == ["en"] * 4  # something kept beside the PDF went missing
    assert (tmp_path / "melearn-en-book.pdf").read_text(encoding="utf-8") == "printing 4"  # copied into the site
    # a printing that fails leaves no claim that the PDF there was printed from anything, so the next build prints
    (page_dir / "intro.html").write_text("<p>(2.21)</p>", encoding="utf-8")
    failing.append(True)
    with pytest.raises(RuntimeError):
        build_pdf.build_pdf("en")
    assert build_pdf.printed_from(target) is None and len(printed) == 5
    failing.clear()
    assert build_pdf.build_pdf("en") == 0 and len(printed) == 6 and build_pdf.printed_from(target) is not None


def test_the_digest_of_a_printing_covers_the_page_the_scripts_the_browser_and_the_fonts(monkeypatch, tmp_path):
    from book import build_pdf

    page_dir = tmp_path / "page"
    (page_dir / "_static").mkdir(parents=True)
    (page_dir / "book.html").write_text("<p>AUC</p>", encoding="utf-8")
    (page_dir / "_static" / "print.css").write_text("nav { display: none }", encoding="utf-8")
    browser = tmp_path / "chromium"
    browser.write_text("#!/bin/sh\necho Chromium 156\n", encoding="utf-8")
    browser.chmod(0o755)
    monkeypatch.setattr(build_pdf, "_installed_fonts", lambda: ["/fonts/wqy-microhei.ttc 5177387 1"])
    first = build_pdf.print_inputs_digest(page_dir, str(browser))
    assert build_pdf.print_inputs_digest(page_dir, str(browser)) == first  # the same inputs, the same digest
    digests = {first}

    def changed(what):
        digest = build_pdf.print_inputs_digest(page_dir, str(browser))
        assert digest not in digests, what
        digests.add(digest)

    (page_dir / "_static" / "print.css").write_text("nav { display: block }", encoding="utf-8")
    changed("a style the page loads")
    (page_dir / "_static" / "extra.js").write_text("", encoding="utf-8")
    changed("a new empty file beside the page")
    browser.write_text("#!/bin/sh\necho Chromium 157\n", encoding="utf-8")
    changed("the browser's version")
    monkeypatch.setattr(build_pdf, "_installed_fonts", lambda: ["/fonts/wqy-microhei.ttc 5177388 2"])
    changed("a font file")
    tools = tmp_path / "repo" / "book"
    tools.mkdir(parents=True)
    for name in build_pdf.PRINTING_SCRIPTS:
        (tools / name).write_bytes((REPO / "book" / name).read_bytes())
    monkeypatch.setattr(build_pdf, "ROOT", tmp_path / "repo")
    assert build_pdf.print_inputs_digest(page_dir, str(browser)) in digests  # copies of the scripts: no change
    (tools / "column_fit.py").write_text("FIT_JS = ''\n", encoding="utf-8")
    changed("a printing script")
    monkeypatch.setattr(build_pdf.importlib.metadata, "version", lambda package: "0.0")
    changed("the version of Playwright or pypdf")
    assert set(build_pdf.PRINTING_SCRIPTS) >= {"build_pdf.py", "column_fit.py", "chromium.py"}


def test_the_table_of_make_test_shows_each_step_and_the_machines_share():
    """book/step_times.py: the steps as the Makefile times them, and the processors' time from /proc/stat."""
    times = step_times
    assert times.TIMES == REPO / _make_variable("TIMES")
    before = times.cpu_ticks("cpu  100 10 20 1000 5 1 2 30 0 0\ncpu0 50 5 10 500 2 0 1 15 0 0\n")
    after = times.cpu_ticks("cpu  300 60 40 1100 5 1 4 130 0 0\n")
    share = times.machine_share(before, after, 100)
    assert share == {"busy": 2.0 + 0.5 + 0.2 + 0.02, "idle": 1.0, "steal": 1.0}
    printed = times.table([("lint", 10_800, 0), ("tests", 2_500, 1)], 12.0, share).splitlines()
    assert printed[2].split() == ["lint", "10.8", "s"] and printed[3].split()[-1] == "FAILED"
    assert printed[4].split()[-2:] == ["13.3", "s"] and printed[5].split()[-2:] == ["12.0", "s"]
    assert printed[-1].split()[-2:] == ["1.0", "core-s"] and "steal" in printed[-1]
    assert times.cpu_ticks("intr 1 2\n") is None and times.table([], None, None).count("\n") == 2


def test_each_script_once_and_no_thebe_where_nothing_launches_it():
    from types import SimpleNamespace

    from sphinx.builders.html._assets import _JavaScript

    thebe = 'const THEBE_JS_URL = "https://unpkg.com/thebe/lib/index.js"'
    toggle = "var togglebuttonSelector = '.toggle';"
    scripts = [
        _JavaScript("a.js"),
        _JavaScript(None, body=toggle),
        _JavaScript(None, body=thebe),
        _JavaScript("sphinx-thebe.js", **{"async": "async"}),
        _JavaScript(None, body=toggle, priority=501),
        _JavaScript(None, body=thebe),
        _JavaScript("", body=toggle),  # the same script by Sphinx's other path: file name "" rather than None
    ]

    def page(launch: dict) -> list:
        app = SimpleNamespace(config=SimpleNamespace(html_theme_options={"launch_buttons": launch}))
        context = {"script_files": list(scripts)}
        build_settings._page_scripts(app, "index", "page.html", context, None)
        return [(script.filename, script.attributes.get("body")) for script in context["script_files"]]

    assert page({"thebe": False}) == [("a.js", None), (None, toggle)]
    assert page({"thebe": True}) == [("a.js", None), (None, toggle), (None, thebe), ("sphinx-thebe.js", None)]
