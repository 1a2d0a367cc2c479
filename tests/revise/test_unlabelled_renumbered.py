"""A revision that renumbers unlabelled results keeps their verdicts (fixtures/
unlabelled-renumbered): a lemma inserted above them changes their ids (`lemma:2.2` ->
`lemma:2.3`, `proposition:2.3` -> `proposition:2.4`) and nothing they say. Before, both were
drafted, gated, proved and audited again (the dry run estimated 12 model calls; the replay
holds no answers for the new ids, so both ended unfinished). Now their records, evidence files and
events carry over, `validate` and `replay` re-derive both verdicts from them, and an undo of the
revision leaves a workspace that validates too."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from paperlint.cli.root import run
from tests.revise.helpers import checked_fixture

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "fixtures" / "unlabelled-renumbered"
RENAMED = {"lemma:2.2": "lemma:2.3", "proposition:2.3": "proposition:2.4"}
FOLDER = {"lemma:2.2": "lemma_2.2", "lemma:2.3": "lemma_2.3"}
FOLDER |= {"proposition:2.3": "proposition_2.3", "proposition:2.4": "proposition_2.4"}


def results(workspace: Path) -> dict[str, dict[str, Any]]:
    data = json.loads((workspace / "results.json").read_text(encoding="utf-8"))
    return {r["id"]: r for r in data["results"]}


def events(workspace: Path) -> list[dict[str, Any]]:
    lines = (workspace / "events.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def out_json(capsys: pytest.CaptureFixture[str]) -> Any:
    return json.loads(capsys.readouterr().out)


@pytest.fixture
def checked(tmp_path: Path) -> Path:
    return checked_fixture(tmp_path, FIXTURE)


def test_renumbered_unlabelled_results_keep_their_verdicts_and_evidence(
    checked: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = results(checked)
    assert {rid: before[rid]["verdict"] for rid in RENAMED} == {
        "lemma:2.2": "verified_conditional",
        "proposition:2.3": "issue",
    }
    kept = {rid: files(checked / "audits" / FOLDER[rid]) for rid in RENAMED}
    paper = checked.parent / "paper.tex"
    shutil.copyfile(FIXTURE / "revised.tex", paper)
    capsys.readouterr()

    assert run(["status", str(checked), "--format", "json"]) == 0
    assert [r["id"] for r in out_json(capsys)["results"] if r["stale"]] == []

    assert run(["revise", str(checked), str(paper), "--format", "json"]) == 0
    plan = out_json(capsys)
    assert plan["reset"] == []
    assert plan["added"] == ["lemma:2.2"]
    assert plan["estimate"]["model_calls"] == 0
    assert [(r["old_id"], r["id"]) for r in plan["renumbered"]] == [
        *RENAMED.items(),
        ("thm:product", "thm:product"),
    ]
    (revision,) = [e for e in events(checked) if e["type"] == "revision"]
    assert revision["renamed"] == RENAMED

    after = results(checked)
    for old, new in RENAMED.items():
        was, now = before[old], after[new]
        assert (now["verdict"], now["conditions"]) == (was["verdict"], was["conditions"])
        moved = json.dumps(was["evidence"]).replace(FOLDER[old], FOLDER[new])
        assert {**json.loads(moved), "hashes": {}} == {**now["evidence"], "hashes": {}}
        folder = files(checked / "audits" / FOLDER[new])
        assert folder.keys() == kept[old].keys()
        for name, data in folder.items():  # only the gate's paths into its folder moved
            if name.startswith("gate-"):
                assert data == kept[old][name].replace(
                    f'"audits/{FOLDER[old]}/'.encode(), f'"audits/{FOLDER[new]}/'.encode()
                )
                assert json.loads(data)["result"] == old  # written under its old id
            else:
                assert data == kept[old][name], name
    issue = after["proposition:2.4"]["issue"]
    assert issue["class"] == "ERROR"
    assert issue["location"]["line"] == before["proposition:2.3"]["issue"]["location"]["line"] + 8
    assert after["lemma:2.2"]["verdict"] is None  # the inserted lemma, pending

    assert run(["validate", str(checked)]) == 0
    capsys.readouterr()
    start = len(events(checked))
    assert run(["resume", str(checked), "-q"]) == 1
    worked = {e["action"]["result"] for e in events(checked)[start:] if "action" in e}
    assert worked == {"lemma:2.2"}  # only the inserted lemma (no answers for it in the replay)
    final = results(checked)
    assert final["lemma:2.2"]["verdict"] == "unfinished"
    assert {rid: final[rid] for rid in RENAMED.values()} == {
        rid: after[rid] for rid in RENAMED.values()
    }
    report = (checked / "report" / "report.md").read_text(encoding="utf-8")
    assert "| lemma:2.3 (was lemma:2.2) | 2.2 | 2.3 |" in report  # "Since the previous version"
    assert "| thm:product | 2.4 | 2.5 |" in report
    assert run(["validate", str(checked)]) == 0
    capsys.readouterr()
    argv = ["replay", str(checked), "--lean-replay", str(FIXTURE / "replay"), "--format", "json"]
    assert run(argv) == 0
    replayed = {r["id"]: r for r in out_json(capsys)["results"]}
    for rid in RENAMED.values():
        assert replayed[rid]["rederived"] == replayed[rid]["recorded"] == final[rid]["verdict"]
        assert [lean["status"] for lean in replayed[rid]["lean"]] == ["confirmed"]


def test_an_undone_revision_leaves_a_workspace_that_validates(
    checked: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The verdicts written between a revision and its undo are about records the undo
    removed: `validate` compared each restored verdict with the newest verdict event of its
    id, written after the revision (the inserted lemma:2.2's `unfinished` against the old
    lemma:2.2's `verified_conditional`), and failed."""
    before = results(checked)
    paper = checked.parent / "paper.tex"
    shutil.copyfile(FIXTURE / "revised.tex", paper)
    assert run(["revise", str(checked), str(paper)]) == 0
    assert run(["resume", str(checked), "-q"]) == 1
    assert results(checked)["lemma:2.2"]["verdict"] == "unfinished"
    assert run(["revise", str(checked), "--undo"]) == 0
    assert results(checked) == before
    capsys.readouterr()
    assert run(["validate", str(checked)]) == 0, capsys.readouterr().out


