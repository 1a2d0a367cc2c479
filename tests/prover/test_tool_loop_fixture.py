"""fixtures/tool-loop/, checked END TO END by the engine through the tool loop (issue #13).

The agent answers and tool turns are HAND-AUTHORED and the Lean answers HAND-WRITTEN
(fixtures/tool-loop/replay/author.py); the run is `paperlint check … --replay`, through the real
engine opening. The answer key (written before the run) names how each lemma's obligation was
closed: automation (0 model turns), a search hit the model then used, a `library` suggestion,
and a loop that spends its three turns and ends *unfinished* with the reason and its turns kept.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

from paperlint.prover.loop import TurnLog
from paperlint.prover.model import TurnKey
from tests.engine.conftest import answers_of, check_argv, example, reference_run, run_cli_forked

FIXTURE = example("tool-loop")
KEY = json.loads((FIXTURE / "answer-key.json").read_text(encoding="utf-8"))


def _author() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "tool_loop_author", FIXTURE / "replay" / "author.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _events(workdir: Path) -> list[dict]:
    return [json.loads(line) for line in (workdir / "events.jsonl").read_text().splitlines()]


@pytest.fixture(scope="module")
def run() -> tuple[Path, list[dict]]:
    workdir, code = reference_run("tool-loop")
    assert code == 4  # unfinished results remain, no issue
    return workdir, _events(workdir)


def test_the_replay_files_are_up_to_date(tmp_path: Path) -> None:
    """The committed replay is exactly what author.py writes (models, then Lean by the rules)."""
    author = _author()
    author.write_models(tmp_path)
    author.write_lean(tmp_path)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["declarations.jsonl", "lean.jsonl", "transcript.jsonl"]
    for name in names:
        committed = (FIXTURE / "replay" / name).read_text(encoding="utf-8")
        written = (tmp_path / name).read_text(encoding="utf-8")
        if name == "transcript.jsonl":  # the same answers; the committed one is stamped
            assert answers_of(written) == answers_of(committed)
        else:
            assert written == committed, name


def test_each_lemma_is_closed_as_its_answer_key_says(run: tuple[Path, list[dict]]) -> None:
    _, events = run
    finished = {e["result"]: e for e in events if e["type"] == "prover_finished"}
    assert set(finished) == set(KEY)
    for rid, want in KEY.items():
        got = finished[rid]
        assert got["closed_by"] == want["closed_by"], rid
        assert got["model_turns"] == want["model_turns"], rid
        turns = [e for e in events if e.get("task") == "prover_turn" and e["result"] == rid]
        assert [e["turn"] for e in turns] == list(range(1, want["model_turns"] + 1)), rid
        assert all(e["type"] == "model_call" and e["replay"] for e in turns)


def test_automation_closed_its_lemma_with_zero_model_calls(run: tuple[Path, list[dict]]) -> None:
    _, events = run
    calls = [e for e in events if e["type"] == "model_call" and e["result"] == "lem:sq-pos"]
    assert {e["role"] for e in calls} == {"architect", "drafter", "gate", "auditor"}
    checks = [
        e["kind"] for e in events if e["type"] == "lean_check" and e["result"] == "lem:sq-pos"
    ]
    assert "automation:positivity" in checks


def test_the_search_hit_and_the_library_suggestion_are_in_the_proofs(
    run: tuple[Path, list[dict]],
) -> None:
    workdir, events = run
    finished = {e["result"]: e for e in events if e["type"] == "prover_finished"}
    assert finished["lem:max-left"]["detail"] == "uses le_max_left"
    assert finished["lem:exp-tangent"]["detail"] == "uses Real.add_one_le_exp"
    tools = [(e["result"], e["turn"], e["tool"]) for e in events if e["type"] == "prover_tool"]
    assert ("lem:max-left", 1, "search") in tools and ("lem:exp-tangent", 1, "library") in tools
    results = {r["id"]: r for r in json.loads((workdir / "results.json").read_text())["results"]}
    assert (
        "le_max_left a b"
        in (workdir / results["lem:max-left"]["evidence"]["lean_file"]).read_text()
    )
    exp_file = workdir / results["lem:exp-tangent"]["evidence"]["lean_file"]
    assert "exact Real.add_one_le_exp x" in exp_file.read_text()


def test_the_spent_loop_ends_unfinished_with_its_reason_and_turns(
    run: tuple[Path, list[dict]],
) -> None:
    workdir, _ = run
    results = {r["id"]: r for r in json.loads((workdir / "results.json").read_text())["results"]}
    record = results["lem:fact-pow"]
    assert record["verdict"] == "unfinished"
    assert record["unfinished"]["reason"] == KEY["lem:fact-pow"]["reason"]
    detail = record["unfinished"]["detail"]
    assert detail.startswith("model turns (3) spent before the obligation was proved")
    log = workdir / detail.rsplit(" kept in ", 1)[1]
    recorded = TurnLog(log).load(TurnKey("prover", "lem:fact-pow", "main", 1, 0))
    assert sorted(recorded.replies) == [1, 2, 3]
    assert sorted(recorded.results) == [1, 2, 3]


def test_every_paid_turn_is_charged_before_it_is_asked(run: tuple[Path, list[dict]]) -> None:
    """A prove action's first turn is charged by `action_started`, each further one by a
    `charge` event right before it."""
    _, events = run
    for index, event in enumerate(events):
        if event.get("task") != "prover_turn":
            continue
        before = events[index - 1]
        if event["turn"] == 1:
            assert before["type"] == "action_started" and before["action"]["kind"] == "prove"
        else:
            assert before["type"] == "charge" and before["result"] == event["result"]


def _turn_calls(events: list[dict]) -> list[tuple[str, int]]:
    return [(e["result"], e["turn"]) for e in events if e.get("task") == "prover_turn"]


@pytest.mark.parametrize("where", ["model_call", "charge"])
def test_a_kill_inside_the_loop_resumes_from_the_turn_log(
    tmp_path: Path, run: tuple[Path, list[dict]], where: str
) -> None:
    """Killed right after turn 2 of lem:max-left was paid for (its `model_call`), the resumed
    run asks no turn again: the reply was in the workspace's turn log before the event. Killed
    right after turn 3's charge (before it is asked), the resumed run asks turn 3 (once) and
    replays turns 1 and 2 from the log: every turn is paid for exactly once either way."""
    reference, events = run
    turn = 2 if where == "model_call" else 3
    index = next(
        i
        for i, e in enumerate(events, 1)
        if e["type"] == where
        and e["result"] == "lem:max-left"
        and (e.get("turn") == turn if where == "model_call" else events[i].get("turn") == turn)
    )
    workdir = tmp_path / "ws"
    code = run_cli_forked(
        check_argv("tool-loop", workdir), PAPERLINT_FAILPOINT=f"after-event:{index}"
    )
    assert code == 77
    assert run_cli_forked(["resume", str(workdir)]) == 4
    resumed = _events(workdir)
    assert sorted(_turn_calls(resumed)) == sorted(_turn_calls(events))
    assert json.loads((workdir / "results.json").read_text()) == json.loads(
        (reference / "results.json").read_text()
    )


def test_the_report_says_how_each_obligation_was_closed(run: tuple[Path, list[dict]]) -> None:
    from paperlint.reports.load import load_workspace

    views = {v.id: v.proving for v in load_workspace(run[0]).views}
    assert views == {
        "lem:sq-pos": ("main: closed by automation (`positivity`); 0 model turns, 0 tool calls",),
        "lem:max-left": (
            "main: closed by a search hit the prover then used (uses le_max_left); "
            "3 model turns, 3 tool calls",
        ),
        "lem:exp-tangent": (
            "main: closed by a `library` suggestion (uses Real.add_one_le_exp); "
            "2 model turns, 2 tool calls",
        ),
        "lem:fact-pow": (
            "main: not proved (unfinished): budget_exhausted: model turns (3) spent before the "
            "obligation was proved; 3 model turns, 3 tool calls",
        ),
    }
    markdown = (run[0] / "report" / "report.md").read_text(encoding="utf-8")
    assert "closed by automation" in markdown


def test_the_run_budget_is_checked_before_every_turn_and_resume_continues(
    tmp_path: Path, run: tuple[Path, list[dict]]
) -> None:
    """`--max-calls 9` is spent by lem:max-left's first turn (5 charged for lem:sq-pos, whose
    prove action is charged before automation is known to close it, 3 before lem:max-left's
    prove action, 1 by it): the second turn is refused before it is asked, the
    result is unfinished (budget_exhausted), and `resume --max-calls 100` continues the same
    loop from its turn log, asking turn 1 no second time."""
    reference, events = run
    workdir = tmp_path / "ws"
    code = run_cli_forked([*check_argv("tool-loop", workdir), "--max-calls", "9"])
    assert code == 4
    stopped = _events(workdir)
    assert _turn_calls(stopped) == [("lem:max-left", 1)]
    charged = sum(e["charge"]["calls"] for e in stopped if e["type"] == "action_started")
    assert charged + sum(e["calls"] for e in stopped if e["type"] == "charge") <= 9
    results = {r["id"]: r for r in json.loads((workdir / "results.json").read_text())["results"]}
    assert results["lem:max-left"]["unfinished"]["reason"] == "budget_exhausted"
    assert run_cli_forked(["resume", str(workdir), "--max-calls", "100"]) == 4
    assert sorted(_turn_calls(_events(workdir))) == sorted(_turn_calls(events))
    assert json.loads((workdir / "results.json").read_text()) == json.loads(
        (reference / "results.json").read_text()
    )
