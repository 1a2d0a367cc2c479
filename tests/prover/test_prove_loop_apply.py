"""How the prove step's `apply` records a tool loop's endings (issue #13), as pure cases.

A loop that spent its budget ends its obligation (status failed, its reason kept as the
failure's feedback) without a suspicion: the result is *unfinished* (budget_exhausted) with the
loop's reason, and stays so while the result's other obligations are proved. A loop that gave
up with a suspected problem is a give-up like a one-shot one: the Suspicion path.
"""

from __future__ import annotations

from paperlint.agents.outputs import ProverOutput
from paperlint.engine.actions import ActionKind, ProofCheck
from paperlint.engine.apply import apply_one
from paperlint.engine.steps.prove import ProveOutcome
from paperlint.records.results import Stage, UnfinishedReason, Verdict
from paperlint.records.slots import obligations_of, suspicion_of
from paperlint.records.work import Suspicion
from tests.engine.conftest import settings as derived_settings
from tests.engine.test_step_apply import _PROVING, OBLIGATIONS, POLICY, action
from tests.prover.doubles import ScriptedProbe, ScriptedTurns

SPENT = "model turns (3) spent before the obligation was proved; its 3 turns are kept in t.jsonl"


def _looped(
    obligation: str, *, spent: str | None = None, suspected: str | None = None
) -> ProveOutcome:
    accepted = spent is None and suspected is None
    proof = f"theorem t_{obligation} : True := by\n  trivial"
    return ProveOutcome(
        action=action(ActionKind.PROVE, obligation=obligation, attempt=1, model="cheap"),
        prover=ProverOutput(
            lean=proof, gives_up=suspected is not None, suspected_problem=suspected
        ),
        check=ProofCheck(file=f"audits/lem_a/attempts/{obligation}-1.lean", accepted=accepted),
        accepted_text=proof if accepted else None,
        spent=spent,
    )


def test_a_spent_loop_ends_the_obligation_and_the_result_is_unfinished() -> None:
    after = apply_one(_PROVING, _looped("s1", spent=SPENT), POLICY)
    s1 = obligations_of(after.work)[0]
    assert (s1.status, s1.attempts, s1.failures[-1].feedback) == ("failed", 1, SPENT)
    assert suspicion_of(after.work) is None
    assert after.verdict is Verdict.UNFINISHED and after.stage is Stage.PROVING
    assert after.unfinished is not None
    assert after.unfinished.reason is UnfinishedReason.BUDGET_EXHAUSTED
    assert after.unfinished.detail == SPENT


def test_the_result_stays_unfinished_while_its_other_obligations_are_proved() -> None:
    spent = apply_one(_PROVING, _looped("s1", spent=SPENT), POLICY)
    other = OBLIGATIONS[1].id
    after = apply_one(spent, _looped(other), POLICY)
    assert obligations_of(after.work)[1].status == "proved"
    assert after.unfinished is not None and after.unfinished.detail == SPENT


def test_a_loop_that_suspects_the_step_raises_a_suspicion() -> None:
    after = apply_one(_PROVING, _looped("s1", suspected="the step needs n > 0"), POLICY)
    assert suspicion_of(after.work) == Suspicion(obligation="s1", reason="the step needs n > 0")
    assert after.verdict is None


def test_an_accepted_loop_proves_the_obligation() -> None:
    after = apply_one(_PROVING, _looped("s1"), POLICY)
    assert obligations_of(after.work)[0].status == "proved" and after.verdict is None


def test_the_loop_prompt_summarises_failed_attempts_with_their_real_numbers() -> None:
    from paperlint.agents.inputs import FailedAttempt
    from paperlint.engine.steps.prove import _failures
    from paperlint.records.work import FailedProof, Obligation

    failures = [
        FailedProof(attempt=n, model="m", file=f"f{n}", feedback=f"e{n}") for n in (1, 2, 3)
    ]
    ob = Obligation(id="s1", skeleton="theorem t : True := by\n  sorry", failures=failures)
    shown = [FailedAttempt(lean="c2", feedback="e2"), FailedAttempt(lean="c3", feedback="e3")]
    assert _failures(ob, shown) == [
        {"attempt": 2, "tried": "c2", "error": "e2"},
        {"attempt": 3, "tried": "c3", "error": "e3"},
    ]
    assert _failures(ob, []) == []


def test_a_give_up_with_a_suspected_problem_reaches_the_suspicion_path(tmp_path) -> None:
    """The prove step's `run` with the tool loop on (a scripted give_up turn, no Lean needed):
    its outcome carries the suspected problem as a give-up, which `apply` turns into the
    Suspicion the issue checker rules on."""
    from dataclasses import dataclass, field
    from types import SimpleNamespace
    from typing import Any

    from paperlint.agents.outputs import ProofStep
    from paperlint.engine.context import Settings
    from paperlint.engine.steps import prove
    from paperlint.lean.verifier import LeanContext
    from paperlint.prover.model import ToolTurn, TurnKey
    from paperlint.prover.protocol import ToolCall
    from paperlint.records.work import Obligation

    give_up = ToolCall(
        id="c1",
        name="give_up",
        arguments={"reason": "the step needs n > 0", "suspected_problem": True},
    )
    key = TurnKey("prover", "lem:a", "s1", 2, 1)
    model = ScriptedTurns({key: ToolTurn(calls=(give_up,))})

    @dataclass
    class Ws:
        root: Any

        def audit_dir(self, result: str) -> Any:
            return self.root / "audits" / result

        def rel(self, path: Any) -> str:
            return str(path.relative_to(self.root))

    @dataclass
    class Ctx:
        ws: Ws
        settings: Settings
        turns: ScriptedTurns
        verifier: Any = field(default_factory=ScriptedProbe)
        index: Any = None
        order: list[str] = field(default_factory=lambda: ["lem:a"])
        lean_names: dict[str, str] = field(default_factory=dict)
        events: list[dict] = field(default_factory=list)

        def emit(self, event: dict) -> None:
            self.events.append(event.as_event())

    settings = derived_settings(header="", models={"prover": "scripted"}, tool_loop=True)
    ctx = Ctx(Ws(tmp_path), settings, model)
    skeleton = "theorem t_s1 (n : ℕ) : 0 < n := by\n  sorry"
    act = action(ActionKind.PROVE, obligation="s1", attempt=2, model="scripted")
    prompt = SimpleNamespace(step=ProofStep(id="s1", text="n is positive"), failed_attempts=[])
    given = prove.ProveInputs(
        act, prompt, Obligation(id="s1", skeleton=skeleton), LeanContext(header="")
    )  # type: ignore[arg-type]
    outcome = prove.run(ctx, _PROVING, given)  # type: ignore[arg-type]
    assert model.asked == [key]
    assert model.charged == [True]  # one turn: charged by action_started
    assert outcome.prover.gives_up and "the step needs n > 0" in (
        outcome.prover.suspected_problem or ""
    )
    assert not outcome.check.accepted and outcome.spent is None
    finished = [e for e in ctx.events if e["type"] == "prover_finished"]
    assert finished[0]["status"] == "gave_up"
    after = apply_one(_PROVING, outcome, POLICY)
    assert suspicion_of(after.work) is not None and "n > 0" in suspicion_of(after.work).reason
