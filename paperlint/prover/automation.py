"""Automation first (issue #13): a fixed tactic ladder tried on an obligation before any model.

`plan` is pure: the obligation's gated statement with each rung's tactic as its whole proof.
`run_ladder` checks the rungs in order under the full acceptance rule (`verifier.accept`: no
error, no sorry, the target exists, axioms within the allowlist) with a short timeout each, and
stops at the first accepted one. A timeout on one rung is normal and the next rung runs; Lean
being unavailable stops the ladder (nothing later could succeed either); a replay with no
recording for a rung just moves on. An obligation closed
here is accepted with zero model calls, and the outcome says which tactic closed it.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from paperlint.lean.verifier import FailureCode, LeanContext, Outcome, Verifier, accept

LADDER: tuple[str, ...] = (
    "grind",
    "simp_all",
    "aesop",
    "omega",
    "linarith",
    "nlinarith",
    "positivity",
    "norm_num",
    "field_simp; ring_nf",
    "decide",
)
RUNG_TIMEOUT_S = 10.0


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Rung(_Frozen):
    tactic: str
    candidate: str


class RungResult(_Frozen):
    tactic: str
    outcome: Outcome
    code: FailureCode | None = None
    hint: str | None = None


class AutomationOutcome(_Frozen):
    closed_by: str | None = None
    proof: str | None = None
    tried: tuple[RungResult, ...] = ()
    stopped: str | None = None  # why the ladder stopped early (Lean unavailable)

    @property
    def closed(self) -> bool:
        return self.proof is not None

    def summary(self) -> str:
        """One line for the prover's first prompt: what automation already tried."""
        if self.closed:
            return f"closed by automation: `{self.closed_by}`"
        failed = ", ".join(f"`{r.tactic}` ({r.code or r.outcome})" for r in self.tried)
        return f"automation tried and failed: {failed}" if failed else "automation not tried"


def gated_statement(skeleton: str) -> str:
    """The skeleton's own text up to its top-level `:=`, as written (the mechanical audit's
    declaration splitter finds the `:=`; comments and strings cannot fool it)."""
    from paperlint.lean.declarations import declarations

    found = declarations(skeleton)
    if not found or found[0].terminator != ":=" or not found[0].statement:
        raise ValueError("the obligation's skeleton has no `:=` to prove")
    decl = found[0]
    start = (decl.prefixes[0].tokens[0] if decl.prefixes else decl.command.tokens[0]).offset
    return skeleton[start : decl.statement[-1].end].rstrip()


def plan(skeleton: str, ladder: Sequence[str] = LADDER) -> list[Rung]:
    """Each rung: the gated statement, unchanged, proved by the rung's tactic alone."""
    statement = gated_statement(skeleton)
    return [Rung(tactic=t, candidate=f"{statement} := by\n  {t}") for t in ladder]


def run_ladder(
    verifier: Verifier,
    context: LeanContext,
    skeleton: str,
    target: str,
    *,
    ladder: Sequence[str] = LADDER,
    timeout_s: float = RUNG_TIMEOUT_S,
) -> AutomationOutcome:
    try:
        rungs = plan(skeleton, ladder)
    except ValueError:  # an unparsable skeleton: nothing to try; the model gets the obligation
        return AutomationOutcome()
    return run_rungs(verifier, context, rungs, target, timeout_s=timeout_s)


def run_rungs(
    verifier: Verifier,
    context: LeanContext,
    rungs: Sequence[Rung],
    target: str,
    *,
    timeout_s: float = RUNG_TIMEOUT_S,
) -> AutomationOutcome:
    """Check `rungs` in order under the full acceptance rule; stop at the first accepted."""
    tried: list[RungResult] = []
    for rung in rungs:
        checked = accept(verifier, context, rung.candidate, target, timeout_s=timeout_s)
        tried.append(
            RungResult(
                tactic=rung.tactic, outcome=checked.outcome, code=checked.code, hint=checked.hint
            )
        )
        if checked.accepted:
            return AutomationOutcome(
                closed_by=rung.tactic, proof=rung.candidate, tried=tuple(tried)
            )
        # A replay without this rung's answer knows nothing about it: the next rung runs.
        if checked.outcome is Outcome.UNAVAILABLE and checked.code is not FailureCode.NO_RECORDING:
            return AutomationOutcome(tried=tuple(tried), stopped=checked.hint)
    return AutomationOutcome(tried=tuple(tried))
