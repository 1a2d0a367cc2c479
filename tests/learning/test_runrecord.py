"""The per-user run record: entries from a real (replayed) check, appends, torn lines, CLI."""

import json
import multiprocessing
import shutil
from pathlib import Path

import pytest

from paperlint.cli.root import run
from paperlint.errors import InputError
from paperlint.learning.runrecord import (
    Features,
    append_entries,
    entries_of_workspace,
    read_entries,
    read_workspace,
    record_path,
    statement_features,
    summarise,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("text", "name", "constants", "area"),
    [
        (
            "theorem t (a b : ℝ) : paperMean a b ≤ max a b := by simp",
            "t",
            ["max", "paperMean", "ℝ"],
            "analysis",
        ),
        (
            "lemma helper : True := trivial\n"
            "theorem t (s : Finset ℕ) (h : ∀ n ∈ s, 0 < n) : 0 ≤ Finset.card s := by omega",
            "t",
            ["Finset", "Finset.card", "ℕ"],
            "combinatorics",
        ),
        (
            "theorem t {n : ℕ} : Nat.succ n ≠ 0 := Nat.succ_ne_zero n",
            "t",
            ["Nat.succ", "ℕ"],
            "number_theory",
        ),
        ("-- theorem t : Real.pi > 3 := sorry\ntheorem u : True := trivial", "t", None, None),
        ("theorem t : x = x := rfl", "missing", None, None),
    ],
)
def test_statement_features(text, name, constants, area):
    got = statement_features(text, name)
    if constants is None:
        assert got == Features()
    else:
        assert (got.constants, got.area) == (constants, area)
        assert got.statement_chars == len(
            text[
                text.index(f"theorem {name}") : text.index(":=", text.index(f"theorem {name}"))
            ].strip()
        )


def test_entries_of_the_example(example_workspace):
    entries = read_workspace(example_workspace)
    by_id = {e.result: e for e in entries}
    key = json.loads(
        (
            Path(__file__).resolve().parents[2] / "fixtures/sample-variance/answer-key.json"
        ).read_text()
    )
    verdict_bearing = [
        r
        for r in json.loads((example_workspace / "results.json").read_text())["results"]
        if r["verdict_bearing"]
    ]
    assert set(by_id) == {r["id"] for r in verdict_bearing}
    assert key  # the answer key exists; verdict details are checked in tests/engine
    lem = by_id["lem:mean-max"]
    assert (lem.outcome, lem.detail, lem.replay) == ("verified", "verified_unconditional", True)
    assert lem.obligations == 2 and lem.prover_calls == 2
    assert lem.features.constants == ["max", "paperMean", "ℝ"]
    assert lem.cost_usd is None  # replayed calls carry no price
    assert {e.outcome for e in entries} == {"verified", "issue"}
    assert len({e.paper_sha256 for e in entries}) == 1


def test_entries_skip_results_without_an_outcome():
    results = {"results": [{"id": "a", "kind": "lemma", "verdict": None, "unfinished": None}]}
    assert entries_of_workspace(inventory={}, results=results, events=[], lean_files={}) == []


def test_unfinished_and_priced_calls():
    results = {
        "replay": False,
        "results": [
            {
                "id": "a",
                "kind": "lemma",
                "verdict": None,
                "unfinished": {"reason": "budget_exhausted"},
            },
            {"id": "b", "kind": "definition", "verdict_bearing": False, "verdict": None},
        ],
    }
    events = [
        {"type": "run_started", "ts": "T0"},
        {
            "type": "model_call",
            "result": "a",
            "role": "prover",
            "obligation": "s1",
            "cost_usd": 0.25,
        },
        {"type": "model_call", "result": "a", "role": "drafter", "cost_usd": 0.5},
        {"type": "strategy_chosen", "result": "a", "strategy": "search-first"},
    ]
    [entry] = entries_of_workspace(inventory={}, results=results, events=events, lean_files={})
    assert (entry.outcome, entry.detail, entry.strategy, entry.at) == (
        "unfinished",
        "budget_exhausted",
        "search-first",
        "T0",
    )
    assert (entry.model_calls, entry.prover_calls, entry.cost_usd, entry.obligations) == (
        2,
        1,
        0.75,
        1,
    )


def test_append_read_round_trip_and_torn_lines(example_workspace, data_dir):
    entries = read_workspace(example_workspace)
    path = append_entries(data_dir, entries)
    with path.open("a") as fh:
        fh.write('{"schema": "something/else"}\n{"torn": ')
    read = read_entries(data_dir)
    assert read.entries == entries
    assert read.skipped == 2
    assert oct(path.stat().st_mode & 0o777) == "0o644"


def _append(args):
    folder, entries = args
    for _ in range(20):
        append_entries(Path(folder), entries)


def test_concurrent_appends_never_interleave(example_workspace, data_dir):
    entries = read_workspace(example_workspace)
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_append, args=((str(data_dir), entries),)) for _ in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    read = read_entries(data_dir)
    assert read.skipped == 0
    assert len(read.entries) == 4 * 20 * len(entries)


