"""The records of the faithfulness checks: what was tried in Lean, and what Lean said.

Every Lean part is kept as the exact text checked plus the context it was checked on (text,
never REPL ids), so `validate` can re-check it without a model. A record states what Lean
showed and nothing more: "no rung proved this direction" is not "the direction is false",
and a lint is a signal for the gate, never a verdict.

In a workspace: `audits/<id>/faithfulness.json` (the latest round; `faithfulness-N.json` per
gate round), a `paperlint.faithfulness/1` record. A file that is missing or unreadable is "no
evidence", never a pass.
"""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from paperlint.lean.verifier import FailureCode, LeanContext, Outcome

SCHEMA: Literal["paperlint.faithfulness/1"] = "paperlint.faithfulness/1"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class LeanAttempt(_Frozen):
    """One candidate sent to Lean and the verdict of the acceptance rule on it."""

    label: str  # the rung or probe step that wrote it
    candidate: str  # the exact text checked
    target: str  # the declaration whose axioms were queried
    outcome: Outcome
    code: FailureCode | None = None
    hint: str | None = None
    axioms: tuple[str, ...] | None = None
    replay: bool = False

    @property
    def accepted(self) -> bool:
        return self.outcome is Outcome.ACCEPTED

    @property
    def answered(self) -> bool:
        """Lean gave a deterministic answer (not a timeout, not an unavailable backend)."""
        return self.outcome in (Outcome.ACCEPTED, Outcome.REJECTED)


# --- the equivalence ladder -------------------------------------------------------------------


class LadderRung(StrEnum):
    APPLY = "apply"
    EXACT_SEARCH = "exact?"  # accepted only through the concrete term it suggests
    CONVERT_1 = "convert_using_1"
    CONVERT_2 = "convert_using_2"
    SIMP_ALL = "simp_all"
    AESOP = "aesop"


DEFAULT_RUNGS: tuple[LadderRung, ...] = (
    LadderRung.APPLY,
    LadderRung.EXACT_SEARCH,
    LadderRung.CONVERT_1,
    LadderRung.CONVERT_2,
    LadderRung.SIMP_ALL,
    LadderRung.AESOP,
)


class Direction(StrEnum):
    FORWARD = "first_implies_second"
    BACKWARD = "second_implies_first"


class DirectionResult(_Frozen):
    direction: Direction
    proved: bool
    rung: LadderRung | None = None
    proof: str | None = None  # the accepted declaration: concrete, never `exact?`
    target: str | None = None
    attempts: tuple[LeanAttempt, ...] = ()

    @property
    def answered(self) -> bool:
        return self.proved or any(a.answered for a in self.attempts)


class Agreement(StrEnum):
    EQUIVALENT = "equivalent"  # both directions proved in Lean
    FIRST_IMPLIES_SECOND = "first_implies_second_only"  # the other direction unproved
    SECOND_IMPLIES_FIRST = "second_implies_first_only"
    UNPROVED = "unproved"  # Lean answered; no rung proved either direction
    NO_ANSWER = "no_answer"  # Lean timed out or was unavailable: no evidence at all
    UNREADABLE = "unreadable"  # a statement's signature could not be read: no check ran


class Equivalence(_Frozen):
    first: str
    second: str
    agreement: Agreement
    forward: DirectionResult | None = None
    backward: DirectionResult | None = None
    universe_pinned: bool = False  # `Type*` was compared at one shared universe
    detail: str = ""

    @property
    def failing(self) -> tuple[Direction, ...]:
        """The directions no rung proved: what the gate must rule on."""
        return tuple(
            d.direction for d in (self.forward, self.backward) if d is not None and not d.proved
        )

    def attempts(self) -> tuple[LeanAttempt, ...]:
        return tuple(a for d in (self.forward, self.backward) if d for a in d.attempts)


# --- the counterexample probe -----------------------------------------------------------------


