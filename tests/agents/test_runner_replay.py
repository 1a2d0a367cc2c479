"""The runner end to end with the scripted replay client (no network, no litellm)."""

import json

import pytest

from paperlint.agents.outputs import OUTPUT_MODELS, GateOutput, ProverOutput
from paperlint.agents.runner import AgentCall, AgentCallError, AgentRunner
from paperlint.agents.scripted import ScriptedClient
from paperlint.config import BudgetConfig, Config
from paperlint.errors import InputError, ModelError

from .conftest import MINIMAL_INPUTS, VALID_ANSWERS, entry


def _runner(replay, events, **budget):
    config = Config(budget=BudgetConfig(**budget))
    return AgentRunner(
        config, client=ScriptedClient(replay), on_event=lambda e: events.append(e.as_event())
    )


def _call(task="gate", **kw):
    from paperlint.agents.runner import TASK_ROLES

    defaults = dict(
        task=task, role=str(TASK_ROLES[task]), result="lem:median", inputs=MINIMAL_INPUTS[task]
    )
    return AgentCall(**{**defaults, **kw})


def test_valid_answer_is_parsed_and_reported_with_unknown_cost(write_transcript):
    replay = write_transcript(entry("gate", VALID_ANSWERS["gate"], usage=(120, 30)))
    events = []
    reply = _runner(replay, events).call(_call(), model="paperlint-replay/gate")
    assert isinstance(reply.output, GateOutput) and reply.output.decision == "PASS"
    assert (reply.tokens_in, reply.tokens_out, reply.cost_usd) == (120, 30, None)
    assert reply.replay and reply.repairs == 0 and reply.requests == 1
    assert reply.model == "paperlint-replay/gate"
    [event] = events
    assert event["type"] == "model_call" and event["ok"] is True
    assert event["tokens_in"] == 120 and event["tokens_out"] == 30 and event["cost_usd"] is None
    assert event["replay"] is True and event["role"] == "gate"
    assert event["prompt_sha256"] == reply.prompt_sha256
    assert event["result"] == "lem:median" and event["obligation"] is None


def test_recorded_cost_is_served(write_transcript):
    replay = write_transcript(entry("gate", VALID_ANSWERS["gate"], cost_usd=0.0123))
    reply = _runner(replay, []).call(_call(), model="paperlint-replay/gate")
    assert reply.cost_usd == pytest.approx(0.0123)


def test_fenced_json_is_accepted(write_transcript):
    text = "Here you go:\n```json\n" + json.dumps(VALID_ANSWERS["gate"]) + "\n```\n"
    replay = write_transcript(entry("gate", text))
    reply = _runner(replay, []).call(_call(), model="paperlint-replay/gate")
    assert reply.output.decision == "PASS"


def test_invalid_json_then_valid_repair(write_transcript):
    replay = write_transcript(
        entry("prover", "{not json", obligation="s1"),
        entry("prover", VALID_ANSWERS["prover"], obligation="s1", repair=1),
    )
    events = []
    reply = _runner(replay, events).call(
        _call("prover", obligation="s1"), model="paperlint-replay/prover"
    )
    assert isinstance(reply.output, ProverOutput)
    assert reply.repairs == 1 and reply.requests == 2
    assert reply.tokens_in == 200
    assert [e["ok"] for e in events] == [False, True]
    assert [e["repair"] for e in events] == [0, 1]
    assert events[0]["prompt_sha256"] != events[1]["prompt_sha256"]


def test_still_invalid_after_repairs_is_a_model_error(write_transcript):
    bad = {"decision": "MAYBE", "fields": []}
    replay = write_transcript(*(entry("gate", bad, repair=r) for r in range(3)))
    events = []
    with pytest.raises(AgentCallError, match="still gave invalid output after 2 re-asks") as err:
        _runner(replay, events, repair_retries=2).call(_call(), model="paperlint-replay/gate")
    assert "decision" in str(err.value)
    assert err.value.requests == 3 and err.value.cost_usd is None
    assert [e["ok"] for e in events] == [False, False, False]