def test_summary_leaves_replays_out_unless_asked(example_workspace):
    entries = read_workspace(example_workspace)
    assert summarise(entries) == []
    rows = {(r.group, r.strategy): r for r in summarise(entries, live_only=False)}
    assert rows[("lemma", "baseline")].verified == 2
    by_area = {r.group for r in summarise(entries, by="area", live_only=False)}
    assert "analysis" in by_area


def test_read_workspace_refuses_a_non_workspace(tmp_path):
    with pytest.raises(InputError, match="cannot read"):
        read_workspace(tmp_path)


def test_cli_runs_add_summary_choose(example_workspace, data_dir, capsys):
    assert run(["runs", "add", str(example_workspace)]) == 0
    assert f"{record_path(data_dir)}: 4 entr" in capsys.readouterr().out
    assert run(["runs", "--replays", "--format", "json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["entries"] == 4 and payload["skipped_lines"] == 0
    assert {r["group"] for r in payload["rows"]} == {"lemma", "proposition", "theorem"}
    assert run(["runs"]) == 0
    assert "replays left out" in capsys.readouterr().out
    assert run(["runs", "choose", "lemma", "--min-trials", "0", "--format", "json"]) == 0
    choice = json.loads(capsys.readouterr().out)
    assert choice["phase"] == "explore" and choice["tries"]["baseline"] == 0  # replays excluded


@pytest.mark.parametrize(
    "argv",
    [
        ["runs", "--format", "yaml"],
        ["runs", "--by", "planet"],
        ["runs", "choose", "lemma", "--min-trials", "-1"],
        ["runs", "add", "/nonexistent/ws"],
    ],
)
def test_cli_bad_input_is_exit_2(argv, capsys):
    assert run(argv) == 2
    assert capsys.readouterr().err.strip()


def _as_live(workspace: Path, target: Path) -> Path:
    """A copy of a replayed workspace whose records say it was a live check."""
    shutil.copytree(workspace, target)
    results = json.loads((target / "results.json").read_text(encoding="utf-8"))
    (target / "results.json").write_text(json.dumps({**results, "replay": False}))
    return target


def test_only_real_trials_are_recorded(example_workspace, data_dir, tmp_path):
    """A replay, a check without a model, and a result that never reached a model teach the
    chooser nothing: record_check leaves them out, and the chooser ignores an older record's."""
    from paperlint.learning.runrecord import is_real_trial, record_check
    from paperlint.learning.strategy import trials_of

    assert record_check(data_dir, example_workspace) == 0  # a replay
    live = read_workspace(_as_live(example_workspace, tmp_path / "live"))
    assert live and all(is_real_trial(e) for e in live)
    untried = [e.model_copy(update={"model_calls": 0, "prover_calls": 0}) for e in live]
    assert not any(is_real_trial(e) for e in untried)
    assert trials_of(untried) == [] and summarise(untried) == []
    assert len(trials_of(live)) == len(live)

    paper = tmp_path / "paper" / "paper.tex"
    paper.parent.mkdir()
    paper.write_text((ROOT / "fixtures/proportions/paper.tex").read_text(encoding="utf-8"))
    assert run(["check", str(paper), "-q"]) == 4  # no model configured: unfinished
    assert read_entries(data_dir).entries == []  # nothing recorded


def test_recording_a_check_again_adds_nothing_and_reads_only_its_own_lines(
    example_workspace, data_dir, tmp_path
):
    from paperlint.learning.runrecord import record_check

    example_workspace = _as_live(example_workspace, tmp_path / "live")
    entries = read_workspace(example_workspace)
    other = [e.model_copy(update={"at": "1999-01-01T00:00:00.000+00:00"}) for e in entries]
    path = append_entries(data_dir, other)
    with path.open("a") as fh:
        fh.write('{"torn": \n')  # a line no check spells: never parsed when filtered
    assert record_check(data_dir, example_workspace) == len(entries)
    assert record_check(data_dir, example_workspace) == 0  # a resume adds only what is new
    mine = read_entries(data_dir, checks={entries[0].at})
    assert mine.entries == entries and mine.skipped == 0
    assert read_entries(data_dir).entries == other + entries
    assert read_entries(data_dir).skipped == 1


def test_a_replay_chooses_alike_whatever_the_users_record_holds(
    example_workspace, data_dir, tmp_path
):
    """A replay takes nothing from the user's record, so two replays of one fixture choose and
    report the same strategies (the record once made them differ: "17 of 20" vs "19 of 20")."""
    live = read_workspace(_as_live(example_workspace, tmp_path / "live"))
    days = [f"2026-01-{day:02d}T00:00:00+00:00" for day in range(1, 31)]
    append_entries(data_dir, [e.model_copy(update={"at": at}) for at in days for e in live])
    assert len(read_entries(data_dir).entries) == 30 * len(live)  # past the 20 trials
    fixture = ROOT / "fixtures" / "sample-variance"
    argv = ["check", str(fixture / "paper.tex"), "--replay", str(fixture / "replay"), "-q"]
    assert run([*argv, "--workdir", str(tmp_path / "a")]) == 1
    strategies = (tmp_path / "a" / "strategy.json").read_text(encoding="utf-8")
    assert (example_workspace / "strategy.json").read_text(encoding="utf-8") == strategies
    assert '"records": 0' in strategies or '"records":0' in strategies
