"""Prompt hashes in transcripts and events, and template drift as a note (issue #11, #12)."""

from __future__ import annotations

import json
import shutil

import pytest

from paperlint.agents import prompts
from paperlint.agents.inputs import INPUT_MODELS
from paperlint.agents.prompts import inputs_sha256, render_prompt, template_hashes, template_sha256
from paperlint.agents.runner import AgentCall, AgentRunner
from paperlint.agents.scripted import ScriptedClient
from paperlint.agents.transcript import TRANSCRIPT_FILE, RecordingClient, stamp_prompt_hashes
from paperlint.config import Config
from paperlint.records.drift import template_drift_notes

from .conftest import MINIMAL_INPUTS, VALID_ANSWERS, entry
from .test_clients import FakeLiveClient

CALL = AgentCall(task="gate", role="gate", result="lem:median", inputs=MINIMAL_INPUTS["gate"])


def _drift(events):
    return template_drift_notes(events, template_hashes())


@pytest.fixture
def edited_templates(tmp_path, monkeypatch):
    """The packaged templates copied to a folder the test may edit; hashes recomputed."""
    folder = tmp_path / "templates"
    shutil.copytree(prompts.TEMPLATE_DIR, folder)
    monkeypatch.setattr(prompts, "TEMPLATE_DIR", folder)
    prompts._template_sha256.cache_clear()
    prompts._environment.cache_clear()
    yield folder
    prompts._template_sha256.cache_clear()
    prompts._environment.cache_clear()


def test_references_are_found_as_jinja_finds_them_in_every_template() -> None:
    """The hash follows includes without parsing: the regex finds what jinja2 finds."""
    from jinja2 import meta

    env = prompts._environment()
    templates = sorted(prompts.TEMPLATE_DIR.glob("*.j2"))
    assert len(templates) >= 10
    for path in templates:
        source = path.read_text(encoding="utf-8")
        by_jinja = [n for n in meta.find_referenced_templates(env.parse(source)) if n]
        assert prompts.referenced_templates(source) == by_jinja, path.name
    tricky = '{%- include "_a.j2" -%}\n{% import \'_b.j2\' as b %}{% from "_c.j2" import x %}'
    by_jinja = list(meta.find_referenced_templates(env.parse(tricky)))
    assert prompts.referenced_templates(tricky) == by_jinja == ["_a.j2", "_b.j2", "_c.j2"]


def test_template_hash_is_per_task_and_stable() -> None:
    hashes = {task: template_sha256(task) for task in prompts.TASKS}
    assert len(set(hashes.values())) == len(hashes)
    assert all(len(h) == 64 for h in hashes.values())
    assert template_sha256("gate") == hashes["gate"]
    with pytest.raises(ValueError, match="unknown task"):
        template_sha256("poet")


def test_template_hash_follows_the_task_template_and_its_includes(edited_templates) -> None:
    before = {task: template_sha256(task) for task in prompts.TASKS}
    path = edited_templates / "gate.j2"
    path.write_text(path.read_text() + "\n{# reworded #}\n")
    prompts._template_sha256.cache_clear()
    after = {task: template_sha256(task) for task in prompts.TASKS}
    assert after["gate"] != before["gate"]
    assert all(after[t] == before[t] for t in prompts.TASKS if t != "gate")
    shared = edited_templates / "_output.j2"  # included by every task
    shared.write_text(shared.read_text() + "\n")
    prompts._template_sha256.cache_clear()
    assert all(template_sha256(t) != after[t] for t in prompts.TASKS)


def test_inputs_hash_is_canonical_and_tracks_values() -> None:
    a = {"x": 1, "y": ["é", 2]}
    assert inputs_sha256(a) == inputs_sha256({"y": ["é", 2], "x": 1})
    assert inputs_sha256(a) != inputs_sha256({"x": 2, "y": ["é", 2]})
    inputs = INPUT_MODELS["gate"].model_validate(MINIMAL_INPUTS["gate"]).model_dump(mode="json")
    prompt = render_prompt("gate", inputs)
    assert prompt.template_sha256 == template_sha256("gate")
    assert prompt.inputs_sha256 == inputs_sha256(inputs)


