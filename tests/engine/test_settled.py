"""A resume with nothing left to do: decided from the records alone (`engine.settled`), it
records the same run a full opening would and loads neither the engine's steps nor networkx
nor litellm (each costs a large share of a sub-second command)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from paperlint.engine import check
from paperlint.engine.settled import SOFT_REASONS, settled
from paperlint.records.convergence import Combined, ConvergenceState, write_state
from paperlint.records.journal import Journal
from paperlint.records.results import Results, Stage, Unfinished, UnfinishedReason, Verdict
from paperlint.records.workspace import open_workspace
from tests.engine.conftest import ROOT, reference_run

HEAVY = ("networkx", "litellm", "paperlint.engine.steps", "paperlint.engine.opening")


def _finished(tmp_path: Path, name: str = "ws") -> Path:
    source, code = reference_run("sample-variance")
    assert code == 1  # the example records an issue
    target = tmp_path / name
    shutil.copytree(source, target)
    return target


def _new_events(workdir: Path, before: int) -> list[dict[str, object]]:
    lines = (workdir / "events.jsonl").read_text(encoding="utf-8").splitlines()[before:]
    return [{k: v for k, v in json.loads(line).items() if k not in ("seq", "ts")} for line in lines]


def _count(workdir: Path) -> int:
    return len((workdir / "events.jsonl").read_text(encoding="utf-8").splitlines())


def test_resume_of_a_finished_check_loads_no_engine_networkx_or_litellm(tmp_path):
    ws = _finished(tmp_path)
    records = (ws / "results.json").read_bytes()
    code = (
        "import sys\n"
        "from paperlint.cli.root import run\n"
        "print('exit', run(sys.argv[1:]))\n"
        f"print('loaded', sorted(m for m in sys.modules if m.startswith({HEAVY!r})))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, "resume", str(ws), "--quiet"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    assert "loaded []" in out.stdout, out.stdout + out.stderr
    assert "exit 1" in out.stdout
    assert (ws / "results.json").read_bytes() == records
    assert (ws / "report" / "report.html").is_file()


def test_the_settled_resume_records_what_a_full_opening_records(tmp_path, monkeypatch):
    quick, full = _finished(tmp_path, "quick"), _finished(tmp_path, "full")
    before = _count(quick)
    fast = check.resume_check(quick, report=False)
    monkeypatch.setattr(check, "settled", lambda *a, **k: False)
    slow = check.resume_check(full, report=False)
    assert (fast.exit_code, fast.counts, fast.stop_reason, fast.notes) == (
        slow.exit_code,
        slow.counts,
        slow.stop_reason,
        slow.notes,
    )
    assert _new_events(quick, before) == _new_events(full, before)
    assert [e["type"] for e in _new_events(quick, before)] == ["run_started", "run_finished"]
    assert (quick / "results.json").read_bytes() == (full / "results.json").read_bytes()
    assert sorted(p.name for p in (quick / "snapshots").iterdir()) == sorted(
        p.name for p in (full / "snapshots").iterdir()
    )


def _with(results: Results, rid: str, **update: object) -> Results:
    changed = [r.model_copy(update=update) if r.id == rid else r for r in results.results]
    return results.model_copy(update={"results": changed})


def _example(tmp_path: Path) -> tuple[Path, Results, str]:
    ws = _finished(tmp_path)
    results = Results.model_validate_json((ws / "results.json").read_text(encoding="utf-8"))
    return ws, results, next(r.id for r in results.results if r.verdict_bearing)


@pytest.mark.parametrize("reason", list(UnfinishedReason))
def test_an_unfinished_result_is_open_exactly_when_a_later_run_picks_it_up(tmp_path, reason):
    ws, results, rid = _example(tmp_path)
    unfinished = Unfinished(reason=reason, detail="stopped")
    changed = _with(results, rid, verdict=Verdict.UNFINISHED, unfinished=unfinished)
    for convergence in (True, False):
        assert settled(changed, ws, convergence=convergence) is (reason not in SOFT_REASONS)


def test_settled_case_table(tmp_path):
    ws, results, rid = _example(tmp_path)
    assert settled(results, ws, convergence=False)
    assert settled(results, ws, convergence=True)  # the example's review is done
    no_verdict = _with(results, rid, stage=Stage.GATED, verdict=None)
    assert not settled(no_verdict, ws, convergence=False)
    combined = Combined(flagged=[rid], by_both=[], flags=[], regate=[rid])
    cases = [
        (None, False),  # never asked
        (ConvergenceState(status="asking"), False),
        # a provider failure or a budget stop: resume asks it again (#29)
        (ConvergenceState(status="pending", reason="provider failed"), False),
        (ConvergenceState(status="done", combined=combined), False),  # not yet applied
        (ConvergenceState(status="done", combined=combined, applied=True), True),
        (ConvergenceState(status="done"), True),  # nothing flagged
        (ConvergenceState(status="not_run", reason="the budget is spent"), True),
    ]
    for state, expected in cases:
        (ws / "convergence.json").unlink(missing_ok=True)
        if state is not None:
            write_state(ws, state)
        assert settled(results, ws, convergence=True) is expected, state
        assert settled(results, ws, convergence=False)


class _Reopened(Exception):
    pass


def _refuse_reopen(*args: object, **kwargs: object) -> None:
    raise _Reopened


@pytest.mark.parametrize("change", ["event", "state", "no-mark", "bad-mark"])
def test_only_the_run_that_ran_dry_lets_a_resume_skip_opening(tmp_path, monkeypatch, change):
    """The mark names the last event and engine state of a run whose queue ran dry: any later
    event (a crash mid-run, a budget or missing-edge stop), another state or no readable mark
    and the resume opens the run (a revisit may be due that only the steps can see)."""
    ws = _finished(tmp_path)
    monkeypatch.setattr(check, "_reopen", _refuse_reopen)
    check.resume_check(ws, report=False)  # marked: the fast path, twice in a row
    check.resume_check(ws, report=False)
    mark = ws / "engine" / check.SETTLED
    if change == "event":
        Journal(open_workspace(ws).events()).emit(check._started("check", []))
    elif change == "state":
        data = json.loads(mark.read_text(encoding="utf-8"))
        mark.write_text(json.dumps({**data, "engine_state": "engine/state-0.json"}))
    elif change == "no-mark":
        mark.unlink()
    else:
        mark.write_text("[not a mark")
    with pytest.raises(_Reopened):
        check.resume_check(ws, report=False)
