"""The prove strategy on the HAND-WRITTEN replay of fixtures/prover_replay/ (see its builder):
automation, a search hit then used, a library suggestion, and a spent budget."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paperlint.lean.extraction import read_extraction
from paperlint.lean.replay import ReplayVerifier
from paperlint.lean.verifier import LeanContext
from paperlint.prover.index import DeclIndex
from paperlint.prover.loop import LoopBudget, TurnLog
from paperlint.prover.strategy import ObligationTask, Prover
from tests.prover import build_prover_replay
from tests.prover.doubles import ScriptedToolModel

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "fixtures" / "prover_replay"
KEY = json.loads((FOLDER / "answers.json").read_text(encoding="utf-8"))
INDEX = DeclIndex(read_extraction(ROOT / "fixtures" / "decl_index" / "extract.jsonl"))


def test_fixtures_are_up_to_date() -> None:
    for name, rows in build_prover_replay.build().items():
        assert (FOLDER / name).read_text(encoding="utf-8") == build_prover_replay.render(name, rows)


def _prover(tmp_path: Path, events: list[dict]) -> tuple[Prover, ScriptedToolModel]:
    model = ScriptedToolModel.load(FOLDER / "turns.jsonl")
    lean = ReplayVerifier(FOLDER)  # its `lean.jsonl`: checks, axioms, probe commands
    prover = Prover(
        verifier=lean,
        probe=lean,
        model=model,
        model_name="paperlint-replay/prover",
        log=TurnLog(tmp_path / "prover-turns.jsonl"),
        index=INDEX,
        budget=LoopBudget(max_turns=3, max_tool_calls=24, max_wall_s=900.0),
        emit=events.append,
    )
    return prover, model


def _task(entry: dict) -> ObligationTask:
    return ObligationTask(
        result=entry["result"],
        obligation=entry["obligation"],
        attempt=1,
        skeleton=entry["skeleton"],
        target=entry["target"],
        step_text=entry["step"],
        context=LeanContext(header=KEY["header"]),
        hidden=frozenset({entry["target"]}),
    )


@pytest.mark.parametrize("entry", KEY["obligations"], ids=lambda e: e["obligation"])
def test_each_obligation_reproduces_its_answer_key(tmp_path: Path, entry: dict) -> None:
    events: list[dict] = []
    prover, model = _prover(tmp_path, events)
    outcome = prover.prove(_task(entry))
    expect = entry["expect"]
    assert (outcome.closed_by.value if outcome.closed_by else None) == expect["closed_by"]
    assert outcome.model_calls == expect["model_calls"] == len(model.asked)
    status = "accepted" if outcome.proof else "unfinished"
    assert status == expect["status"]
    if expect["status"] == "unfinished":
        assert outcome.reason.startswith("budget_exhausted: model turns (3)")
        assert sorted(prover.log.load(model.asked[0]).replies) == [1, 2, 3]  # its recorded turns
    assert events[0]["event"] == "prover_automation"


def test_the_search_obligation_used_the_hit_it_found(tmp_path: Path) -> None:
    entry = next(e for e in KEY["obligations"] if e["obligation"] == "s_search")
    outcome = _prover(tmp_path, [])[0].prove(_task(entry))
    assert outcome.loop is not None and "le_max_left" in outcome.loop.searched
    assert "le_max_left" in outcome.loop.premises_used


def test_the_first_prompt_carries_premises(tmp_path: Path) -> None:
    entry = next(e for e in KEY["obligations"] if e["obligation"] == "s_library")
    outcome = _prover(tmp_path, [])[0].prove(_task(entry))
    assert outcome.first_prompt_chars > 0
