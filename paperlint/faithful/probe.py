"""The counterexample probe: try to refute a gated statement before any proof search.

Three cheap steps, in order, stopping at the first refutation:

1. `plausible` on the closed statement. It tests, it does not prove: a counterexample it
   prints is only a hint until it is compiled (step 1b) into a Lean proof of `¬P` at that
   witness, which Lean then checks.
2. Junk values (`paperlint.faithful.junk`): `¬P` proved at an assignment that hits
   `x / 0`, truncated ℕ subtraction, an empty sum or `sSup ∅`.
3. `decide`, `norm_num`, `simp`, `omega` on `¬P` itself.

Only an accepted `theorem …_refuted : ¬ (∀ binders, conclusion)` with standard axioms counts.
The engine writes that statement from the gated one, so "it refutes the gated statement"
holds by construction. Nothing found proves nothing: the probe never certifies truth.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from paperlint.faithful.attempts import lean_is_gone, try_candidate
from paperlint.faithful.junk import Assignment, junk_assignments
from paperlint.faithful.statement import Statement, parse_statement
from paperlint.lean.lexer import Kind, tokenize
from paperlint.lean.verifier import LeanCheck, LeanContext, Verifier
from paperlint.records.faithfulness import LeanAttempt, ProbeResult, ProbeStep, Refutation

NEGATION_TACTICS = ("decide", "norm_num", "simp", "omega")
_FOUND = "Found a counterexample!"
# A line of plausible's report, `x := 0`: a message of Lean's, not Lean source.
_BINDING = re.compile(r"^\s*(?P<name>[^\s:]+)\s*:=\s*(?P<value>.+?)\s*$")
_VALUE_SYMBOLS = frozenset({"-", "/", "(", ")", "[", "]", ",", "."})
_CLOSE = "first | (norm_num at h_cex; done) | (simp at h_cex; done) | omega"


def refutation_name(statement: Statement) -> str:
    return f"{statement.short_name}_refuted"


def negation_candidate(statement: Statement, tactic: str) -> str:
    name = refutation_name(statement)
    return f"theorem {name} : ¬ ({statement.proposition()}) := by\n  {tactic}"


def plausible_candidate(statement: Statement) -> str:
    return (
        f"theorem {statement.short_name}_plausible : {statement.proposition()} := by\n  plausible"
    )


def witness_candidate(statement: Statement, assignment: Assignment) -> str:
    """`¬P` proved by instantiating P at `assignment` (named arguments) and computing."""
    args = " ".join(f"({name} := {value})" for name, value in assignment.items())
    steps = f"intro h_cex\n  replace h_cex := h_cex {args}\n  {_CLOSE}"
    return negation_candidate(statement, steps)


def parse_witness(check: LeanCheck, statement: Statement) -> Assignment | None:
    """The variables of plausible's counterexample, when every value is a plain literal."""
    names = set(statement.binder_names())
    for message in check.messages:
        if _FOUND not in message.text:
            continue
        found: Assignment = {}
        for line in message.text.split(_FOUND, 1)[1].splitlines():
            match = _BINDING.match(line)
            if match and match["name"] in names and is_literal(match["value"]):
                found[match["name"]] = match["value"]
        return found or None
    return None


def is_literal(value: str) -> bool:
    """Numbers, signs, fractions, lists and booleans only: a value never carries code."""
    tokens = tokenize(value)
    return bool(tokens) and all(
        t.kind is Kind.NUMBER
        or (t.kind is Kind.SYMBOL and t.text in _VALUE_SYMBOLS)
        or (t.kind is Kind.IDENT and t.text in {"true", "false", "True", "False"})
        for t in tokens
    )


def probe_statement(
    verifier: Verifier,
    context: LeanContext,
    gated: str,
    *,
    timeout_s: float,
    tactics: Sequence[str] = NEGATION_TACTICS,
) -> ProbeResult:
    """Run the three steps on `gated` (a declaration) over `context`."""
    statement = parse_statement(gated)
    if statement is None:
        return ProbeResult(statement=gated, skipped="the statement's signature could not be read")
    run = _Run(verifier, context, statement, timeout_s)
    hint = run.plausible()
    if run.refutation is None and not run.gone:
        for assignment in junk_assignments(statement):
            if run.refute(ProbeStep.JUNK, witness_candidate(statement, assignment), assignment):
                break
    if run.refutation is None and not run.gone:
        for tactic in tactics:
            if run.refute(ProbeStep.NEGATION, negation_candidate(statement, tactic), {}):
                break
    return ProbeResult(
        statement=gated,
        refutation=run.refutation,
        hint=hint if run.refutation is None else None,
        attempts=tuple(run.attempts),
    )


class _Run:
    """The probe's state over one statement: attempts so far, the refutation once found."""

    def __init__(
        self, verifier: Verifier, context: LeanContext, statement: Statement, timeout_s: float
    ) -> None:
        self.verifier = verifier
        self.context = context
        self.statement = statement
        self.timeout_s = timeout_s
        self.attempts: list[LeanAttempt] = []
        self.refutation: Refutation | None = None
        self.gone = False

    def _try(self, step: ProbeStep, candidate: str, target: str) -> tuple[LeanAttempt, LeanCheck]:
        attempt, check = try_candidate(
            self.verifier, self.context, step.value, candidate, target, timeout_s=self.timeout_s
        )
        self.attempts.append(attempt)
        self.gone = self.gone or lean_is_gone(attempt)
        return attempt, check

    def plausible(self) -> Assignment | None:
        """Step 1: the search, then its witness compiled. Returns an uncompiled witness."""
        target = f"{self.statement.short_name}_plausible"
        _, check = self._try(ProbeStep.PLAUSIBLE, plausible_candidate(self.statement), target)
        witness = parse_witness(check, self.statement)
        if witness is None or self.gone:
            return None
        candidate = witness_candidate(self.statement, witness)
        return None if self.refute(ProbeStep.WITNESS, candidate, witness) else witness

    def refute(self, step: ProbeStep, candidate: str, assignment: Assignment) -> bool:
        target = refutation_name(self.statement)
        attempt, _ = self._try(step, candidate, target)
        if not attempt.accepted or attempt.axioms is None:
            return False
        self.refutation = Refutation(
            step=step,
            declaration=candidate,
            target=target,
            axioms=attempt.axioms,
            assignment=dict(assignment),
        )
        return True
