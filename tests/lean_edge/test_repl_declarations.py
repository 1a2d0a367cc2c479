"""Lean's own parse of an answer: the REPL fork's `declarations` (fixtures/lean/declarations).

Hand-written replays shaped exactly like the fork's `DeclarationInfo` JSON; the code under test
is what a live run uses (`responses.check_from_response`, `verifier.accept`, the warm backend).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from paperlint.lean.pins import LeanPaths
from paperlint.lean.repl_declarations import answer_problems, parse_declarations
from paperlint.lean.responses import check_from_response
from paperlint.lean.verifier import (
    AxiomReport,
    FailureCode,
    LeanCheck,
    LeanContext,
    Outcome,
    accept,
    enforce_declarations,
)
from paperlint.lean.warm import LeanInteractBackend, WarmSettings, WarmVerifier

FOLDER = Path(__file__).resolve().parents[2] / "fixtures" / "lean" / "declarations"
CONTEXT = LeanContext(header="import Mathlib")


def _fixture(case: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FOLDER / f"{case}.json").read_text("utf-8"))
    return data


# case, outcome after Lean's parse is enforced, code, words of the hint
CASES = [
    ("helper_first", Outcome.ACCEPTED, None, ""),
    ("lemma_macro", Outcome.ACCEPTED, None, ""),
    ("upstream_repl", Outcome.ACCEPTED, None, ""),
    ("instance_hijack", Outcome.REJECTED, FailureCode.REFUSED, "instance myLE"),
    ("attribute_instance_def", Outcome.REJECTED, FailureCode.REFUSED, "['instance 10000']"),
    ("macro_expansion", Outcome.REJECTED, FailureCode.REFUSED, "text does not show"),
    ("target_is_definition", Outcome.REJECTED, FailureCode.REFUSED, "main is a definition"),
]  # fmt: skip


@pytest.mark.parametrize(("case", "outcome", "code", "words"), CASES)
def test_case_table(case, outcome, code, words) -> None:
    fx = _fixture(case)
    checked = check_from_response(fx["response"], fx["candidate"])
    assert checked.accepted  # Lean itself reported no error: only the parse can refuse
    enforced = enforce_declarations(checked, fx["candidate"], fx["target"])
    assert (enforced.outcome, enforced.code) == (outcome, code)
    assert words in (enforced.hint or "")


def test_every_fixture_is_in_the_table() -> None:
    assert {p.stem for p in FOLDER.glob("*.json")} == {c[0] for c in CASES}


def test_fields_read_from_the_fork_json() -> None:
    declared = parse_declarations(_fixture("helper_first")["response"])
    assert declared is not None
    helper, main = declared
    assert (helper.name, helper.full_name, helper.kind) == ("helper", "Paper.helper", "theorem")
    assert (main.line, main.end_line, main.type_pp) == (5, 7, "0 < x ^ 2 + 1")
    assert main.matches("main") and main.matches("Paper.main") and main.matches("_root_.Paper.main")
    assert not main.matches("ain") and not main.matches("Other.main")
    assert parse_declarations(_fixture("upstream_repl")["response"]) is None


def test_lean_interact_dump_reads_the_same() -> None:
    """The warm backend sees lean-interact's `model_dump(by_alias, exclude_none)` (nulls
    dropped), a replay sees the REPL's JSON: both parse to the same records."""
    from lean_interact.interface import CommandResponse

    for case in ("helper_first", "attribute_instance_def", "instance_hijack"):
        raw = _fixture(case)["response"]
        dumped = CommandResponse.model_validate(raw).model_dump(by_alias=True, exclude_none=True)
        assert parse_declarations(dumped) == parse_declarations(raw)


def test_prepended_lines_shift_like_messages() -> None:
    declared = parse_declarations(_fixture("helper_first")["response"], prepended_lines=1)
    assert declared is not None and declared[1].line == 4


@pytest.mark.parametrize(
    "bad",
    [
        {"declarations": "x"},
        {"declarations": [1]},
        {"declarations": [{"name": "a", "kind": "theorem"}]},
        {"declarations": [{"name": "a", "fullName": "a", "kind": "theorem", "modifiers": []}]},
        {"declarations": [{"name": "a", "fullName": "a", "kind": "theorem",
                           "modifiers": {"attributes": [3]}}]},
    ],
)  # fmt: skip
def test_malformed_declarations_are_an_incompatible_repl(bad: dict[str, Any]) -> None:
    check = check_from_response({"env": 1, **bad}, "theorem a : True := trivial")
    assert check.outcome is Outcome.UNAVAILABLE and check.code is FailureCode.BACKEND_ERROR


def test_target_twice_or_absent() -> None:
    declared = parse_declarations(_fixture("helper_first")["response"]) or ()
    text = _fixture("helper_first")["candidate"]
    assert answer_problems(declared, text, target="missing") == [
        "Lean's parse declares 0 declarations named missing"
    ]
    assert answer_problems(declared + declared[1:], text, target="main")[-1].endswith(
        "2 declarations named main"
    )