def test_missing_transcript_entry_is_a_model_error_not_an_answer(write_transcript):
    replay = write_transcript(entry("gate", VALID_ANSWERS["gate"], attempt=1))
    with pytest.raises(ModelError, match="replay transcript has no entry for task=gate"):
        _runner(replay, []).call(_call(attempt=2), model="paperlint-replay/gate")


def test_missing_transcript_file_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="replay transcript not found"):
        ScriptedClient(tmp_path / "nowhere")


def test_an_answer_recorded_for_another_prompt_is_a_miss(write_transcript):
    replay = write_transcript(entry("gate", VALID_ANSWERS["gate"], prompt_sha256="0" * 64))
    with pytest.raises(ModelError, match="asked with this prompt; its answers are to other"):
        _runner(replay, []).call(_call(), model="paperlint-replay/gate")


def test_a_changed_template_over_the_same_inputs_is_served_as_drift(write_transcript, tmp_path):
    first = write_transcript(entry("gate", VALID_ANSWERS["gate"]), folder=tmp_path / "a")
    events: list[dict] = []
    _runner(first, events).call(_call(), model="paperlint-replay/gate")
    inputs = events[0]["inputs_sha256"]
    older = entry("gate", VALID_ANSWERS["gate"], prompt_sha256="0" * 64) | {
        "inputs_sha256": inputs,
        "template_sha256": "1" * 64,
    }
    second = write_transcript(older, folder=tmp_path / "b")
    events = []
    reply = _runner(second, events).call(_call(), model="paperlint-replay/gate")
    assert reply.prompt_drift is True
    assert events[0]["prompt_drift"] is True and events[0]["template_drift"] is True


def test_matching_prompt_hash_is_not_drift(write_transcript, tmp_path):
    first = write_transcript(entry("gate", VALID_ANSWERS["gate"]), folder=tmp_path / "a")
    sha = _runner(first, []).call(_call(), model="paperlint-replay/gate").prompt_sha256
    second = write_transcript(
        entry("gate", VALID_ANSWERS["gate"], prompt_sha256=sha), folder=tmp_path / "b"
    )
    assert _runner(second, []).call(_call(), model="paperlint-replay/gate").prompt_drift is False


def test_every_task_round_trips_through_the_replay(write_transcript):
    from paperlint.agents.runner import TASK_ROLES

    replay = write_transcript(*(entry(task, VALID_ANSWERS[task]) for task in TASK_ROLES))
    runner = _runner(replay, [])
    for task in TASK_ROLES:
        reply = runner.call(_call(task), model=runner.ladder(str(TASK_ROLES[task]))[0])
        assert reply.output == OUTPUT_MODELS[task].model_validate(VALID_ANSWERS[task])


def test_failed_attempts_are_trimmed_to_the_configured_few(write_transcript):
    inputs = dict(MINIMAL_INPUTS["prover"])
    inputs["failed_attempts"] = [{"lean": f"try {i}", "feedback": f"error {i}"} for i in range(6)]
    replay = write_transcript(entry("prover", VALID_ANSWERS["prover"]))
    captured = []

    class Spy(ScriptedClient):
        def complete(self, model, messages, *, metadata):
            captured.append(messages[-1]["content"])
            return super().complete(model, messages, metadata=metadata)

    config = Config(budget=BudgetConfig(max_failed_attempts_in_prompt=2))
    AgentRunner(config, client=Spy(replay)).call(
        _call("prover", inputs=inputs), model="paperlint-replay/prover"
    )
    assert "error 5" in captured[0] and "error 4" in captured[0]
    assert "error 3" not in captured[0]


def test_wrong_role_for_task_is_a_programming_error(write_transcript):
    replay = write_transcript(entry("gate", VALID_ANSWERS["gate"]))
    with pytest.raises(ValueError, match="done by role gate"):
        _runner(replay, []).call(_call(role="prover"), model="paperlint-replay/gate")
