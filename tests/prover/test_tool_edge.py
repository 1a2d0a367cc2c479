"""Which prove path a run takes (`[prover] tool_loop`, issue #13): the tool loop when a replay
holds recorded tool turns or the first prover model calls tools; the one-shot completion for
the older fixtures, whose replays hold no `prover-turns.jsonl`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from paperlint.config import Config
from paperlint.engine.opening import Learned, derive, models_of, tool_edge
from paperlint.lean.replay import ReplayVerifier
from paperlint.prover.model import ScriptedToolModel
from paperlint.prover.probe import ScriptedProbe
from paperlint.spec import Edges, spec_for

ROOT = Path(__file__).resolve().parents[2]


def _config(tool_loop: str = "auto") -> Config:
    return Config.model_validate({"prover": {"tool_loop": tool_loop}})


def _opened(config: Config, fixture: str) -> tuple[bool, Any]:
    """Whether the run's tool loop is on, and its edges when it is (as `open_run` builds them)."""
    replay = ROOT / "fixtures" / fixture / "replay"
    spec = spec_for(config, ROOT / "fixtures" / fixture / "paper.tex", edges=Edges(replay=replay))
    settings, _ = derive(spec, models_of(spec), Learned())
    return settings.tool_loop, tool_edge(
        spec, ReplayVerifier(replay)
    ) if settings.tool_loop else None


def test_a_replay_with_recorded_tool_turns_runs_the_tool_loop() -> None:
    on, tools = _opened(_config(), "tool-loop")
    assert tools is not None
    assert isinstance(tools.model, ScriptedToolModel)
    assert isinstance(tools.probe, ScriptedProbe)
    assert tools.index is not None and tools.index.get("le_max_left")
    assert on


@pytest.mark.parametrize("fixture", ["sample-variance", "proportions", "library-reuse"])
def test_a_replay_without_tool_turns_keeps_the_one_shot_path(fixture: str) -> None:
    on, tools = _opened(_config(), fixture)
    assert tools is None
    assert not on


def test_tool_loop_off_never_builds_the_tool_edge() -> None:
    on, tools = _opened(_config("off"), "tool-loop")
    assert tools is None
    assert not on


def test_a_provider_failure_inside_the_loop_stops_the_run_resumably() -> None:
    """A rate limit (litellm's own exception) becomes ModelUnavailableError: the engine records
    a soft `model_unavailable` and `resume` continues from the turn log."""
    from paperlint.agents.client import import_litellm
    from paperlint.agents.faults import ModelUnavailableError
    from paperlint.engine.steps.toolloop import guarded

    litellm = import_litellm()

    def limited() -> Any:
        raise litellm.RateLimitError(message="slow down", llm_provider="openai", model="m")

    with pytest.raises(ModelUnavailableError, match="slow down"):
        guarded(limited, "openai/m")

    def bug() -> Any:
        raise KeyError("not a provider failure")

    with pytest.raises(KeyError):
        guarded(bug, "openai/m")


def test_recorded_turns_and_probe_answers_replay_as_they_were(tmp_path: Path) -> None:
    """`check --record DIR` wraps the live tool model and probe; what they write is what
    `ScriptedToolModel.load` and `ScriptedProbe.load` serve (here: a scripted inner edge)."""
    from paperlint.lean.verifier import LeanContext
    from paperlint.prover.model import RecordingToolModel, ToolTurn, TurnKey
    from paperlint.prover.probe import RecordingProbe

    key = TurnKey("prover", "lem:a", "main", 1, 1)
    reply = ToolTurn(text="look", tokens_in=10)
    model = RecordingToolModel(ScriptedToolModel({key: reply}), tmp_path)
    model.turn("m", [{"role": "user", "content": "x"}], tools=[], key=key)
    context = LeanContext(header="import Mathlib")
    inner = ScriptedProbe()
    inner.add(context, "#check @le_refl", {"env": 1, "messages": []})
    probe = RecordingProbe(inner, tmp_path)
    probe.command(context, "#check @le_refl", timeout_s=1.0)
    probe.command(context, "#check @unrecorded", timeout_s=1.0)  # no answer: nothing written
    replayed = ScriptedToolModel.load(tmp_path / "prover-turns.jsonl")
    assert replayed.turn("m", [], tools=[], key=key).text == "look"
    served = ScriptedProbe.load(tmp_path / "lean-probe.jsonl")
    assert served.command(context, "#check @le_refl", timeout_s=1.0) == {"env": 1, "messages": []}
    assert len((tmp_path / "lean-probe.jsonl").read_text().splitlines()) == 1