def test_a_carried_result_re_proved_under_its_new_id_validates(
    checked: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Version 2 with the renumbered lemma's proof reworded: it is carried over and re-proved
    under `lemma:2.3`. Its new checker run names modules by `lemma:2.3`, while the gate it
    keeps ran its reference under `lemma:2.2`: `validate` composes each under its own id
    (`checker_rules.named_for`, `gate_reference`), and `replay` re-derives it."""
    paper = FIXTURE / "revised-proof.tex"  # by this name: its place is in the prompts
    replay = FIXTURE / "replay-proof"
    capsys.readouterr()
    assert run(["revise", str(checked), str(paper), "--replay", str(replay)]) == 0
    assert run(["resume", str(checked), "-q"]) == 1
    final = results(checked)
    assert final["lemma:2.3"]["verdict"] == "verified_conditional"
    folder = checked / "audits" / FOLDER["lemma:2.3"]
    assert json.loads((folder / "gate-1.json").read_text())["result"] == "lemma:2.2"
    checker = (folder / "checker.json").read_text()
    assert "r_lemma_2_3_" in checker and "r_lemma_2_2_" not in checker
    assert "r_lemma_2_2_" in (folder / "reference-1.json").read_text()
    # the gate's faithfulness evidence stays with the gate: its probe was dropped with the proof
    faithful = json.loads((folder / "faithfulness.json").read_text())
    assert faithful["probe"] == json.loads((folder / "faithfulness-1.json").read_text())["probe"]
    assert faithful["probe"] is not None and faithful["minimal"] is not None
    capsys.readouterr()
    assert run(["validate", str(checked)]) == 0, capsys.readouterr().out
    # the kept verdicts' checker runs are in replay/, the re-proved one's in replay-proof/
    both = tmp_path / "lean.jsonl"
    both.write_bytes(
        b"".join((d / "lean.jsonl").read_bytes() for d in (FIXTURE / "replay", replay))
    )
    capsys.readouterr()
    assert run(["replay", str(checked), "--lean-replay", str(both), "--format", "json"]) == 0
    replayed = {r["id"]: r for r in out_json(capsys)["results"]}
    assert [lean["status"] for lean in replayed["lemma:2.3"]["lean"]] == ["confirmed"]
