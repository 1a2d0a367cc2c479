"""Each fixture's label numbers must equal what a real LaTeX compile wrote (expected/latex.json).

Golden files are never written by an ordinary test run: a missing one fails with the command
that makes it. `scripts/regen_expected.py` compiles the fixtures and writes expected/latex.json;
`pytest tests/preflight/test_fixtures.py -k golden --update-golden` rewrites
expected/inventory.json (and skips, so the run does not pass on what it just wrote). Review the
diff before committing either.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paperlint.preflight.inventory import build_inventory

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "preflight"
FOLDERS = sorted(p for p in FIXTURES.iterdir() if (p / "paper.tex").is_file())
# labels a class writes itself, not the paper (revtex: the first and last page; jmlr: the
# last, `\\label{jmlrend}` at the end of the document)
CLASS_LABELS = {"FirstPage", "LastPage", "jmlrend"}
GOLDEN = ("shared_counter", "proofs_far", "citations_bib", "equations_tags")


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_labels_match_latex(folder: Path) -> None:
    expected_file = folder / "expected" / "latex.json"
    if not expected_file.is_file():
        pytest.fail(f"no {expected_file}; run scripts/regen_expected.py {folder}")
    expected = json.loads(expected_file.read_text(encoding="utf-8"))["labels"]
    inventory = build_inventory(folder, root="paper.tex")
    wanted = {
        k: v
        for k, v in expected.items()
        if not k.startswith(("thmt@", "sub@")) and k not in CLASS_LABELS
    }
    got = {k: inventory.labels.get(k) for k in wanted}
    assert got == wanted


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_every_labelled_result_has_its_label_as_id(folder: Path) -> None:
    inventory = build_inventory(folder, root="paper.tex")
    for result in inventory.results:
        if result.number is not None and result.restates is None:  # a restatement has none
            assert result.labels, f"{folder.name}: every numbered fixture result carries a label"
        if result.labels:
            assert result.id == result.labels[0]


@pytest.mark.parametrize("name", GOLDEN)
def test_golden_inventory(name: str, update_golden: bool) -> None:
    folder = FIXTURES / name
    inventory = build_inventory(folder, root="paper.tex")
    data = inventory.model_dump(mode="json", by_alias=True)
    data["files"] = [{"path": f["path"]} for f in data["files"]]  # digests change with edits
    golden = folder / "expected" / "inventory.json"
    text = json.dumps(data, indent=2, sort_keys=True) + "\n"
    if update_golden:
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(text, encoding="utf-8")
        pytest.skip(f"rewrote {golden}; review `git diff` before committing it")
    if not golden.is_file():
        pytest.fail(
            f"{golden} is missing; write it with "
            "`pytest tests/preflight/test_fixtures.py -k golden --update-golden`"
        )
    assert json.loads(golden.read_text(encoding="utf-8")) == json.loads(text)