def test_a_recorded_live_run_keeps_template_and_inputs_hashes(tmp_path) -> None:
    replay = tmp_path / "replay"
    events: list[dict] = []
    runner = AgentRunner(
        Config(),
        client=RecordingClient(FakeLiveClient(), replay),
        on_event=lambda e: events.append(e.as_event()),
    )
    runner.call(CALL, model="fake/live")
    [line] = (replay / TRANSCRIPT_FILE).read_text().splitlines()
    data = json.loads(line)
    assert data["template_sha256"] == template_sha256("gate")
    assert data["inputs_sha256"] and data["inputs_sha256"] == events[0]["inputs_sha256"]
    assert events[0]["template_sha256"] == template_sha256("gate")
    assert events[0]["template_drift"] is False


def test_replay_of_an_answer_from_another_template_is_drift_not_failure(write_transcript):
    old = {**entry("gate", VALID_ANSWERS["gate"]), "template_sha256": "a" * 64}
    events: list[dict] = []
    runner = AgentRunner(Config(), client=ScriptedClient(write_transcript(old)),
                         on_event=lambda e: events.append(e.as_event()))  # fmt: skip
    reply = runner.call(CALL, model="paperlint-replay/gate")
    assert reply.output.decision == "PASS"  # served all the same
    assert events[0]["template_drift"] is True
    assert _drift(events)[-1].startswith("prompt template drift: 1 replayed")


def test_same_template_is_no_drift(write_transcript):
    same = {**entry("gate", VALID_ANSWERS["gate"]), "template_sha256": template_sha256("gate")}
    events: list[dict] = []
    runner = AgentRunner(Config(), client=ScriptedClient(write_transcript(same)),
                         on_event=lambda e: events.append(e.as_event()))  # fmt: skip
    runner.call(CALL, model="paperlint-replay/gate")
    assert events[0]["template_drift"] is False and _drift(events) == []


def _call_event(task: str, template: str | None, ok: bool = True) -> dict:
    return {"type": "model_call", "task": task, "ok": ok, "template_sha256": template}


def test_drift_notes_compare_recorded_templates_with_today() -> None:
    events = [
        _call_event("gate", template_sha256("gate")),
        _call_event("prover", "b" * 64),
        _call_event("prover", "c" * 64),
        _call_event("prover", "d" * 64, ok=False),  # a failed parse made no answer
        _call_event("auditor", None),  # recorded before hashes existed: nothing to compare
        _call_event("poet", "e" * 64),  # not a task of this paperlint
    ]
    [note] = _drift(events)
    assert note.startswith("prompt template drift: 2 prover answer(s)")
    assert "bbbbbbbbbbbb" in note and "cccccccccccc" in note and template_sha256("prover")[:12]
    assert "verdicts are unchanged" in note


def test_stamping_writes_all_three_hashes(write_transcript) -> None:
    replay = write_transcript(entry("gate", VALID_ANSWERS["gate"]))
    events: list[dict] = []
    AgentRunner(
        Config(), client=ScriptedClient(replay), on_event=lambda e: events.append(e.as_event())
    ).call(CALL, model="paperlint-replay/gate")
    assert stamp_prompt_hashes(replay / TRANSCRIPT_FILE, events) == 1
    data = json.loads((replay / TRANSCRIPT_FILE).read_text())
    assert data["template_sha256"] == template_sha256("gate")
    assert data["prompt_sha256"] == events[0]["prompt_sha256"]
    assert data["inputs_sha256"] == events[0]["inputs_sha256"]
    assert stamp_prompt_hashes(replay / TRANSCRIPT_FILE, events) == 0
