"""The prove step's tool loop (issue #13): `paperlint.prover.strategy.Prover.loop` in the engine.

One prove action is one attempt; when the tool loop is on, the attempt is a loop of model turns
and tool calls instead of one tool-less completion. What the engine adds around the loop:

- **charges before use**: the action's first paid turn is charged by `action_started`; every
  further turn is checked against the run's budget and charged (`charge`) before it is asked;
- **events**: every paid turn is a `model_call` (task `prover_turn`, with its `turn`), every
  tool call a `prover_tool`, and the attempt's end a `prover_finished`;
- **resume**: the loop's turn log lives in the workspace (`audits/<id>/turns/…`), one file per
  obligation statement and Lean context, so a resumed action replays the recorded turns and
  tool answers instead of paying for them again;
- **outcomes**: accepted (the proof, and how it was found), a give-up (with a suspected
  problem it feeds the Suspicion path), or a spent loop budget (the obligation ends; the
  result is *unfinished* with the loop's reason unless another route proves it).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from paperlint.engine.actions import Action
from paperlint.engine.context import EngineContext, ToolEdge
from paperlint.engine.steps.effects import ModelUnavailable
from paperlint.errors import ModelError
from paperlint.prover.automation import AutomationOutcome
from paperlint.prover.loop import LoopStatus, TurnLog
from paperlint.prover.probe import Probe
from paperlint.prover.strategy import ObligationTask, Prover, StrategyOutcome
from paperlint.records.events import ModelCallEvent, ProverFinished, ProverTool
from paperlint.records.results import ResultRecord

TURNS_DIR = "turns"
TURN_TASK = "prover_turn"


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
    """Turns the loop's raw notices into the engine's typed events and charges."""

    ctx: EngineContext
    action: Action
    replay: bool
    asked: int = 0

    def __call__(self, raw: dict[str, Any]) -> None:
        kind = raw.get("event")
        if kind == "prover_turn_charged":
            self._charge(raw)
        elif kind == "prover_turn":
            self._turn(raw)
        elif kind == "prover_tool":
            self._tool(raw)
        # `prover_tool_charged`: a tool call is an unpaid Lean probe; the loop charges its own
        # tool budget before running it, and `prover_tool` logs it after.

    def _charge(self, raw: dict[str, Any]) -> None:
        self.asked += 1
        if self.asked == 1:
            return  # charged by this action's `action_started`
        self.ctx.charge({"result": self.action.result, "repair": 0, "try": 1})

    def _turn(self, raw: dict[str, Any]) -> None:
        event = ModelCallEvent(
            role="prover",
            model=str(raw.get("model") or self.action.model or ""),
            task=TURN_TASK,
            result=self.action.result,
            obligation=self.action.obligation,
            attempt=self.action.attempt,
            repair=0,
            tokens_in=raw.get("tokens_in"),
            tokens_out=raw.get("tokens_out"),
            cost_usd=raw.get("cost_usd"),
            duration_s=float(raw.get("duration_s") or 0.0),
            replay=bool(raw.get("replay")) or self.replay,
            prompt_sha256=str(raw.get("prompt_sha256") or ""),
            prompt_drift=False,
            ok=True,
            turn=int(raw["turn"]),
        )
        self.ctx.emit(event.as_event())

    def _tool(self, raw: dict[str, Any]) -> None:
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
        self.ctx.emit(event.as_event())


def run_loop(
    ctx: EngineContext,
    record: ResultRecord,
    action: Action,
    task: ObligationTask,
    automation: AutomationOutcome,
) -> StrategyOutcome:
    """The tool loop for one attempt, its `prover_finished` event logged."""
    tools = _tools(ctx)
    model = action.model or ctx.settings.models.get("prover")
    if not model:
        raise ModelUnavailable(
            "no model configured for role prover; set [models] in paperlint.toml"
        )
    prover = Prover(
        verifier=ctx.verifier,
        # the action's own Lean worker answers the probes when it can (`--jobs N` pools them)
        probe=ctx.verifier if isinstance(ctx.verifier, Probe) else tools.probe,
        model=tools.model,
        model_name=model,
        log=TurnLog(turn_log_path(ctx, record, task)),
        index=tools.index,
        budget=ctx.settings.loop_budget,
        emit=LoopEvents(ctx, action, replay=tools.model.replay),
        check_timeout_s=ctx.settings.lean_timeout_s,
    )
    outcome = guarded(lambda: prover.loop(task, automation), model)
    finished(ctx, action, outcome)
    return outcome


def guarded(run: Callable[[], StrategyOutcome], model: str) -> StrategyOutcome:
    """A provider failure inside the loop (a rate limit, a bad key, a missing model) stops the
    run resumably, as the agents' runner does: the turns before it are in the turn log and a
    `resume` continues from them. The loop itself does not wait and retry (yet)."""
    try:
        return run()
    except ModelError:
        raise
    except Exception as exc:  # litellm's provider exceptions, sorted once by `classify`
        from paperlint.agents.client import import_litellm
        from paperlint.agents.faults import ModelUnavailableError, classify, fix_for

        fault = classify(exc, litellm=import_litellm())
        if fault is None:
            raise
        raise ModelUnavailableError(
            f"{model}: {fault.message}", fix=fix_for(fault, model, None), kind=fault.kind
        ) from exc


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
    ctx.emit(event.as_event())


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


def _tools(ctx: EngineContext) -> ToolEdge:
    if ctx.tools is None:
        raise ModelUnavailable("the tool loop is on but no tool-calling model edge was built")
    return ctx.tools


def automation_closed(outcome: AutomationOutcome) -> StrategyOutcome:
    """The strategy's outcome for an obligation the ladder closed (zero model calls)."""
    from paperlint.prover.strategy import ClosedBy

    return StrategyOutcome(
        proof=outcome.proof,
        closed_by=ClosedBy.AUTOMATION,
        reason=f"`{outcome.closed_by}`",
        automation=outcome,
    )
