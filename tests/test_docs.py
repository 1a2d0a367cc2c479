"""docs/cli.md is generated from the CLI and must name every command; comments cite docs/ only."""

import re

from paperlint.cli.docs import render_cli_docs
from tests.conftest import ROOT

PRODUCT = ("paperlint", "preflight", "blueprint", "reports")
# Section citations of documents that are not in this repository.
OUTSIDE = re.compile(
    r"\b(?:lean|latex|anchors|versions|style)\.md §|\b(?:design|style|reference) §"
)
CITATION = re.compile(r"docs/([\w-]+\.md)((?:(?:,?\s+|-|/)§\d+(?:\.\d+)*)+)")


def test_cli_reference_is_up_to_date():
    committed = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    stale = "docs/cli.md is stale: run `python -m paperlint.cli.docs`"
    assert committed == render_cli_docs(), stale


def test_every_command_is_documented():
    text = render_cli_docs()
    for command in (
        "preflight",
        "check",
        "resume",
        "status",
        "report",
        "validate",
        "replay",
        "revise",
        "doctor",
        "setup",
        "lean scan",
    ):
        assert f"## `paperlint {command}`" in text


def _product_sources() -> list[tuple[str, str]]:
    return [
        (str(path.relative_to(ROOT)), path.read_text(encoding="utf-8"))
        for package in PRODUCT
        for path in sorted((ROOT / package).rglob("*.py"))
    ]


def _headings(doc: str) -> set[str]:
    text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
    return set(re.findall(r"^#{2,4} (\d+(?:\.\d+)*)[. ]", text, flags=re.MULTILINE))


def test_comments_cite_this_repository_only():
    outside = [
        f"{path}:{n}: {line.strip()}"
        for path, text in _product_sources()
        for n, line in enumerate(text.splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert not outside, "cite docs/<file>.md §N instead:\n" + "\n".join(outside)


def test_every_docs_section_a_comment_cites_exists():
    cited = [
        (path, doc, section)
        for path, text in _product_sources()
        for doc, sections in CITATION.findall(text)
        for section in re.findall(r"§(\d+(?:\.\d+)*)", sections)
    ]
    assert len(cited) > 50  # the pattern still matches how comments cite
    missing = [
        f"{path}: docs/{doc} §{section}"
        for path, doc, section in cited
        if section not in _headings(doc)
    ]
    assert not missing, "no such section:\n" + "\n".join(missing)


def test_the_citation_patterns_see_what_they_mean_to():
    assert OUTSIDE.search("(lean.md §6.0)") and OUTSIDE.search("(design §5)")
    assert not OUTSIDE.search("(docs/lean-notes.md §6.0)")
    assert CITATION.findall("(docs/latex-notes.md §1, §6)") == [("latex-notes.md", " §1, §6")]


def test_the_readme_layout_names_every_package_in_layer_order():
    from tests.engine.test_layering import LAYERS

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    layout = readme[readme.index("## Layout") :]
    units = [u for u in LAYERS if u not in ("__init__", "__main__")]
    named = [
        re.search(rf"`(?:paperlint/)?{re.escape(u)}(?:/|\.py)`|, `{re.escape(u)}\.py`", layout)
        for u in units
    ]
    missing = [u for u, m in zip(units, named, strict=True) if m is None]
    assert not missing, f"README's Layout does not name {missing}"
    where = [m.start() for m in named if m]
    assert where == sorted(where), "README's Layout lists the packages out of layer order"
    on_disk = {p.name for p in (ROOT / "paperlint").iterdir() if (p / "__init__.py").exists()}
    assert on_disk <= set(units), f"packages missing from LAYERS: {on_disk - set(units)}"
