"""paperlint's readers of Lean's output, fed the output of the real Lean 4.35.0.

What Lean prints (measured here, docs/lean-oracle.md): `lean FILE` writes each error and warning
as `FILE:line:col: severity[(name)]: text`, continued on the following lines, and every
information message (`#check`, `#print axioms`, traces) bare, with no position at all; `--json`
writes one object per message. The readers are `messages.py` (`parse_lean_output`, the
marker-wrapped `#print axioms` queries `final.py` appends, `parse_repl_axioms`) and
`final.final_from_runs`, which turns the runs into a verdict; all are driven here through
their public functions on real runs.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from paperlint.lean.final import ProcessRun, final_from_runs, run_process
from paperlint.lean.messages import (
    axiom_query,
    insert_before_trailing_end,
    marked_axiom_queries,
    output_text,
    parse_axiom_answers,
    parse_lean_output,
    parse_marked_axioms,
    parse_repl_axioms,
    read_output,
)
from paperlint.lean.verifier import FailureCode, Outcome

# `String` is all the marker queries need (`#check ("…" : String)`); no `Init` here.
PRELUDE = "prelude\naxiom String : Type\ninductive T : Prop | intro\naxiom cheat : T\n"
PROOFS = (
    "theorem t : T := cheat\ntheorem u : T := T.intro\nnamespace N\ntheorem v : T := u\nend N\n"
)


def _run(lean: Path, folder: Path, text: str, *args: str, name: str = "T.lean") -> ProcessRun:
    (folder / name).write_text(text, encoding="utf-8")
    return run_process([str(lean), *args, name], folder, timeout_s=120, memory_mb=None)


def test_errors_and_warnings_are_read_where_lean_puts_them(lean_oracle: Path, tmp_path: Path):
    text = PRELUDE + (
        "#check T.intro\n"
        "theorem v : T := nope\n"
        "theorem w : T := by\n"
        "  exact T.intro\n"
        "#check (T.intro :\n"
        "  T)\n"
        "#exit\n"
    )
    plain = _run(lean_oracle, tmp_path, text)
    as_json = [
        json.loads(line) for line in _run(lean_oracle, tmp_path, text, "--json").output.splitlines()
    ]
    parsed = parse_lean_output(plain.output)
    assert plain.exit_code == 1
    for message in as_json:
        if message["severity"] == "information":
            # bare in the text output: its lines are there, with no position
            assert all(line in plain.output.splitlines() for line in message["data"].splitlines())
            assert f":{message['pos']['line']}:{message['pos']['column']}: info" not in plain.output
            continue
        found = [
            m
            for m in parsed
            if (m.line, m.column, m.severity)
            == (message["pos"]["line"], message["pos"]["column"], message["severity"])
        ]
        assert len(found) == 1, message
        assert found[0].text.startswith(message["data"])  # Lean's whole text, maybe more
    errors = [m for m in parsed if m.severity == "error"]
    assert len(errors) == sum(m["severity"] == "error" for m in as_json) == 4
    assert errors[0].text == "Unknown identifier `nope`"  # the `error(lean.…)` tag is read
    # The bare `T.intro : T` before any header is a message without a position.
    assert parsed[0].line == 0 and parsed[0].text == "T.intro : T"


def test_marked_axiom_queries_read_real_answers(lean_oracle: Path, tmp_path: Path):
    text = PRELUDE + PROOFS
    salt = hashlib.sha256(text.encode()).hexdigest()
    names = ["t", "u", "N.v"]
    copy = insert_before_trailing_end(text, marked_axiom_queries(names, salt))
    assert copy.rstrip().endswith("end N")  # the queries went in before the closing `end`
    run = _run(lean_oracle, tmp_path, copy)
    assert run.exit_code == 0, run.output
    found, problems = parse_marked_axioms(run.output, names, salt)
    assert (found, problems) == ({"t": ("cheat",), "u": (), "N.v": ()}, [])
    # Another file's markers (another salt) find nothing here: fail-closed.
    other, problems = parse_marked_axioms(run.output, names, "0" * 64)
    assert set(other.values()) == {None} and len(problems) == 3


def test_the_verdict_from_real_runs(lean_oracle: Path, tmp_path: Path):
    text = PRELUDE + PROOFS
    salt = hashlib.sha256(text.encode()).hexdigest()

    def verdict(names: list[str], source: str = text):
        build = _run(lean_oracle, tmp_path, source)
        copy = insert_before_trailing_end(source, marked_axiom_queries(names, salt))
        axioms = _run(lean_oracle, tmp_path, copy, name="Axioms.lean")
        return final_from_runs(salt, names, build, axioms)

    accepted = verdict(["u", "N.v"])
    assert accepted.outcome is Outcome.ACCEPTED and accepted.axioms == {"u": (), "N.v": ()}
    cheating = verdict(["t", "u"])
    assert (cheating.outcome, cheating.code) == (Outcome.REJECTED, FailureCode.DISALLOWED_AXIOMS)
    assert "t: cheat" in (cheating.hint or "")
    missing = verdict(["gone"])
    assert (missing.outcome, missing.code) == (Outcome.REJECTED, FailureCode.AXIOMS_UNPARSED)
    broken = verdict(["u"], text + "theorem x : T := nope\n")
    assert (broken.outcome, broken.code) == (Outcome.REJECTED, FailureCode.LEAN_ERROR)
    assert broken.errors[0] == "Unknown identifier `nope`" == broken.hint
    # `#exit` hides everything after it, the appended queries too: no answer, no pass.
    exited = verdict(["u"], text + "#exit\n")
    assert exited.exit_code == 0
    assert (exited.outcome, exited.code) == (Outcome.REJECTED, FailureCode.AXIOMS_UNPARSED)


def test_a_long_axiom_list_is_read_whole(lean_oracle: Path, tmp_path: Path):
    names = [f"a_rather_long_axiom_name_number_{i}" for i in range(30)]
    text = PRELUDE + "".join(f"axiom {n} : T\n" for n in names)
    text += "def both (a _b : T) : T := a\n"
    term = "T.intro"
    for name in names:
        term = f"(both {name} {term})"
    text += f"theorem many : T := {term}\n#print axioms many\n"
    run = _run(lean_oracle, tmp_path, text)
    assert run.exit_code == 0, run.output
    assert run.output.count("\n") > 2  # Lean wrapped the list over several lines
    [answer] = parse_axiom_answers(run.output)
    assert answer.name == "many" and sorted(answer.axioms) == sorted(names)


def test_repl_axiom_answers_in_leans_own_message_shape(lean_oracle: Path, tmp_path: Path):
    """The REPL passes Lean's messages on (`pos`, `severity`, `data`): one query per line."""
    names = ["t", "u", "nope"]
    head = PRELUDE + PROOFS
    run = _run(lean_oracle, tmp_path, head + axiom_query(names) + "\n", "--json")
    offset = head.count("\n")
    messages = []
    for line in run.output.splitlines():
        message = json.loads(line)
        message["pos"]["line"] -= offset  # as if the query were sent alone, from line 1
        messages.append(message)
    found, problems = parse_repl_axioms(messages, names)
    assert found == {"t": ("cheat",), "u": (), "nope": None}
    assert len(problems) == 1 and problems[0].startswith("nope:")


