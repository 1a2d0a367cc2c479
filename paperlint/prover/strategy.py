"""The prove strategy for one obligation: the automation ladder first, then the tool loop.

`prove` is what the engine's prove step calls (issue #13): it never decides a verdict, it only
returns an accepted proof (with how it was found) or why there is none. Automation closing the
obligation means zero model calls; otherwise the first prompt carries the premises found up
front and what automation tried, and the loop runs under its budget.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict

from paperlint.lean.verifier import LeanContext, Verifier
from paperlint.prover.automation import LADDER, AutomationOutcome, run_ladder
from paperlint.prover.index import SearchIndex
from paperlint.prover.loop import Emit, LoopBudget, LoopOutcome, LoopStatus, ProverLoop, TurnLog
from paperlint.prover.model import ToolModel, TurnKey
from paperlint.prover.prompt import first_messages, premises, system_prompt, user_prompt
from paperlint.prover.tools import Workbench


class ClosedBy(StrEnum):
    AUTOMATION = "automation"
    SEARCH = "search"  # the model's proof uses a name a search (or the premises) returned
    LIBRARY = "library"  # the model's proof uses a library suggestion
    MODEL = "model"


@dataclass(frozen=True)
class ObligationTask:
    result: str
    obligation: str
    attempt: int
    skeleton: str
    target: str
    step_text: str
    context: LeanContext
    setting: str = ""
    failures: Sequence[dict[str, Any]] = ()
    hidden: frozenset[str] = frozenset()  # the result's own name and every later result's


class StrategyOutcome(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    proof: str | None
    closed_by: ClosedBy | None
    reason: str
    suspected_problem: bool = False
    automation: AutomationOutcome
    loop: LoopOutcome | None = None
    first_prompt_chars: int = 0

    @property
    def model_calls(self) -> int:
        return 0 if self.loop is None else self.loop.turns


@dataclass
class Prover:
    verifier: Verifier
    probe: Verifier
    model: ToolModel
    model_name: str
    log: TurnLog
    index: SearchIndex | None = None
    budget: LoopBudget = field(default_factory=LoopBudget)
    ladder: Sequence[str] = LADDER
    emit: Emit = lambda event: None
    check_timeout_s: float = 120.0  # each `check` tool call's Lean timeout

    def prove(self, task: ObligationTask) -> StrategyOutcome:
        automation = run_ladder(
            self.verifier, task.context, task.skeleton, task.target, ladder=self.ladder
        )
        self.emit(
            {
                "event": "prover_automation",
                "result": task.result,
                "obligation": task.obligation,
                "closed_by": automation.closed_by,
                "tried": [r.tactic for r in automation.tried],
            }
        )
        if automation.closed:
            return StrategyOutcome(
                proof=automation.proof,
                closed_by=ClosedBy.AUTOMATION,
                reason=automation.summary(),
                automation=automation,
            )
        if automation.stopped:
            return StrategyOutcome(
                proof=None, closed_by=None, reason=automation.stopped, automation=automation
            )
        return self.loop(task, automation)

    def loop(self, task: ObligationTask, automation: AutomationOutcome) -> StrategyOutcome:
        """The tool loop alone, after automation `automation` (run by the caller) failed."""
        bench = Workbench(
            verifier=self.verifier,
            probe=self.probe,
            context=task.context,
            target=task.target,
            index=self.index,
            hidden=task.hidden,
            skeleton=task.skeleton,
            check_timeout_s=self.check_timeout_s,
        )
        found = premises(bench, task.skeleton, task.step_text)
        user = user_prompt(
            obligation_id=task.obligation,
            skeleton=task.skeleton,
            step_text=task.step_text,
            setting=task.setting,
            premise_text=found.text if found.names else "",
            automation=automation.summary(),
            failures=task.failures,
        )
        messages = first_messages(system_prompt(native=self.model.native(self.model_name)), user)
        loop = ProverLoop(
            model=self.model,
            model_name=self.model_name,
            bench=bench,
            log=self.log,
            budget=self.budget,
            emit=self.emit,
            premises=found.names,
        )
        base = TurnKey("prover", task.result, task.obligation, task.attempt, 0)
        outcome = loop.run(base, messages)
        return StrategyOutcome(
            proof=outcome.proof,
            closed_by=_closed_by(outcome),
            reason=outcome.reason,
            suspected_problem=outcome.suspected_problem,
            automation=automation,
            loop=outcome,
            first_prompt_chars=sum(len(m["content"]) for m in messages),
        )


def _closed_by(outcome: LoopOutcome) -> ClosedBy | None:
    if outcome.status is not LoopStatus.ACCEPTED:
        return None
    if outcome.library_used:
        return ClosedBy.LIBRARY
    return ClosedBy.SEARCH if outcome.premises_used else ClosedBy.MODEL
