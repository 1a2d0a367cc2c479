"""The `Verifier` protocol and the typed records every implementation returns.

A check context is pure text: the header (imports, options, opens) plus the declarations
already accepted before the target. Implementations cache whatever live state they hold (REPL
env ids) keyed by the hash of that text; records never store env ids, only text.
"""

from __future__ import annotations

import abc
import hashlib
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from paperlint import domain
from paperlint.lean.elaborated import Elaboration
from paperlint.lean.repl_declarations import DeclaredByLean, answer_problems

if TYPE_CHECKING:  # trusted imports this module
    from paperlint.lean.modules import CheckJob
    from paperlint.lean.trusted import TrustedRun


class Outcome(StrEnum):
    ACCEPTED = "accepted"  # no error, no sorry
    REJECTED = "rejected"  # Lean answered: errors or sorries (deterministic)
    TIMEOUT = "timeout"  # wall-clock limit: infrastructure, not a refutation
    UNAVAILABLE = "unavailable"  # no Lean, dead server, no recording in a replay


class FailureCode(StrEnum):
    LEAN_ERROR = "lean_error"
    SORRY = "sorry"
    HEARTBEATS = "heartbeats"
    TIMEOUT = "timeout"
    DEAD_SERVER = "dead_server"
    HEADER_FAILED = "header_failed"
    PRIOR_DECL_FAILED = "prior_decl_failed"
    TARGET_NOT_FOUND = "target_not_found"
    REFUSED = "refused"  # the hygiene scan refused the text before Lean saw it
    NO_RECORDING = "no_recording"  # a replay has no answer for this exact request
    UNAVAILABLE = "unavailable"
    BACKEND_ERROR = "backend_error"
    DISALLOWED_AXIOMS = "disallowed_axioms"  # sorryAx, native or custom axioms in the closure
    AXIOMS_UNPARSED = "axioms_unparsed"  # `#print axioms` gave no single readable answer


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class LeanMessage(_Frozen):
    severity: str  # error | warning | info
    line: int  # 1-based, relative to the checked text
    column: int  # 0-based, code points
    end_line: int | None = None
    end_column: int | None = None
    text: str


class LeanContext(_Frozen):
    """What a candidate is elaborated on top of: header + accepted declarations, as text."""

    header: str
    accepted: tuple[str, ...] = ()

    def extended(self, declaration: str) -> LeanContext:
        return LeanContext(header=self.header, accepted=(*self.accepted, declaration))

    def key(self) -> str:
        digest = hashlib.sha256(self.header.encode())
        for decl in self.accepted:
            digest.update(b"\0")
            digest.update(hashlib.sha256(decl.encode()).digest())
        return digest.hexdigest()

    def text(self) -> str:
        """The whole prefix as one Lean file body."""
        return "\n\n".join((self.header, *self.accepted)) + "\n"


class LeanCheck(_Frozen):
    outcome: Outcome
    messages: tuple[LeanMessage, ...] = ()
    goals: tuple[str, ...] = ()
    code: FailureCode | None = None
    hint: str | None = None
    duration_s: float = 0.0
    replay: bool = False
    # The target's `#print axioms` set, when `accept()` queried it (None: not queried).
    axioms: tuple[str, ...] | None = None
    # The candidate with Lean's messages and goals inlined as comments, for the prover.
    feedback: str = ""
    # What Lean parsed the candidate to declare (the REPL fork's `declarations`); None: the
    # REPL gave no list (upstream REPL, or a recording made without it).
    declarations: tuple[DeclaredByLean, ...] | None = None

    @property
    def accepted(self) -> bool:
        return self.outcome is Outcome.ACCEPTED

    def errors(self) -> tuple[LeanMessage, ...]:
        return tuple(m for m in self.messages if m.severity == "error")


class AxiomReport(_Frozen):
    """`#print axioms` answers: declaration name -> axioms (None when the answer was missing)."""

    outcome: Outcome
    axioms: dict[str, tuple[str, ...] | None] = Field(default_factory=dict)
    code: FailureCode | None = None
    hint: str | None = None
    replay: bool = False