# --- `lean --json`: what the final check reads -----------------------------------------------

AFTER_AN_ERROR = (
    PRELUDE
    + PROOFS
    + ('theorem x : T := nope\n#print "an information message\nof two lines"\n#print axioms t\n')
)


def test_json_keeps_each_message_whole_and_apart(lean_oracle: Path, tmp_path: Path):
    """In the text output an information message has no position, so the lines of one that
    follows an error read as that error's continuation; `--json` gives every message its own
    object, position and whole text (`read_output`)."""
    text_run = _run(lean_oracle, tmp_path, AFTER_AN_ERROR)
    json_run = _run(lean_oracle, tmp_path, AFTER_AN_ERROR, "--json")
    assert all(json.loads(line) for line in json_run.output.splitlines())
    from_json = read_output(json_run.output)
    errors = [m.text for m in from_json if m.severity == "error"]
    assert errors[0] == "Unknown identifier `nope`" and len(errors) == 2
    infos = [m for m in from_json if m.severity == "info"]
    assert [m.text for m in infos] == [
        "an information message\nof two lines",
        "'t' depends on axioms: [cheat]",
    ]
    assert [m.line for m in infos] == [AFTER_AN_ERROR.count("\n") - 2, AFTER_AN_ERROR.count("\n")]
    # The text output's reader (kept for recordings from before): the message joins an error.
    from_text = [m.text for m in parse_lean_output(text_run.output) if m.severity == "error"]
    assert from_text[-1].endswith("of two lines")
    # Both readers agree on what the answer readers scan.
    assert "'t' depends on axioms: [cheat]" in output_text(text_run.output)
    assert output_text(json_run.output) == "\n".join(m.text for m in from_json)


