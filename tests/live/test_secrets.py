"""Secrets by value (issue #29): keys of several shapes, echoed back by the provider in its
error messages (as real providers do), appear in no file of the workspace, no report and no
terminal output. Before, only `sk-…`-shaped keys were masked, by pattern."""

from __future__ import annotations

import html
import json

import pytest

from paperlint.agents.transcript import TranscriptKey
from paperlint.cli.root import run
from tests.live.conftest import REPLAY, check_argv, events, write_config
from tests.live.loopback import Fault, LoopbackProvider

KEYS = {
    "architect": ("KEY_OPENAI", "sk-proj-" + "Ab3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5"),
    "drafter": ("KEY_UUID", "4f3c2b1a-9d8e-4c7b-a6f5-0e1d2c3b4a59"),
    "gate": ("KEY_BASE64", "dGhpcyBpcyBhIHNlY3JldA+/xYz=="),
    "auditor": ("KEY_ODD", 'pa$$"w<0>rd&key\\zz'),
    "issue_checker": ("KEY_HEX", "9f86d081884c7d659a2feaa0c55ad015"),
}


@pytest.fixture
def keys(monkeypatch):
    for env, value in KEYS.values():
        monkeypatch.setenv(env, value)


def config_with_keys(tmp_path, url):
    tables = ""
    for role, (env, _) in KEYS.items():
        tables += f'\n[roles.{role}]\napi_base = "{url}"\napi_key_env = "{env}"\ntimeout_s = 5\n'
    return write_config(tmp_path, url, key_env="KEY_OPENAI", extra=tables)


def leaks(text: str) -> list[str]:
    found = []
    for role, (_, value) in KEYS.items():
        shapes = {value, json.dumps(value)[1:-1], html.escape(value), repr(value)[1:-1]}
        found += [f"{role}: {shape!r}" for shape in shapes if shape in text]
    return found


def test_keys_echoed_by_the_provider_reach_no_file_and_no_output(tmp_path, keys, capsys):
    echoed: set[str] = set()
    stop = [True]

    def faults(number: int, key: TranscriptKey | None) -> Fault | None:
        if key is None:
            return None
        if key.task == "auditor" and stop[0]:
            return Fault(401, echo_key=True)  # the run stops: records, stderr, report
        if key.task not in echoed:
            echoed.add(key.task)
            return Fault(429, {"retry-after": "0"}, echo_key=True)  # a retry event, waited out
        return None

    workdir = tmp_path / "ws"
    with LoopbackProvider(REPLAY / "transcript.jsonl", faults=faults) as server:
        config = config_with_keys(tmp_path, server.url)
        assert run(check_argv(tmp_path, config)) == 4
        first = capsys.readouterr()
        assert "Incorrect API key provided: [redacted]" in first.out + first.err
        # a live run with recorded Lean answers is not labelled a replay
        assert "REPLAY" not in first.out and "live models, recorded Lean answers" in first.out
        stop[0] = False
        assert run(["resume", str(workdir)]) == 1
        assert run(["report", str(workdir), "--format", "html"]) == 0
        second = capsys.readouterr()
        sent = {s.headers["authorization"] for s in server.seen}
    assert sent == {f"Bearer {value}" for _, value in KEYS.values()}  # every key was used
    retries = [e for e in events(workdir) if e["type"] == "retry"]
    assert set(KEYS) <= {r["role"] for r in retries}  # every key was echoed into an event
    assert all("[redacted]" in r["error"] for r in retries)
    assert leaks(first.out + first.err + second.out + second.err) == []
    files = [p for p in workdir.rglob("*") if p.is_file()]
    assert any(p.name == "report.html" for p in files) and any(
        "snapshots" in p.parts for p in files
    )
    for path in files:
        assert leaks(path.read_bytes().decode("utf-8", "replace")) == [], path
