"""Commits are linear in what changed (`paperlint.records.workspace.write_results`): an action
re-encodes only its own result, and the files it writes are byte for byte what encoding the
whole records at once writes."""

import json
import shutil
from pathlib import Path

from paperlint.config import Config
from paperlint.engine.check import CheckRequest, start_check
from paperlint.records import workspace
from paperlint.records.results import ResultRecord, Results
from paperlint.records.slots import drafting
from paperlint.records.work import ResultWork
from paperlint.records.workspace import Workspace, load_results_at, write_results
from tests.workstate import work_of

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "sample-variance"


def _whole_state(ws: Workspace) -> bytes:
    """The state file as encoding the whole record at once writes it."""
    rel = json.loads(ws.results.read_text())["engine_state"]
    data = json.loads((ws.root / rel).read_text())
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode()


def test_a_checks_incremental_commits_write_what_one_whole_write_writes(tmp_path):
    ws = Workspace(tmp_path / "ws")
    start_check(
        CheckRequest(
            paper=FIXTURE / "paper.tex",
            config=Config(),
            workdir=ws.root,
            replay=FIXTURE / "replay",
            report=False,
        )
    )
    results_bytes = ws.results.read_bytes()
    rel = json.loads(results_bytes)["engine_state"]
    state_bytes = (ws.root / rel).read_bytes()
    # the incremental encoders agree with the whole-record ones
    whole = load_results_at(ws.results)
    assert results_bytes == (whole.model_dump_json(indent=2, by_alias=True) + "\n").encode()
    assert state_bytes == _whole_state(ws)
    # and a cold write (a fresh process: nothing remembered) writes the same bytes
    copy = Workspace(tmp_path / "copy")
    shutil.copytree(ws.root, copy.root)
    workspace._WRITTEN.clear()
    write_results(copy, load_results_at(copy.results))
    assert copy.results.read_bytes() == results_bytes
    assert (copy.root / rel).read_bytes() == state_bytes
    assert sorted(p.name for p in (copy.root / "engine").glob("state-*.json")) == [
        rel.split("/")[1]
    ]


def test_a_commit_encodes_and_resolves_only_the_result_that_changed(tmp_path, monkeypatch):
    ws = Workspace(tmp_path)
    records = [
        ResultRecord(id=f"lem:{i}", number=str(i), kind="lemma").with_work(ResultWork())
        for i in range(50)
    ]
    results = Results(results=records)
    write_results(ws, results)
    calls: list[str] = []
    real_work, real_record = workspace.stored_work, workspace.encode_record
    monkeypatch.setattr(
        workspace,
        "stored_work",
        lambda rid, *a: calls.append(f"work {rid}") or real_work(rid, *a),
    )
    monkeypatch.setattr(
        workspace,
        "encode_record",
        lambda record: calls.append(f"record {record.id}") or real_record(record),
    )
    changed = (
        records[17].model_copy(update={"notes": ["touched"]}).with_work(work_of(draft_rounds=1))
    )
    new = results.model_copy(update={"results": [*records[:17], changed, *records[18:]]})
    write_results(ws, new)
    assert calls == ["record lem:17", "work lem:17"]
    assert drafting(load_results_at(ws.results).results[17].work).rounds == 1
    assert (
        ws.results.read_bytes()
        == (
            new.model_copy(
                update={"engine_state": json.loads(ws.results.read_text())["engine_state"]}
            ).model_dump_json(indent=2, by_alias=True)
            + "\n"
        ).encode()
    )
    assert len(list((ws.root / "engine").glob("state-*.json"))) == 1  # the old state file is gone