def test_json_output_with_a_stray_line_keeps_it_as_a_bare_message():
    line = json.dumps({"severity": "error", "data": "boom", "pos": {"line": 3, "column": 1}})
    found = read_output(f"{line}\nlibc++abi: terminating\n")
    assert [(m.severity, m.line, m.text) for m in found] == [
        ("error", 3, "boom"),
        ("info", 0, "libc++abi: terminating"),
    ]


@pytest.fixture
def final_checker(lean_oracle: Path, tmp_path: Path):
    """The real `FinalChecker` on the real Lean: a stand-in `lake` runs `lake env lean ARGS`
    as `lean ARGS` (the project has no Mathlib; `prelude` files only)."""
    from paperlint.lean.final import FinalChecker
    from paperlint.lean.pins import LeanPaths

    lake = tmp_path / "lake"
    lake.write_text(f'#!/bin/sh\nshift 2\nexec {lean_oracle.resolve()} "$@"\n')
    lake.chmod(0o755)
    project = tmp_path / "project"
    project.mkdir()
    paths = LeanPaths(project=project, cache=tmp_path, repl_dir=tmp_path, lake=str(lake))
    return FinalChecker(paths, sandbox="off")


def test_the_final_check_reads_leans_json(final_checker, tmp_path: Path):
    from paperlint.validate.verified_rules import parsed_axioms, unclean

    clean = tmp_path / "Clean.lean"
    clean.write_text(PRELUDE + PROOFS + '#print "an information message\nof two lines"\n')
    check = final_checker.final_check(clean, ["u", "t"], timeout_s=120)
    assert "--json" in check.command
    assert all(
        json.loads(line) for line in check.output.split("\n--- axioms ---\n")[0].splitlines()
    )
    assert check.axioms == {"u": (), "t": ("cheat",)}  # read from the JSON answers
    assert (check.outcome, check.code) == (Outcome.REJECTED, FailureCode.DISALLOWED_AXIOMS)
    dump = check.model_dump(mode="json")
    assert parsed_axioms(dump, "t") == ("cheat",) and parsed_axioms(dump, "u") == ()
    accepted = final_checker.final_check(clean, ["u"], timeout_s=120)
    assert accepted.outcome is Outcome.ACCEPTED and accepted.errors == ()
    assert unclean(accepted.model_dump(mode="json")) == []  # validate reads the same JSON
    broken = tmp_path / "Broken.lean"
    broken.write_text(AFTER_AN_ERROR)
    failed = final_checker.final_check(broken, ["t"], timeout_s=120)
    assert (failed.outcome, failed.code) == (Outcome.REJECTED, FailureCode.LEAN_ERROR)
    assert failed.errors[0] == "Unknown identifier `nope`" == failed.hint  # whole, no more
    assert not any("of two lines" in e for e in failed.errors)
    assert unclean(failed.model_dump(mode="json"))  # and validate sees the error in the JSON


def test_elaborated_statements_are_read_from_json_messages(lean_oracle: Path, tmp_path: Path):
    """`#paperlint_statement` answers one info message per name; with `--json` its text sits
    in a JSON string, escaped. Stood in for by `#print "…"`, which logs the same kind of
    message (the command itself needs Lean's library)."""
    from paperlint.lean import elaborated
    from paperlint.lean.messages import marker_id

    salt = "0" * 64
    payload = json.dumps(
        {
            "name": "u",
            "entries": [
                {"name": "u", "kind": "theorem", "levels": [], "type": "T", "type_hash": 7}
            ],
        }  # fmt: skip
    )
    answer = f"{elaborated.PREFIX} {marker_id('u', salt)} {payload}"
    statements = _run(lean_oracle, tmp_path, PRELUDE + f"#print {json.dumps(answer)}\n", "--json")
    build = _run(lean_oracle, tmp_path, PRELUDE, "--json")
    axioms = _run(
        lean_oracle, tmp_path, PRELUDE + marked_axiom_queries([], salt), "--json", name="A.lean"
    )
    check = final_from_runs(salt, ["u"], build, axioms, statements=statements)
    found = check.statements["u"]
    assert found is not None and found.entries[0].type == "T" and found.entries[0].type_hash == 7