class ProbeStep(StrEnum):
    PLAUSIBLE = "plausible"  # a search; its witness is only a hint until compiled
    WITNESS = "witness"  # plausible's witness compiled into a proof of ¬P
    JUNK = "junk"  # ¬P at a junk value: 0 denominators, truncated ℕ subtraction, ∅
    NEGATION = "negation"  # decide / norm_num / simp / omega on ¬P


class Refutation(_Frozen):
    step: ProbeStep
    declaration: str  # the accepted `theorem …_refuted : ¬ (…)`, standard axioms only
    target: str
    axioms: tuple[str, ...]
    assignment: dict[str, str] = Field(default_factory=dict)  # the witness, when known


class ProbeResult(_Frozen):
    statement: str
    refutation: Refutation | None = None
    hint: dict[str, str] | None = None  # plausible's witness that did not compile
    attempts: tuple[LeanAttempt, ...] = ()
    skipped: str | None = None  # why no probe ran

    @property
    def refuted(self) -> bool:
        return self.refutation is not None


# --- advisory lints ---------------------------------------------------------------------------


class LintRule(StrEnum):
    CONCLUSION_REPEATS_HYPOTHESIS = "conclusion-repeats-hypothesis"
    UNUSED_BINDER = "unused-binder"
    PINNED_UNIQUE = "pinned-exists-unique"
    NAT_ARITHMETIC = "nat-arithmetic"
    TRUE_IN_DEFINITION = "true-in-definition"
    ALIAS_DEFINITION = "alias-definition"
    JUNK_DEFAULT = "junk-default"
    BARE_BOUND = "bare-bound"


class Lint(_Frozen):
    """A signal shown to the gate. It never blocks and never changes a verdict by itself."""

    rule: LintRule
    message: str
    subject: str  # the binder, operator or name the lint is about
    source: str = "statement"  # "statement", or the name of the definition linted
    line: int  # 1-based, in the linted text (the statement or that definition)
    col: int  # 0-based
    advisory: Literal[True] = True

    def render(self) -> str:
        where = f"{self.source}:{self.line}:{self.col}"
        return f"{where}: {self.rule.value}: {self.message} (advisory)"


# --- minimal hypotheses -----------------------------------------------------------------------


class HypothesisStatus(StrEnum):
    UNNEEDED = "unneeded"  # the proof still checks without it
    NEEDED = "needed"  # Lean rejected the proof without it
    NAMED_IN_PROOF = "named_in_proof"  # the proof names it: not re-checked (it would fail)
    IN_STATEMENT = "in_statement"  # another binder or the conclusion mentions it
    NO_ANSWER = "no_answer"  # Lean timed out or was unavailable


class HypothesisCheck(_Frozen):
    name: str
    lean_type: str
    status: HypothesisStatus
    attempt: LeanAttempt | None = None


class MinimalHypotheses(_Frozen):
    declaration: str
    checks: tuple[HypothesisCheck, ...] = ()
    skipped: str | None = None

    @property
    def unneeded(self) -> tuple[HypothesisCheck, ...]:
        return tuple(c for c in self.checks if c.status is HypothesisStatus.UNNEEDED)


# --- per result -------------------------------------------------------------------------------


class FaithfulnessEvidence(_Frozen):
    """Everything the faithfulness checks found for one result, with its Lean context."""

    schema_: Literal["paperlint.faithfulness/1"] = Field(default=SCHEMA, alias="schema")
    result: str
    context: LeanContext
    equivalence: Equivalence | None = None
    probe: ProbeResult | None = None
    second_probe: ProbeResult | None = None  # of draft 2, run only when the drafts disagree
    lints: tuple[Lint, ...] = ()
    minimal: MinimalHypotheses | None = None

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


# --- where it lives in a workspace ------------------------------------------------------------

FILE = "faithfulness.json"


def round_file(gate_round: int) -> str:
    """The evidence the gate's round N was shown (`FILE` is the latest round's, plus what
    the audit added)."""
    return f"faithfulness-{gate_round}.json"


def read_evidence(path: Path) -> FaithfulnessEvidence | None:
    try:
        return FaithfulnessEvidence.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, ValidationError, json.JSONDecodeError):
        return None
