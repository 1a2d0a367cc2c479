"""A result used only in another result's proof changes (fixtures/proof-user): its label is
renamed, or its statement edited. The revision redoes it and re-proves the proof's result under
the gate it keeps. `validate` then failed that gate with `gate-tex-mismatch` ("the gate reviewed
another TeX text of dependency lem:mean-max than source/ holds now"), though what a gate
reviews is the statement and what the statement uses: a result only the proof uses is no part
of it (`soundness_rules.gate_tex_findings`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paperlint.cli.root import run
from tests.revise.helpers import checked_fixture

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "fixtures" / "proof-user"


@pytest.fixture
def checked(tmp_path: Path) -> Path:
    workspace = checked_fixture(tmp_path, FIXTURE)
    gate = json.loads((workspace / "audits/thm_product/gate-1.json").read_text())
    assert "lem:mean-max" in gate["tex"]["dependencies"]  # hashed, though only the proof uses it
    return workspace


def verdicts(workspace: Path) -> dict[str, str | None]:
    data = json.loads((workspace / "results.json").read_text(encoding="utf-8"))
    return {r["id"]: r["verdict"] for r in data["results"]}


def test_a_label_renamed_under_a_proof_use_validates_after_the_resume(
    checked: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paper = FIXTURE / "renamed.tex"  # by this name: its place is in the prompts
    replay = FIXTURE / "replay-renamed"
    capsys.readouterr()
    assert run(["revise", str(checked), str(paper), "--dry-run", "--format", "json"]) == 0
    plan = json.loads(capsys.readouterr().out)
    # the renamed lemma keeps its records (carried_renames); the proof that uses it is redone
    assert [(r["id"], r["action"]) for r in plan["reset"]] == [("thm:product", "re-prove")]
    assert run(["revise", str(checked), str(paper), "--replay", str(replay)]) == 0
    assert run(["resume", str(checked), "-q"]) == 1
    assert verdicts(checked) == {
        "def:mean": None,
        "lem:max": "verified_unconditional",
        "lem:mean-square": "verified_conditional",
        "prop:square": "issue",
        "thm:product": "issue",
    }
    capsys.readouterr()
    assert run(["validate", str(checked)]) == 0, capsys.readouterr().out


def test_a_statement_edited_under_a_proof_use_keeps_the_users_gate_valid(
    checked: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The lemma's statement edited: the lemma is drafted again, thm:product re-proved under
    its kept gate; `validate` right after the revision finds nothing to object to. An edit
    of a result the statement uses still fails the gate (tests/validate/
    test_forged_soundness.py, `test_a_revised_dependency_keeps_no_stale_gate`)."""
    paper = checked.parent / "paper.tex"
    text = paper.read_text(encoding="utf-8")
    before = "the mean of Definition~\\ref{def:mean} satisfies"
    assert before in text
    paper.write_text(text.replace(before, before.replace("satisfies", "always satisfies")))
    capsys.readouterr()
    assert run(["revise", str(checked), str(paper), "--format", "json"]) == 0
    plan = json.loads(capsys.readouterr().out)
    assert [(r["id"], r["action"]) for r in plan["reset"]] == [
        ("lem:mean-max", "re-draft"),
        ("thm:product", "re-prove"),
    ]
    assert run(["validate", str(checked)]) == 0, capsys.readouterr().out