class SecondKernel(_Frozen):
    """An independent replay of the module's declarations (lean4checker or comparator)."""

    tool: str  # "lean4checker" | "comparator"
    command: tuple[str, ...] = ()
    exit_code: int | None = None
    ok: bool = False
    output: str = ""


class FinalCheck(_Frozen):
    """A cold `lake env lean FILE` build plus marker-wrapped `#print axioms` queries."""

    outcome: Outcome
    file_sha256: str
    command: tuple[str, ...] = ()
    exit_code: int | None = None
    duration_s: float = 0.0
    output: str = ""
    has_sorry_warning: bool = False
    errors: tuple[str, ...] = ()
    axioms: dict[str, tuple[str, ...] | None] = Field(default_factory=dict)
    toolchain: str | None = None
    mathlib_rev: str | None = None
    code: FailureCode | None = None
    hint: str | None = None
    replay: bool = False
    # `#paperlint_statement` answers from the axiom run (elaborated.py); absent: not asked.
    statements: dict[str, Elaboration | None] = Field(default_factory=dict)
    second_kernel: SecondKernel | None = None

    @property
    def clean(self) -> bool:
        return (
            self.outcome is Outcome.ACCEPTED
            and self.exit_code == 0
            and not self.has_sorry_warning
            and not self.errors
        )


RawAnswer = dict[str, Any]
"""The REPL's own JSON answer to a probe command (messages, sorries, tactics)."""


class Verifier(abc.ABC):
    """Checks Lean text. Implementations: the warm REPL (`warm`), recorded answers (`replay`),
    the no-Lean stand-in below, a leased pool worker (`pool`), a Ray task's remote worker.

    Every verifier has every member: what one cannot do it answers as such (the defaults here:
    not thread-safe, no elaboration, no probe commands, no trusted checker, nothing to close),
    so no caller asks whether a method is there."""

    is_replay: bool = False
    thread_safe: bool = False
    """One instance may serve actions running in parallel (it reads a recording only)."""

    @abc.abstractmethod
    def check(self, context: LeanContext, candidate: str, *, timeout_s: float) -> LeanCheck:
        """Elaborate `candidate` on top of `context`. Never raises for Lean-level failures."""

    @abc.abstractmethod
    def print_axioms(
        self, context: LeanContext, names: Sequence[str], *, timeout_s: float
    ) -> AxiomReport:
        """`#print axioms` for each name, on top of `context` (which must declare them)."""

    @abc.abstractmethod
    def final_check(self, file: Path, names: Sequence[str], *, timeout_s: float) -> FinalCheck:
        """Cold build of a self-contained file, then the axioms of each name."""

    def elaborate_statements(
        self,
        context: LeanContext,
        names: Sequence[str],
        *,
        timeout_s: float,
        declaration: str = "",
    ) -> dict[str, Elaboration | None] | None:
        """The elaborated statements of `names` (`#paperlint_statement`); None: no answer."""
        return None

    def command(
        self, context: LeanContext, cmd: str, *, timeout_s: float, all_tactics: bool = False
    ) -> RawAnswer | LeanCheck:
        """One probe command for the prover's tools: the raw answer, or a typed failure."""
        return LeanCheck(
            outcome=Outcome.UNAVAILABLE,
            code=FailureCode.UNAVAILABLE,
            hint=f"{type(self).__name__} answers no probe commands",
        )

    def trusted_check(self, job: CheckJob, *, timeout_s: float) -> TrustedRun:
        """The trusted checker's run on `job` (issue #25, docs/checker.md): compile the modules,
        then judge the compiled environment in a separate process. An edge without a checker
        answers `unavailable`, which never verifies."""
        from paperlint.lean.trusted import unavailable

        return unavailable(job, f"{type(self).__name__} has no trusted checker")

    def close(self) -> None:
        return None


# Only these may appear in `#print axioms` of an accepted declaration (docs/lean-notes.md §5).
STANDARD_AXIOMS = domain.STANDARD_AXIOMS


