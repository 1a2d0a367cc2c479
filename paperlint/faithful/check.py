"""The faithfulness checks of one result, in the order the gate needs them.

Before any proof search: the lints (no Lean), the equivalence of the two drafts when there is
a second one, and the counterexample probe on the first draft. After verification: the
minimal-hypotheses check on the accepted declaration. Each returns the evidence record, whose
Lean parts `recheck` can send to Lean again.
"""

from __future__ import annotations

from collections.abc import Sequence

from paperlint.faithful.ladder import check_equivalence
from paperlint.faithful.lints import lint_statement
from paperlint.faithful.minimal import minimal_hypotheses
from paperlint.faithful.probe import probe_statement
from paperlint.lean.verifier import LeanContext, Verifier
from paperlint.records.faithfulness import Agreement, FaithfulnessEvidence


def check_statement(
    verifier: Verifier,
    context: LeanContext,
    *,
    result: str,
    statement: str,
    second: str | None = None,
    definitions: Sequence[str] = (),
    tex: str | None = None,
    timeout_s: float,
) -> FaithfulnessEvidence:
    """Lints, equivalence with the second draft, and the probe, on `context` (the
    dependencies plus the definitions of both drafts). When the drafts disagree, draft 2 is
    probed too: a refuted reading tells the gate which draft cannot be the paper's (unless
    the paper itself is wrong)."""
    equivalence = None
    if second is not None:
        equivalence = check_equivalence(verifier, context, statement, second, timeout_s=timeout_s)
    evidence = FaithfulnessEvidence(
        result=result,
        context=context,
        lints=tuple(lint_statement(statement, definitions=definitions, tex=tex)),
        equivalence=equivalence,
        probe=probe_statement(verifier, context, statement, timeout_s=timeout_s),
    )
    if second is not None and disagree(evidence):
        second_probe = probe_statement(verifier, context, second, timeout_s=timeout_s)
        evidence = evidence.model_copy(update={"second_probe": second_probe})
    return evidence


def disagree(evidence: FaithfulnessEvidence) -> bool:
    """The drafts were compared and Lean proved at most one direction."""
    eq = evidence.equivalence
    return eq is not None and eq.agreement in (
        Agreement.FIRST_IMPLIES_SECOND,
        Agreement.SECOND_IMPLIES_FIRST,
        Agreement.UNPROVED,
    )


def after_proof(
    verifier: Verifier, evidence: FaithfulnessEvidence, verified: str, *, timeout_s: float
) -> FaithfulnessEvidence:
    """The evidence with the minimal-hypotheses check of the verified declaration added."""
    minimal = minimal_hypotheses(verifier, evidence.context, verified, timeout_s=timeout_s)
    return evidence.model_copy(update={"minimal": minimal})


def lean_attempts(evidence: FaithfulnessEvidence) -> int:
    """How many candidates the checks sent to Lean (each is one check, plus one axiom query
    when accepted)."""
    count = len(evidence.equivalence.attempts()) if evidence.equivalence else 0
    for probe in (evidence.probe, evidence.second_probe):
        count += len(probe.attempts) if probe else 0
    if evidence.minimal is not None:
        count += sum(1 for c in evidence.minimal.checks if c.attempt is not None)
    return count
