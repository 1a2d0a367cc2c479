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

from paperlint.lean.final import ProcessRun, final_from_runs, run_process
from paperlint.lean.messages import (
    axiom_query,
    insert_before_trailing_end,
    marked_axiom_queries,
    parse_axiom_answers,
    parse_lean_output,
    parse_marked_axioms,
    parse_repl_axioms,
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