def accept(
    verifier: Verifier,
    context: LeanContext,
    candidate: str,
    target: str,
    *,
    timeout_s: float,
    allowlist: frozenset[str] = STANDARD_AXIOMS,
) -> LeanCheck:
    """The full acceptance rule of docs/lean-notes.md §6.2 over any `Verifier`.

    `check` covers "no error, no sorry"; this adds "the target name exists" and "its axioms are
    within the allowlist" with one `#print axioms` on the context extended by the candidate
    (an unknown name gives no answer). The candidate is accepted only if all of that holds.
    """
    checked = enforce_declarations(verifier.check(context, candidate, timeout_s=timeout_s),
                                   candidate, target)  # fmt: skip
    if not checked.accepted:
        return checked
    report = verifier.print_axioms(context.extended(candidate), [target], timeout_s=timeout_s)
    axioms = report.axioms.get(target)
    base = {"duration_s": checked.duration_s, "replay": checked.replay or report.replay}
    if report.outcome in (Outcome.TIMEOUT, Outcome.UNAVAILABLE):
        return checked.model_copy(
            update={**base, "outcome": report.outcome, "code": report.code, "hint": report.hint}
        )
    if axioms is None:
        return checked.model_copy(
            update={
                **base,
                "outcome": Outcome.REJECTED,
                "code": FailureCode.TARGET_NOT_FOUND,
                "hint": f"no declaration named {target!r} after the candidate: "
                f"{report.hint or 'no #print axioms answer'}",
            }
        )
    from paperlint.lean.messages import disallowed_axioms  # messages imports this module

    bad = disallowed_axioms(axioms, allowlist)
    if bad:
        return checked.model_copy(
            update={
                **base,
                "outcome": Outcome.REJECTED,
                "axioms": axioms,
                "code": FailureCode.DISALLOWED_AXIOMS,
                "hint": f"{target} depends on axioms outside the allowlist: {', '.join(bad)}",
            }
        )
    return checked.model_copy(update={**base, "axioms": axioms})


def enforce_declarations(check: LeanCheck, candidate: str, target: str | None) -> LeanCheck:
    """An accepted check refused when Lean's own parse of the answer breaks the answer rules
    (`repl_declarations.answer_problems`): a declaration the text does not show, one of a kind
    or with an attribute an answer may not add, or a target that is not one theorem. Without
    a `declarations` list (upstream REPL) the text scan stands alone and this is a no-op."""
    if not check.accepted or check.declarations is None:
        return check
    problems = answer_problems(check.declarations, candidate, target=target)
    if not problems:
        return check
    missing = target is not None and any(f"named {target}" in p for p in problems)
    return check.model_copy(
        update={
            "outcome": Outcome.REJECTED,
            "code": FailureCode.TARGET_NOT_FOUND if missing else FailureCode.REFUSED,
            "hint": ("Lean's parse of the answer: " + "; ".join(problems))[:400],
        }
    )


class UnavailableVerifier(Verifier):
    """Stands in when no Lean can run: every answer is `unavailable` with the reason."""

    thread_safe = True

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def check(self, context: LeanContext, candidate: str, *, timeout_s: float) -> LeanCheck:
        return LeanCheck(
            outcome=Outcome.UNAVAILABLE, code=FailureCode.UNAVAILABLE, hint=self.reason
        )

    def print_axioms(
        self, context: LeanContext, names: Sequence[str], *, timeout_s: float
    ) -> AxiomReport:
        return AxiomReport(
            outcome=Outcome.UNAVAILABLE, code=FailureCode.UNAVAILABLE, hint=self.reason
        )

    def final_check(self, file: Path, names: Sequence[str], *, timeout_s: float) -> FinalCheck:
        return FinalCheck(
            outcome=Outcome.UNAVAILABLE,
            file_sha256="",
            code=FailureCode.UNAVAILABLE,
            hint=self.reason,
        )

    def command(
        self, context: LeanContext, cmd: str, *, timeout_s: float, all_tactics: bool = False
    ) -> RawAnswer | LeanCheck:
        return LeanCheck(
            outcome=Outcome.UNAVAILABLE, code=FailureCode.UNAVAILABLE, hint=self.reason
        )
