"""The elaborated-statement comparison, with HAND-WRITTEN Lean answers (no toolchain here).

The answers are shaped exactly like what `#paperlint_statement` prints (one info message per
name, `PAPERLINT_STATEMENT <marker> <json>`) inside the REPL's JSON, or in `lake env lean`'s
text output. An instance hijack leaves the statement's text alone and changes the constant
its `≤` elaborates to; the comparison names what differs."""

from __future__ import annotations

import json
from pathlib import Path

from paperlint.lean import elaborated
from paperlint.lean.elaborated import Elaboration, Entry, changes, command_source, parse, query
from paperlint.lean.final import ProcessRun, final_from_runs
from paperlint.lean.messages import marker_id
from paperlint.lean.replay import ReplayVerifier, key_for_statement
from paperlint.lean.verifier import LeanContext

ROOT = Path(__file__).resolve().parents[2]
GATED_TYPE = "forall (a b : Real), @LE.le.{0} Real Real.instLE (paperMean a b) (max a b)"
HIJACKED_TYPE = "forall (a b : Real), @LE.le.{0} Real myLE (paperMean a b) (max a b)"
MEAN = {
    "name": "paperMean",
    "kind": "def",
    "levels": [],
    "type": "Real -> Real -> Real",
    "type_hash": 11,
    "value": "fun (a b : Real) => HDiv.hDiv (HAdd.hAdd a b) 2",
}


def _payload(name: str, type_text: str, *extra: dict) -> str:
    main = {
        "name": name,
        "kind": "theorem",
        "levels": [],
        "type": type_text,
        "type_hash": 1234,
        "value": None,
    }
    return json.dumps({"name": name, "entries": [main, *extra]}, separators=(",", ":"))


def _message(name: str, salt: str, payload: str) -> dict:
    return {
        "severity": "info",
        "pos": {"line": 40, "column": 0},
        "data": f"PAPERLINT_STATEMENT {marker_id(name, salt)} {payload}",
    }


def test_the_command_source_is_the_lean_project_file_below_its_marker():
    source = command_source(ROOT / "lean-project")
    assert source is not None
    assert source.startswith("namespace PaperlintLean.Statement")
    assert 'elab "#paperlint_statement "' in source and "\nimport " not in source
    text = query(["Paper.main"], "salt", source, declaration="theorem main : True := sorry")
    assert text.startswith("theorem main : True := sorry")
    assert text.rstrip().endswith(
        f'#paperlint_statement "{marker_id("Paper.main", "salt")}" Paper.main'
    )


def test_a_repl_answer_parses_and_equal_answers_compare_equal():
    raw = {"env": 3, "messages": [_message("main", "k", _payload("main", GATED_TYPE, MEAN))]}
    found = parse(elaborated.repl_texts(raw), ["main"], "k")["main"]
    assert found is not None and [e.name for e in found.entries] == ["main", "paperMean"]
    again = parse(elaborated.repl_texts(raw), ["main"], "k")["main"]
    assert again is not None and changes(found, again) == []


def test_an_instance_hijack_is_a_named_difference():
    gated = parse(
        [_message("main", "k", _payload("main", GATED_TYPE, MEAN))["data"]], ["main"], "k"
    )["main"]
    hijack_entry = {
        "name": "myLE",
        "kind": "def",
        "levels": [],
        "type": "LE Real",
        "type_hash": 5,
        "value": "LE.mk fun _ _ => True",
    }
    final = parse(
        [_message("main", "k", _payload("main", HIJACKED_TYPE, MEAN, hijack_entry))["data"]],
        ["main"],
        "k",
    )["main"]
    assert gated is not None and final is not None
    assert changes(gated, final) == [
        "the elaborated type of `main` differs",
        "`myLE` is new in the statement's meaning",
    ]


def test_a_changed_definition_value_is_a_difference():
    other = MEAN | {"value": "fun (a b : Real) => a"}
    gated = Elaboration.of(
        "main",
        [
            Entry.model_validate(MEAN),
            Entry(name="main", kind="theorem", type=GATED_TYPE, type_hash=1),
        ],
    )
    final = Elaboration.of(
        "main",
        [
            Entry.model_validate(other),
            Entry(name="main", kind="theorem", type=GATED_TYPE, type_hash=1),
        ],
    )
    assert changes(gated, final) == ["the elaborated value of `paperMean` differs"]


def test_answers_are_fail_closed():
    good = _message("main", "k", _payload("main", GATED_TYPE))["data"]
    assert parse([good, good], ["main"], "k")["main"] is None  # twice: ambiguous
    assert parse([good], ["main"], "other-salt")["main"] is None  # another query's marker
    missing = f'PAPERLINT_STATEMENT {marker_id("main", "k")} {{"name":"main","missing":true}}'
    assert parse([missing], ["main"], "k")["main"] is None
    assert parse(["PAPERLINT_STATEMENT 0000 {not json"], ["main"], "k")["main"] is None
    gated = parse([good], ["main"], "k")["main"]
    assert gated is not None and changes(gated, None)  # no final answer is a difference


def test_from_record_recomputes_the_digest():
    gated = Elaboration.of(
        "main", [Entry(name="main", kind="theorem", type=GATED_TYPE, type_hash=1)]
    )
    data = gated.model_dump(mode="json")
    assert elaborated.from_record(data) == gated
    data["entries"][0]["type"] = HIJACKED_TYPE  # edited, digest kept
    assert elaborated.from_record(data) is None


def test_the_final_checks_statement_run_is_parsed_from_lake_output():
    sha = "f" * 64
    line = _message("main", sha, _payload("main", GATED_TYPE))["data"]
    run = ProcessRun(exit_code=0, output=f"/tmp/x/Result.lean:40:0: info: {line}\n")
    build = ProcessRun(exit_code=0, output="")
    check = final_from_runs(sha, ["main"], build, None, statements=run)
    assert check.statements["main"] is not None
    assert final_from_runs(sha, ["main"], build, None).statements == {}  # not asked


def test_a_replay_serves_a_recorded_statement_answer(tmp_path):
    context = LeanContext(header="import Mathlib")
    declaration = "theorem main (a b : ℝ) : a ≤ b := by\n  sorry"
    raw = {"env": 2, "messages": [_message("main", context.key(), _payload("main", GATED_TYPE))]}
    entry = {
        "kind": "statement",
        "key": key_for_statement(context, ["main"], declaration),
        "request": {
            "header": context.header,
            "accepted": [],
            "names": ["main"],
            "declaration": declaration,
        },
        "response": raw,
        "note": "hand-written",
    }
    (tmp_path / "lean.jsonl").write_text(json.dumps(entry) + "\n")
    replay = ReplayVerifier(tmp_path)
    found = elaborated.elaborate(replay, context, ["main"], timeout_s=5, declaration=declaration)
    assert found is not None and found["main"] is not None
    assert elaborated.elaborate(replay, context, ["main"], timeout_s=5) is None  # other key
