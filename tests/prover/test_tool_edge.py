"""Which prove path a run takes (`[prover] tool_loop`, issue #13), and the tool loop's edges:
its turns go through the one model client every role uses (retries, charging, recording and
replay alike), its probe commands to the run's verifier. The tool loop when a replay holds
recorded turns or the first prover model calls tools; the one-shot completion for the older
fixtures, whose replays hold no turns."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from paperlint.agents.client import Completion, RawToolCall, make_client
from paperlint.agents.runner import AgentCall, AgentRunner
from paperlint.config import Config, RetryConfig
from paperlint.engine.opening import Learned, derive, index_for, models_of
from paperlint.lean.replay import LeanRecorder, ReplayVerifier
from paperlint.lean.verifier import LeanContext
from paperlint.spec import Edges, spec_for

ROOT = Path(__file__).resolve().parents[2]


def _config(tool_loop: str = "auto") -> Config:
    return Config.model_validate({"prover": {"tool_loop": tool_loop}})


def _opened(config: Config, fixture: str) -> tuple[bool, Any]:
    """Whether the run's tool loop is on, and its index when it is (as `open_run` derives)."""
    replay = ROOT / "fixtures" / fixture / "replay"
    spec = spec_for(config, ROOT / "fixtures" / fixture / "paper.tex", edges=Edges(replay=replay))
    models = models_of(spec, make_client(config, replay))
    settings, _ = derive(spec, models, Learned())
    return settings.tool_loop, index_for(spec) if settings.tool_loop else None


def test_a_replay_with_recorded_tool_turns_runs_the_tool_loop() -> None:
    on, index = _opened(_config(), "tool-loop")
    assert on
    assert index is not None and index.get("le_max_left")
    client = make_client(_config(), ROOT / "fixtures/tool-loop/replay")
    assert client.answers_turns() and client.supports_tools("paperlint-replay/prover")


@pytest.mark.parametrize("fixture", ["sample-variance", "proportions", "library-reuse"])
def test_a_replay_without_tool_turns_keeps_the_one_shot_path(fixture: str) -> None:
    on, index = _opened(_config(), fixture)
    assert index is None
    assert not on


def test_tool_loop_off_never_builds_the_tool_edge() -> None:
    on, index = _opened(_config("off"), "tool-loop")
    assert index is None
    assert not on


class _Flaky:
    """A model client whose first request is rate limited, then answers a tool call."""

    replay = False

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []

    def complete(self, model, messages, *, metadata, tools=()) -> Completion:
        import litellm

        self.requests.append({"metadata": metadata, "tools": list(tools)})
        if len(self.requests) == 1:
            raise litellm.RateLimitError("slow down", llm_provider="fake", model=model)
        call = RawToolCall("c1", "search", '{"query": "max"}')
        return Completion("looking", 100, 7, 0.001, tool_calls=(call,))

    def ladder(self, role: str) -> list[str]:
        return ["fake/model"]


def test_a_rate_limit_on_a_turn_is_waited_out_and_the_retry_charged() -> None:
    """A turn goes through the runner every call goes through: a 429 is waited out (was: the
    loop's own client stopped the run at the first one), the retry is charged before it is
    sent, and the answered turn is kept before it is reported."""
    client, events, sleeps, charges, kept = _Flaky(), [], [], [], []

    def before(request: dict[str, Any]) -> None:
        charges.append((request["try"], request["free"], request["turn"]))

    config = Config(retry=RetryConfig(base_delay_s=0.01))
    runner = AgentRunner(
        config,
        client=client,
        on_event=lambda e: events.append(e.as_event()),
        sleep=sleeps.append,
        before_request=before,
    )
    call = AgentCall(task="prover_turn", role="prover", result="lem:a", obligation="main")
    done = runner.turn(
        call, model="fake/model", messages=[], tools=[{"x": 1}], turn=2, keep=kept.append
    )
    assert done.tool_calls[0].name == "search" and kept == [done]
    assert len(client.requests) == 2 and len(sleeps) == 1
    assert charges == [(1, True, 2), (2, False, 2)]  # the retry is no free request
    assert [e["type"] for e in events] == ["retry", "model_call"]
    assert events[-1]["turn"] == 2 and events[-1]["task"] == "prover_turn"
    assert client.requests[0]["tools"] == [{"x": 1}]