class _Answers:
    """Answers the check with a fixture's response and the axiom query with standard axioms."""

    is_replay = True

    def __init__(self, case: str) -> None:
        self.fx = _fixture(case)

    def check(self, context: LeanContext, candidate: str, *, timeout_s: float) -> LeanCheck:
        return check_from_response(self.fx["response"], candidate, replay=True)

    def print_axioms(self, context, names, *, timeout_s):
        standard = ("propext", "Classical.choice", "Quot.sound")
        return AxiomReport(outcome=Outcome.ACCEPTED, axioms=dict.fromkeys(names, standard))

    def final_check(self, file, names, *, timeout_s):  # pragma: no cover - not used here
        raise NotImplementedError

    def close(self) -> None:
        return None


@pytest.mark.parametrize(("case", "outcome", "code", "words"), CASES)
def test_accept_applies_lean_s_parse(case, outcome, code, words) -> None:
    fx = _fixture(case)
    target = "Paper.main" if case == "helper_first" else fx["target"]
    result = accept(_Answers(case), CONTEXT, fx["candidate"], target, timeout_s=60)
    assert (result.outcome, result.code) == (outcome, code)


class _Server:
    def __init__(self, response: Any) -> None:
        self.response = response
        self.seen: list[Any] = []

    def run(self, request: Any, *, timeout: float) -> Any:
        self.seen.append(request)
        return self.response

    def kill(self) -> None:
        return None

    def get_memory_usage(self) -> float:
        return 1.0


def _paths(tmp: Path) -> LeanPaths:
    return LeanPaths(project=tmp / "p", repl_dir=tmp / "r", cache=tmp / "c", lake="lake")


def test_the_warm_backend_asks_for_declarations_on_candidate_checks(tmp_path: Path) -> None:
    from lean_interact.interface import CommandResponse

    fx = _fixture("helper_first")
    backend = LeanInteractBackend(WarmSettings(paths=_paths(tmp_path)))
    server = _Server(CommandResponse.model_validate(fx["response"]))
    backend._server = server  # type: ignore[assignment]
    warm = WarmVerifier(WarmSettings(paths=_paths(tmp_path)), backend=backend)
    warm._envs[CONTEXT.key()] = 0  # the header is warm already
    check = warm.check(CONTEXT, fx["candidate"], timeout_s=5)
    request = server.seen[-1]
    assert request.declarations is True and request.cmd == fx["candidate"]
    assert check.accepted and check.declarations is not None
    assert [d.full_name for d in check.declarations] == ["Paper.helper", "Paper.main"]
    assert request.model_dump(by_alias=True, exclude_none=True)["declarations"] is True


def _decl(name: str, kind: str, full: str | None = None) -> dict[str, Any]:
    fx = _fixture("lemma_macro")["response"]["declarations"][0]
    return {**fx, "name": name, "fullName": full or name, "kind": kind}


@pytest.mark.parametrize(
    ("text", "declared", "words"),
    [
        ("def sq (n : ℕ) : ℕ := n ^ 2\n\ntheorem main : sq 1 = 1 := by sorry",
         [_decl("sq", "definition"), _decl("main", "theorem")], ""),
        ("namespace P\n\nlemma main : True := by sorry\n\nend P",
         [_decl("main", "theorem", "P.main")], ""),
        ("theorem main : True := by sorry", [_decl("main", "definition")],
         "main is a definition in Lean's parse, not a theorem"),
        ("theorem main : True := by sorry", [_decl("main", "theorem"), _decl("hid", "instance")],
         "Lean parsed `instance hid`, which the text does not show"),
        ("theorem main : True := by sorry", [_decl("other", "theorem")],
         "0 declarations named main"),
    ],
)  # fmt: skip
def test_a_drafted_file_must_agree_with_lean_s_parse(text, declared, words) -> None:
    from paperlint.lean.repl_declarations import statement_problem

    parsed = parse_declarations({"env": 1, "declarations": declared})
    problem = statement_problem(parsed, text)
    assert (words in problem) if words else problem == ""
    assert statement_problem(None, text) == ""  # upstream REPL: the text stands alone


def test_an_upstream_answer_dumped_by_lean_interact_is_no_information() -> None:
    """lean-interact defaults `declarations` to `[]`: its dump of an upstream REPL answer must
    not read as "Lean declared nothing" (that would refuse every proof)."""
    from lean_interact.interface import CommandResponse

    dumped = CommandResponse.model_validate({"env": 3}).model_dump(by_alias=True, exclude_none=True)
    assert dumped["declarations"] == []
    check = check_from_response(dumped, "theorem main : True := trivial")
    assert check.declarations is None
    assert enforce_declarations(check, "theorem main : True := trivial", "main").accepted
