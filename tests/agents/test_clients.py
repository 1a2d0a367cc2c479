import json
import subprocess
import sys
from pathlib import Path

import pytest

from paperlint.agents.client import Completion, LiteLLMClient, make_client
from paperlint.agents.runner import AgentCall, AgentRunner
from paperlint.agents.transcript import TRANSCRIPT_FILE, RecordingClient, Transcript
from paperlint.config import Config
from paperlint.errors import InputError, ModelError

from .conftest import MINIMAL_INPUTS, VALID_ANSWERS, entry


def test_live_client_without_a_model_says_how_to_configure_one():
    client = make_client(Config())
    assert isinstance(client, LiteLLMClient) and client.replay is False
    with pytest.raises(ModelError, match=r"no model configured for role gate; set \[models\]"):
        client.ladder("gate")


def test_live_client_ladder_comes_from_config():
    config = Config.model_validate({"models": {"prover": ["cheap/a", "strong/b"], "gate": "g/c"}})
    client = make_client(config)
    assert client.ladder("prover") == ["cheap/a", "strong/b"]
    assert client.ladder("gate") == ["g/c"]


def test_replay_client_routes_every_role_to_the_provider(write_transcript):
    client = make_client(Config(), write_transcript(entry("gate", VALID_ANSWERS["gate"])))
    assert client.replay is True
    assert client.ladder("prover") == ["paperlint-replay/prover"]


class FakeLiveClient:
    replay = False

    def ladder(self, role):
        return ["fake/live"]

    def complete(self, model, messages, *, metadata):
        return Completion(json.dumps(VALID_ANSWERS["gate"]), 50, 9, 0.01)


def test_recording_a_fake_live_run_makes_a_transcript_the_replay_serves(tmp_path):
    replay = tmp_path / "replay"
    call = AgentCall(task="gate", role="gate", result="lem:median", inputs=MINIMAL_INPUTS["gate"])
    recorded = AgentRunner(Config(), client=RecordingClient(FakeLiveClient(), replay)).call(
        call, model="fake/live"
    )
    [line] = (replay / TRANSCRIPT_FILE).read_text().splitlines()
    data = json.loads(line)
    assert data["task"] == "gate" and data["repair"] == 0 and data["model"] == "fake/live"
    assert data["prompt_sha256"] == recorded.prompt_sha256
    assert data["usage"] == {"prompt_tokens": 50, "completion_tokens": 9}
    assert data["cost_usd"] == 0.01

    events = []
    replayed = AgentRunner(
        Config(),
        client=make_client(Config(), replay),
        on_event=lambda e: events.append(e.as_event()),
    )
    reply = replayed.call(call, model="paperlint-replay/gate")
    assert reply.output == recorded.output and reply.prompt_drift is False
    assert reply.cost_usd == 0.01 and events[0]["replay"] is True


def test_bad_transcript_line_names_file_and_line(tmp_path):
    path = tmp_path / TRANSCRIPT_FILE
    good = json.dumps(entry("gate", "{}"))
    path.write_text(good + "\n" + json.dumps({"task": "gate"}) + "\n")
    with pytest.raises(InputError) as err:
        Transcript.load(path)
    assert err.value.line == 2 and "role" in str(err.value)


def test_duplicate_transcript_key_is_an_error(tmp_path):
    path = tmp_path / TRANSCRIPT_FILE
    line = json.dumps(entry("gate", "{}"))
    path.write_text(line + "\n" + line + "\n")
    with pytest.raises(InputError, match="duplicate transcript entry") as err:
        Transcript.load(path)
    assert err.value.line == 2


def test_agents_runner_import_pulls_in_neither_litellm_nor_jinja2():
    code = (
        "import sys, paperlint.agents.runner, paperlint.config;"
        "print(sorted({'litellm', 'jinja2'} & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_replayed_check_of_the_example_never_imports_litellm(tmp_path):
    """A replay asks no provider: litellm (seconds and ~200 MiB to import) stays unloaded
    through a whole check of the example, report included."""
    root = Path(__file__).resolve().parents[2]
    fixture = root / "fixtures" / "sample-variance"
    code = (
        "import sys\n"
        "from paperlint.cli.root import run\n"
        "print('exit', run(sys.argv[1:]))\n"
        "print('loaded', sorted(m for m in sys.modules if m.split('.')[0] == 'litellm'))\n"
    )
    argv = ["check", str(fixture / "paper.tex"), "--replay", str(fixture / "replay")]
    argv += ["--workdir", str(tmp_path / "ws"), "--quiet"]
    out = subprocess.run(
        [sys.executable, "-c", code, *argv], capture_output=True, text=True, check=True, cwd=root
    )
    assert "loaded []" in out.stdout, out.stdout + out.stderr
    assert (tmp_path / "ws" / "results.json").is_file()
    assert "exit 1" in out.stdout  # the example records an issue


def test_stamped_hashes_make_an_answer_to_another_prompt_a_miss(write_transcript):
    from paperlint.agents.transcript import stamp_prompt_hashes

    replay = write_transcript(entry("gate", VALID_ANSWERS["gate"]))
    call = AgentCall(task="gate", role="gate", result="lem:median", inputs=MINIMAL_INPUTS["gate"])
    events = []
    AgentRunner(
        Config(),
        client=make_client(Config(), replay),
        on_event=lambda e: events.append(e.as_event()),
    ).call(call, model="paperlint-replay/gate")
    path = replay / TRANSCRIPT_FILE
    assert stamp_prompt_hashes(path, events) == 1
    assert stamp_prompt_hashes(path, events) == 0
    [stamped] = Transcript.load(path).entries()
    assert stamped.prompt_sha256 == events[0]["prompt_sha256"]

    changed = AgentCall(
        task="gate",
        role="gate",
        result="lem:median",
        inputs={**MINIMAL_INPUTS["gate"], "lean_feedback": "ok"},
    )
    # The stamped answer is to the first question: asked another, the replay misses.
    with pytest.raises(ModelError, match="asked with this prompt"):
        AgentRunner(Config(), client=make_client(Config(), replay)).call(
            changed, model="paperlint-replay/gate"
        )
    # Stamped from both runs, the key holds one answer per question (the second a copy).
    events.clear()
    AgentRunner(
        Config(),
        client=make_client(
            Config(),
            write_transcript(entry("gate", VALID_ANSWERS["gate"]), folder=replay.parent / "b"),
        ),
        on_event=lambda e: events.append(e.as_event()),
    ).call(changed, model="paperlint-replay/gate")
    first = Transcript.load(path).entries()[0]
    both = [{"type": "model_call", **first.model_dump()}, *events]
    assert stamp_prompt_hashes(path, both) == 1
    assert [e.inputs_sha256 for e in Transcript.load(path).entries()] == [
        first.inputs_sha256,
        events[0]["inputs_sha256"],
    ]
    reply = AgentRunner(Config(), client=make_client(Config(), replay)).call(
        changed, model="paperlint-replay/gate"
    )
    assert reply.prompt_drift is False


def test_a_live_run_imports_litellm_in_the_background_once():
    """`preload_litellm` (called as a live model edge opens) returns at once and imports
    litellm in a daemon thread; a second call starts nothing more."""
    code = (
        "import sys, time\n"
        "from paperlint.agents import client\n"
        "start = time.perf_counter(); client.preload_litellm(); client.preload_litellm()\n"
        "returned = time.perf_counter() - start\n"
        "[thread] = client._PRELOAD; thread.join(120)\n"
        "print(returned < 0.5, 'litellm' in sys.modules, thread.daemon)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "True", "True"], out.stdout + out.stderr
