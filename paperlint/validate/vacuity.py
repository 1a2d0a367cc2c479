"""The vacuity probe: a gated statement whose hypotheses prove `False` says nothing.

`(h : x < x) : x = 1729` type-checks, passes a hurried review, and is "proved" by any route
(docs/prior-art.md §2.10). After a gate PASS the engine asks Lean, with a few cheap tactics, whether
the statement's own binders already prove `False`, and whether a Prop-valued definition the draft
introduces is just `True`. One accepted candidate is a witness: the statement must go back to
the drafter (BLOCK), with the witness as the reason. Nothing accepted proves nothing: the probe
can only find vacuity, never certify its absence.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations

from paperlint.agents.outputs import DraftOutput
from paperlint.lean.compose import parse_declaration
from paperlint.lean.verifier import LeanContext, Outcome, Verifier
from paperlint.validate.leanfile import binders_of, squash

# Small, fast automation: each either closes `False` from the binders or fails quickly.
PROBE_TACTICS = ("simp_all", "linarith", "nlinarith", "omega", "aesop", "contradiction")
MAX_ABSURD_PAIRS = 6  # `exact absurd h1 h2` over the first few hypothesis pairs


@dataclass(frozen=True)
class VacuityResult:
    vacuous: bool
    witness: str | None  # the accepted Lean text, when vacuous
    checked: int  # candidates Lean answered (accepted or rejected; timeouts not counted)

    def reason(self) -> str | None:
        """The gate's BLOCK reason for a vacuous statement, or None."""
        if not self.vacuous or self.witness is None:
            return None
        return (
            "vacuous statement: Lean proves False (or a definition is True) from it alone: "
            + " ".join(self.witness.split())[:300]
        )


def vacuity_candidates(
    gated_statement: str, lean_name: str, *, definitions: Sequence[str] = ()
) -> list[str]:
    """Lean texts whose acceptance shows the statement (or a definition) is vacuous."""
    candidates: list[str] = []
    parsed = parse_declaration(gated_statement)
    if parsed is not None and parsed.binders:
        head = f"theorem {lean_name}_vacuous {parsed.binders} : False := by"
        candidates.extend(f"{head}\n  {tactic}" for tactic in PROBE_TACTICS)
        hypotheses = [
            b.name for b in binders_of(gated_statement) if b.bracket == "(" and _is_hyp(b.name)
        ]
        pairs = list(permutations(hypotheses, 2))[:MAX_ABSURD_PAIRS]
        candidates.extend(f"{head}\n  exact absurd {a} {b}" for a, b in pairs)
    for definition in definitions:
        candidates.extend(_triviality_checks(definition))
    return candidates


def _is_hyp(name: str) -> bool:
    # Drafts name hypotheses h, h1, hp0, h_cite_x …; a term variable named `h…` only
    # costs one wasted candidate.
    return name.startswith("h")


def _triviality_checks(definition: str) -> list[str]:
    """`example binders : D args ↔ True`, only for Prop-valued definitions (else meaningless)."""
    parsed = parse_declaration(definition)
    if parsed is None or parsed.keyword not in ("def", "abbrev") or not parsed.name:
        return []
    if not squash(parsed.type).endswith("Prop"):
        return []
    explicit = [b.name for b in binders_of(definition) if b.bracket == "("]
    applied = " ".join([parsed.name, *explicit])
    binders = f" {parsed.binders}" if parsed.binders else ""
    return [f"example{binders} : {applied} ↔ True := by\n  simp [{parsed.name}]"]


def run_vacuity_probe(
    verifier: Verifier,
    context: LeanContext,
    gated_statement: str,
    lean_name: str,
    *,
    timeout_s: float,
    definitions: Sequence[str] = (),
) -> VacuityResult:
    """Check each candidate on top of `context` (the gated statement's own context)."""
    checked = 0
    for candidate in vacuity_candidates(gated_statement, lean_name, definitions=definitions):
        answer = verifier.check(context, candidate, timeout_s=timeout_s)
        if answer.outcome in (Outcome.TIMEOUT, Outcome.UNAVAILABLE):
            continue  # no answer is not evidence either way
        checked += 1
        if answer.outcome is Outcome.ACCEPTED:
            return VacuityResult(vacuous=True, witness=candidate, checked=checked)
    return VacuityResult(vacuous=False, witness=None, checked=checked)


def probe_draft(
    verifier: Verifier,
    context: LeanContext,
    draft: DraftOutput,
    *,
    timeout_s: float,
    statement_only: bool = False,
) -> VacuityResult:
    """The engine's hook after a gate PASS: `context` is `execute.base_context` (dependencies
    plus the draft's definitions). For a definition or assumption (`statement_only`) the
    statement is itself a definition, so only its triviality is probed."""
    if statement_only:
        definitions = [*draft.definitions, draft.statement]
        return run_vacuity_probe(
            verifier, context, "", draft.lean_name, timeout_s=timeout_s, definitions=definitions
        )
    return run_vacuity_probe(
        verifier,
        context,
        draft.statement,
        draft.lean_name,
        timeout_s=timeout_s,
        definitions=draft.definitions,
    )
