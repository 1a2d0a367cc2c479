"""`paperlint status` (engine/status.py): the rows, the per-result reasons and what is stale,
on a real workspace (the v1 fixture, upgraded on load) and on hand-built records."""

import re
import shutil
import tomllib
from pathlib import Path

import pytest

from paperlint.engine.status import _why, status_rows
from paperlint.lean.pins import default_project_dir, read_pins
from paperlint.records.results import (
    Condition,
    ConditionKind,
    ConditionSource,
    Issue,
    IssueClass,
    IssueLocation,
    ResultRecord,
    Results,
    Unfinished,
    UnfinishedReason,
    Verdict,
)

ROOT = Path(__file__).resolve().parents[2]
V1 = ROOT / "fixtures" / "workspaces" / "v1-sample-variance"


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    """The fixture workspace, its run config pointing at a copy of the paper in tmp_path."""
    target = tmp_path / "paper.paperlint"
    shutil.copytree(V1, target)
    paper = tmp_path / "paper.tex"
    shutil.copyfile(V1 / "source" / "paper.tex", paper)
    _set(target, "paper", str(paper))
    return target


def _set(ws: Path, key: str, value: str) -> None:
    config = ws / "paperlint.toml"
    text, count = re.subn(rf'(?m)^{key} = ".*"$', f'{key} = "{value}"', config.read_text())
    assert count == 1, key
    config.write_text(text)


def test_rows_follow_the_records_and_say_nothing_without_why(ws):
    rows, results, stale = status_rows(ws, why=False)
    assert [r.id for r in rows] == [r.id for r in results.results]
    assert [(r.id, r.verdict) for r in rows] == [
        ("def:mean", None),
        ("lem:mean-max", "verified_unconditional"),
        ("lem:mean-square", "verified_conditional"),
        ("prop:square", "issue"),
        ("thm:product", "issue"),
    ]
    assert all(r.why == [] for r in rows) and stale == []


def test_why_on_the_real_workspace(ws):
    rows, _, stale = status_rows(ws, why=True)
    why = {r.id: r.why for r in rows}
    assert why["def:mean"] == ["not verdict-bearing"]
    assert why["lem:mean-max"] == []
    assert why["prop:square"][0].startswith("ERROR at paper.tex:")
    expected = (
        []
        if read_pins(default_project_dir()).toolchain == "leanprover/lean4:v4.35.0"
        else ["toolchain-changed"]
    )
    assert stale == expected


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda ws, paper: None, []),
        (
            lambda ws, paper: paper.write_text(paper.read_text() + "\n% edited\n"),
            ["source-changed: paper.tex"],
        ),
        # the paper moved away: nothing to compare, but status says it is gone
        (
            lambda ws, paper: paper.unlink(),
            [
                "paper-gone: {paper} (moved? `paperlint revise {ws} NEW_PAPER` checks it "
                "where it is now)"
            ],
        ),
        (
            lambda ws, paper: _set(ws, "lean_toolchain", "leanprover/lean4:v0.0.1"),
            ["toolchain-changed"],
        ),
        (
            lambda ws, paper: _set(
                ws, "lean_toolchain", read_pins(default_project_dir()).toolchain
            ),
            [],
        ),
    ],
    ids=["unchanged", "source-edited", "source-gone", "toolchain-other", "toolchain-same"],
)
def test_stale_reasons(ws, change, expected):
    _set(ws, "lean_toolchain", read_pins(default_project_dir()).toolchain)  # this machine's
    change(ws, ws.parent / "paper.tex")
    _, _, stale = status_rows(ws, why=True)
    paper = str(ws.parent / "paper.tex")
    assert stale == [e.format(paper=paper, ws=ws) for e in expected]


def _record(rid="lem:a", **fields) -> ResultRecord:
    return ResultRecord(id=rid, number="1", kind="lemma", **fields)


def _on(dep: str) -> Condition:
    source = ConditionSource(result=dep)
    return Condition(name="h", lean_type="P", kind=ConditionKind.CLAUSE_UNVERIFIED, source=source)


ISSUE = Issue(
    **{"class": IssueClass("ERROR")},
    side="paper",
    location=IssueLocation(file="main.tex", line=3, quote="q"),
)


@pytest.mark.parametrize(
    ("record", "others", "expected"),
    [
        (_record(), [], []),
        (
            _record(
                unfinished=Unfinished(reason=UnfinishedReason.BUDGET_EXHAUSTED, detail="6 calls")
            ),
            [],
            ["budget_exhausted: 6 calls"],
        ),
        (_record(verdict=Verdict.ISSUE, issue=ISSUE), [], ["ERROR at main.tex:3"]),
        (_record(conditions=[_on("lem:b")]), [_record("lem:b")], ["blocked-by lem:b"]),
        (
            _record(conditions=[_on("lem:b")]),
            [_record("lem:b", verdict=Verdict.VERIFIED_UNCONDITIONAL)],
            [],
        ),
        (_record(conditions=[_on("lem:gone")]), [], []),  # no such record: nothing to block on
        (
            _record(conditions=[Condition(name="h", lean_type="P", kind=ConditionKind.CITED)]),
            [],
            [],
        ),
        (_record(verdict_bearing=False), [], ["not verdict-bearing"]),
        (_record(verdict_bearing=False, verdict=Verdict.UNFINISHED), [], []),
    ],
    ids=[
        "nothing",
        "unfinished",
        "issue",
        "blocked",
        "dep-verified",
        "dep-missing",
        "cited-condition",
        "not-bearing",
        "not-bearing-with-verdict",
    ],
)
def test_why_case_table(record, others, expected):
    assert _why(record, Results(results=[record, *others])) == expected


def test_the_run_records_and_watches_the_toolchain_of_its_own_lean_project(tmp_path):
    """`[lean] project_dir` names another Lake project: the workspace records that project's
    toolchain (before: the bundled one's), and `status --why` sees a change in it."""
    from paperlint.cli.root import run

    project = tmp_path / "other-lean-project"
    project.mkdir()
    (project / "lean-toolchain").write_text("leanprover/lean4:v4.99.0\n")
    config = tmp_path / "paperlint.toml"
    config.write_text(f'[lean]\nproject_dir = "{project}"\n')
    fixture = ROOT / "fixtures" / "sample-variance"
    workdir = tmp_path / "ws"
    argv = ["check", str(fixture / "paper.tex"), "--replay", str(fixture / "replay")]
    assert run([*argv, "--config", str(config), "--workdir", str(workdir)]) == 1
    versions = tomllib.loads((workdir / "paperlint.toml").read_text())["versions"]
    assert versions["lean_toolchain"] == "leanprover/lean4:v4.99.0"
    assert status_rows(workdir, why=True)[2] == []
    (project / "lean-toolchain").write_text("leanprover/lean4:v5.0.0\n")
    assert status_rows(workdir, why=True)[2] == ["toolchain-changed"]
