"""The prove step's tool loop (issue #13): `paperlint.prover.strategy.Prover.loop` in the engine.

One prove action is one attempt; when the tool loop is on, the attempt is a loop of model turns
and tool calls instead of one tool-less completion. What the engine adds around the loop:

- **one model edge**: every turn goes through the agents' model client (`prover.model.
  AgentTurns`): the action's first paid turn is charged by `action_started`, every further one
  checked against the run's budget and charged before it is asked; rate limits and outages
  are waited out as for every call; each paid turn is a `model_call` (task `prover_turn`,
  with its `turn`), recorded with `--record` and served by a replay's transcript;
- **events**: every tool call a `prover_tool`, and the attempt's end a `prover_finished`;
- **resume**: the loop's turn log lives in the workspace (`audits/<id>/turns/…`), one file per
  obligation statement and Lean context, so a resumed action replays the recorded turns and
  tool answers instead of paying for them again;
- **outcomes**: accepted (the proof, and how it was found), a give-up (with a suspected
  problem it feeds the Suspicion path), or a spent loop budget (the obligation ends; the
  result is *unfinished* with the loop's reason unless another route proves it).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from paperlint.agents.faults import no_model
from paperlint.engine.actions import Action
from paperlint.engine.context import EngineContext
from paperlint.prover.automation import AutomationOutcome
from paperlint.prover.loop import LoopStatus, TurnLog
from paperlint.prover.model import AgentTurns
from paperlint.prover.strategy import ObligationTask, Prover, StrategyOutcome
from paperlint.records.events import ProverFinished, ProverTool
from paperlint.records.results import ResultRecord

TURNS_DIR = "turns"


def turn_log_path(ctx: EngineContext, record: ResultRecord, task: ObligationTask) -> Path:
    """One log per obligation statement and Lean context: a re-gated or revised obligation
    (same id, attempts counted again from 1) never replays the turns of an older one."""
    key = f"{task.obligation}\0{task.skeleton}\0{task.context.key()}"
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    return ctx.ws.audit_dir(record.id) / TURNS_DIR / f"{digest}.jsonl"


def hidden_names(ctx: EngineContext, record: ResultRecord, target: str) -> frozenset[str]:
    """The target and the Lean names of this result and every later one: search never
    returns them (a proof must not lean on what it is proving)."""
    at = ctx.order.index(record.id) if record.id in ctx.order else 0
    later = (ctx.lean_names.get(rid) for rid in ctx.order[at:])
    return frozenset({target, *(name for name in later if name)})


@dataclass
class LoopEvents:
    """Turns the loop's notices of its tool calls into the engine's typed events. (Its paid
    turns are the model edge's: charged and logged as `model_call`s there.)"""

    ctx: EngineContext
    action: Action

    def __call__(self, raw: dict[str, Any]) -> None:
        if raw.get("event") != "prover_tool":
            return  # a turn's notices: the model edge charged and logged it
        event = ProverTool(
            result=self.action.result,
            obligation=str(self.action.obligation),
            attempt=self.action.attempt,
            turn=int(raw["turn"]),
            index=int(raw["index"]),
            tool=str(raw["tool"]),
            ok=bool(raw["ok"]),
            accepted=bool(raw["accepted"]),
        )
        self.ctx.emit(event)


def run_loop(
    ctx: EngineContext,
    record: ResultRecord,
    action: Action,
    task: ObligationTask,
    automation: AutomationOutcome,
) -> StrategyOutcome:
    """The tool loop for one attempt, its `prover_finished` event logged. A provider failure
    on a turn is the model edge's to wait out or stop on (resumably: the turns before it are
    in the turn log, and a `resume` continues from them)."""
    model = action.model or ctx.settings.models.get("prover")
    if not model:
        raise no_model("prover")
    prover = Prover(
        verifier=ctx.verifier,
        probe=ctx.verifier,  # the action's own Lean worker answers the tools' probe commands
        model=AgentTurns(ctx.turns),
        model_name=model,
        log=TurnLog(turn_log_path(ctx, record, task)),
        index=ctx.index,
        budget=ctx.settings.loop_budget,
        emit=LoopEvents(ctx, action),
        check_timeout_s=ctx.settings.lean_timeout_s,
    )
    outcome = prover.loop(task, automation)
    finished(ctx, action, outcome)
    return outcome


def finished(ctx: EngineContext, action: Action, outcome: StrategyOutcome) -> None:
    loop = outcome.loop
    status = loop.status.value if loop else ("accepted" if outcome.proof else "rejected")
    event = ProverFinished(
        result=action.result,
        obligation=str(action.obligation),
        attempt=action.attempt,
        status=status,
        closed_by=outcome.closed_by.value if outcome.closed_by else None,
        detail=describe(outcome),
        model_turns=outcome.model_calls,
        tool_calls=loop.tool_calls if loop else 0,
        tokens_in=loop.tokens_in if loop else 0,
    )
    ctx.emit(event)


def describe(outcome: StrategyOutcome) -> str:
    """One line: the tactic automation used, the searched names the proof uses, or why not."""
    loop = outcome.loop
    if outcome.closed_by is None or loop is None:
        return outcome.reason[:300]
    names = ", ".join(loop.premises_used)
    return f"uses {names}" if names else outcome.reason[:300]


def spent(ctx: EngineContext, outcome: StrategyOutcome, log: Path) -> str | None:
    """Why the loop ended unproved when its budget was spent, and where its turns are kept."""
    loop = outcome.loop
    if loop is None or loop.status is not LoopStatus.UNFINISHED:
        return None
    reason = loop.reason.removeprefix("budget_exhausted: ")
    return f"{reason}; its {loop.turns} turns are kept in {ctx.ws.rel(log)}"


def automation_closed(outcome: AutomationOutcome) -> StrategyOutcome:
    """The strategy's outcome for an obligation the ladder closed (zero model calls)."""
    from paperlint.prover.strategy import ClosedBy

    return StrategyOutcome(
        proof=outcome.proof,
        closed_by=ClosedBy.AUTOMATION,
        reason=f"`{outcome.closed_by}`",
        automation=outcome,
    )
