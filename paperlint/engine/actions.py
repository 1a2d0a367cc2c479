"""Actions the engine plans (each step's readiness and outcome are in its module,
`engine/steps/`; the registry there is the list of kinds)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:
    from paperlint.records.results import Results


class ActionKind(StrEnum):
    """Names of the built-in steps' kinds, for code that refers to one of them; a new step
    needs no member here (an `Action`'s kind is any registered step's kind)."""

    PLAN = "plan"  # architect: the paper's proof route, split into steps
    DRAFT = "draft"  # drafter: Lean statement and step obligations; must type-check
    SECOND_DRAFT = "second_draft"  # drafter, fresh context: the independent draft (#15)
    GATE = "gate"  # gate: statement review before any proof search
    RESTATE = "restate"  # no model: a revised statement equivalent in Lean keeps its proof
    PROVE = "prove"  # prover: one obligation, checked against the verifier
    CHECK_ISSUE = "check_issue"  # issue checker: rules on a suspected issue
    REVIEW_ISSUE = "review_issue"  # auditor: a second, independent ruling
    AUDIT = "audit"  # final build, axioms, hygiene, fingerprint, final audit
    RECONNECT = "reconnect"  # discharge a clause by its now-verified predecessor, in Lean


class Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: ActionKind | str  # a registered step's kind (`paperlint.engine.steps.REGISTRY`)
    result: str
    obligation: str | None = None
    attempt: int = 1
    model: str | None = None

    def describe(self) -> str:
        ob = f" {self.obligation}" if self.obligation else ""
        return f"{self.kind} {self.result}{ob} (attempt {self.attempt})"


class Failure(StrEnum):
    MODEL_UNAVAILABLE = "model_unavailable"
    INVALID_MODEL_OUTPUT = "invalid_model_output"
    LEAN_UNAVAILABLE = "lean_unavailable"
    BUDGET_EXHAUSTED = "budget_exhausted"  # a request inside the action would overspend


class ProofCheck(BaseModel):
    """A prover candidate and what the verifier (or the refusal scan) said about it."""

    model_config = ConfigDict(extra="forbid")

    file: str
    accepted: bool
    feedback: str = ""
    timed_out: bool = False


@dataclass
class Progress:
    """Where the loop reports each step (the CLI draws a bar or prints lines)."""

    on_action: Callable[[Action, Results], None] = lambda action, results: None
    on_flight: Callable[[Action, Results, int], None] | None = None
    """With `--jobs N`: each action started, with how many are in flight now."""

    def started(self, action: Action, results: Results, in_flight: int) -> None:
        if self.on_flight is not None:
            self.on_flight(action, results, in_flight)
        else:
            self.on_action(action, results)