class _Narrow:
    """A model client whose small model's window the conversation has outgrown."""

    replay = False

    def __init__(self) -> None:
        self.asked: list[str] = []

    def complete(self, model, messages, *, metadata, tools=()) -> Completion:
        import litellm

        self.asked.append(model)
        if model == "small/model":
            raise litellm.ContextWindowExceededError("too long", model=model, llm_provider="x")
        return Completion("thinking", 100, 7, 0.001, tool_calls=(RawToolCall("c", "search", "{}"),))

    def ladder(self, role: str) -> list[str]:
        return ["small/model", "big/model"]

    def supports_tools(self, model: str) -> bool:
        return True


def test_a_turn_too_long_for_its_model_goes_to_the_next_model_and_stays_there() -> None:
    """A context-window error on a tool-loop turn falls to the ladder's next model, as every
    other call does (was: the run stopped, "model unavailable"); the fallback request is
    charged, and the loop's later turns go straight to the model that took the conversation."""
    from paperlint.prover.model import AgentTurns, TurnKey

    client, events, charges = _Narrow(), [], []
    runner = AgentRunner(
        Config(),
        client=client,
        on_event=lambda e: events.append(e.as_event()),
        before_request=lambda request: charges.append((request["model"], request["free"])),
    )
    turns = AgentTurns(runner)
    key = TurnKey("prover", "lem:a", "main", 1, 1)
    first = turns.turn("small/model", [], tools=[{"x": 1}], key=key, keep=lambda reply: None)
    second = turns.turn(
        "small/model", [], tools=[{"x": 1}], key=key._replace(turn=2), keep=lambda reply: None
    )
    assert (first.model, second.model) == ("big/model", "big/model")
    assert client.asked == ["small/model", "big/model", "big/model"]
    assert charges == [("small/model", True), ("big/model", False), ("big/model", False)]
    assert [e["type"] for e in events] == ["model_fallback", "model_call", "model_call"]
    assert [e["model"] for e in events if e["type"] == "model_call"] == ["big/model"] * 2


def test_recorded_turns_and_probe_answers_replay_as_they_were(tmp_path: Path) -> None:
    """`check --record DIR`: a turn is recorded in the transcript like every model answer (with
    its tool calls) and served back by the replay client; a probe answer is recorded in
    `lean.jsonl` like every Lean answer and served back by the replay verifier."""
    from paperlint.agents.transcript import RecordingClient

    recording = RecordingClient(_Flaky(), tmp_path)
    call = AgentCall(task="prover_turn", role="prover", result="lem:a", obligation="main")
    runner = AgentRunner(Config(retry=RetryConfig(base_delay_s=0.0)), client=recording)
    live = runner.turn(call, model="fake/model", messages=[], tools=[{"x": 1}], turn=1)
    replayed = AgentRunner(Config(), client=make_client(Config(), tmp_path))
    served = replayed.turn(call, model="paperlint-replay/prover", messages=[], tools=[], turn=1)
    assert (served.text, served.tool_calls) == (live.text, live.tool_calls)
    assert replayed.native("paperlint-replay/prover")  # recorded with native tools
    context = LeanContext(header="import Mathlib")
    recorder = LeanRecorder(tmp_path, toolchain=None, mathlib_rev=None)
    answer = {"env": 1, "messages": []}
    recorder.write({"kind": "command", "context": context, "text": "#check @le_refl",
                    "response": answer})  # fmt: skip
    lean = ReplayVerifier(tmp_path)
    assert lean.command(context, "#check @le_refl", timeout_s=1.0) == answer
    assert lean.command(context, "#check @unrecorded", timeout_s=1.0).code == "no_recording"
