"""Build the two edges for a run: who answers the agents' calls, and which Lean checks.

`--replay DIR` serves a recorded transcript through the same litellm code path as a live
model, and recorded Lean answers through the same parsing as the live REPL; both are named
as replays in every output. Without a model or without Lean the run says so and records
`unfinished`; it never invents a verdict.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from paperlint.config import Config
from paperlint.domain import SECOND_DRAFTER, Role
from paperlint.engine.context import Ask, ToolEdge
from paperlint.lean.verifier import (
    AxiomReport,
    FailureCode,
    FinalCheck,
    LeanCheck,
    LeanContext,
    Outcome,
    Verifier,
)
from paperlint.records.spend import Budget, Spend

# Roles with one model each; the prover has a ladder of models instead.
ROLES: tuple[str, ...] = tuple(role.value for role in Role if role is not Role.PROVER)
Emit = Callable[[dict[str, Any]], None]
SpendNow = Callable[[], Spend]
Serialise = AbstractContextManager[Any]


@dataclass
class Backends:
    verifier: Verifier
    models: dict[str, Any]  # role -> model string or None; "prover_ladder" -> list
    replay_parts: tuple[str, ...]
    make_ask: Callable[[Emit, SpendNow, Serialise], Ask]
    notes: list[str] = field(default_factory=list)
    new_verifier: Callable[[], Verifier] | None = None
    """Starts another warm worker like `verifier` (`check --jobs N` runs a pool of them);
    None when the verifier is shared instead (a replay, a stand-in, one handed in)."""
    tools: ToolEdge | None = None
    """The tool loop's model, probe and declaration index (issue #13); None: no tool model."""

    def ask_with(self, emit: Emit, spend: SpendNow = Spend, lock: Serialise | None = None) -> Ask:
        """The agents' entry point; `spend` reads the run's spend so far, checked before
        every request an action makes beyond its first, under `lock` (the journal's, when
        actions run in parallel). Lean restarts go to `emit` too."""
        report_restarts(self.verifier, emit)
        return self.make_ask(emit, spend, lock if lock is not None else nullcontext())

    def missing(self) -> list[tuple[str, str]]:
        """What stops any real work: (unfinished reason, what to do), model first."""
        problems: list[tuple[str, str]] = []
        roles = [role for role in ROLES if not self.models.get(role)]
        if not self.models.get("prover_ladder"):
            roles.append("prover")
        if roles:
            problems.append(
                (
                    "model_unavailable",
                    f"no model configured for {', '.join(roles)}; set [models] in paperlint.toml "
                    "(`paperlint doctor` lists what is missing)",
                )
            )
        if isinstance(self.verifier, UnavailableVerifier):
            problems.append(("lean_unavailable", f"Lean cannot run: {self.verifier.reason}"))
        return problems


class UnavailableVerifier:
    """Stands in when no Lean can run: every answer is `unavailable` with the reason."""

    is_replay = False
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

    def close(self) -> None:
        return None


@dataclass(frozen=True)
class EdgeOptions:
    """How the live edges are wired for one run (`check --record/--lean-replay`)."""

    record: Path | None = None
    """Write every live model answer and Lean answer here, as a replay fixture."""
    lean_replay: Path | None = None
    """Serve Lean answers from this recorded folder while the models are live."""


def make_backends(
    config: Config,
    replay: Path | None,
    *,
    verifier: Verifier | None = None,
    edges: EdgeOptions | None = None,
) -> Backends:
    """The edges of a run; `verifier` replaces the Lean edge (fixture authoring, tests)."""
    edges = edges or EdgeOptions()
    made = _replay_backends(config, replay) if replay else _live_backends(config, edges)
    if verifier is not None:
        made.verifier = verifier
        made.new_verifier = None
    made.tools = tool_edge(config, replay, made.verifier, record=edges.record)
    if edges.record is not None and replay is None:
        made.new_verifier = None  # one recording file, written by one verifier
        from paperlint.lean.replay import RecordingVerifier

        made.verifier = RecordingVerifier(made.verifier, edges.record)
    return made


REPLAY_INDEX = "declarations.jsonl"
"""A replay folder's recorded extraction of the pinned environment (the `search` index)."""


def tool_edge(
    config: Config, replay: Path | None, verifier: Verifier, *, record: Path | None = None
) -> ToolEdge | None:
    """The tool loop's edges: a replay's recorded turns (`prover-turns.jsonl`, else None: its
    answers are one-shot), or the live tool-calling model. Lean's raw answers come from the
    verifier when it can answer probe commands (the warm REPL), else from the replay's
    `lean-probe.jsonl`; the index from the replay folder or from `paperlint setup`."""
    from paperlint.prover.model import TURNS_FILE, ToolModel
    from paperlint.prover.probe import PROBE_FILE, Probe, ScriptedProbe, UnavailableProbe

    if config.prover.tool_loop == "off":
        return None
    model: ToolModel
    probe: Probe
    if replay is not None:
        from paperlint.prover.model import ScriptedToolModel

        if not (replay / TURNS_FILE).is_file():
            return None
        model = ScriptedToolModel.load(replay / TURNS_FILE)
        probe = ScriptedProbe.load(replay / PROBE_FILE)
    else:
        model = _live_tool_model(config)
        probe = UnavailableProbe("Lean cannot answer probe commands here")
    if isinstance(verifier, Probe):
        probe = verifier  # the warm REPL (or an authoring double) answers probe commands too
    if record is not None and replay is None:
        from paperlint.prover.model import RecordingToolModel
        from paperlint.prover.probe import RecordingProbe

        model, probe = RecordingToolModel(model, record), RecordingProbe(probe, record)
    return ToolEdge(model=model, probe=probe, index=_index(config, replay))


def _live_tool_model(config: Config) -> Any:
    import os

    from paperlint.prover.model import LiteLLMToolModel

    role = config.role_settings("prover")
    return LiteLLMToolModel(
        mode="auto",  # native tools when litellm says the model has them, else the text protocol
        request_timeout_s=role.timeout_s,
        api_base=role.api_base,
        api_key=os.environ.get(role.api_key_env) if role.api_key_env else None,
    )


def _index(config: Config, replay: Path | None) -> Any:
    from paperlint.lean.extraction import index_file, read_extraction
    from paperlint.lean.pins import resolve_paths
    from paperlint.prover.index import DeclIndex

    if replay is not None:
        path = replay / REPLAY_INDEX
    else:
        path = index_file(resolve_paths(config.lean.project_dir, config.lean.repl_dir))
    return DeclIndex(read_extraction(path)) if path.is_file() else None


def uses_tool_loop(config: Config, backends: Backends) -> bool:
    """`[prover] tool_loop`: on, off, or (auto) when the first prover model calls tools
    natively; a replay with recorded tool turns does, one without them does not."""
    tools, ladder = backends.tools, backends.models.get("prover_ladder") or []
    if tools is None or not ladder:
        return False
    return config.prover.tool_loop == "on" or tools.model.native(str(ladder[0]))


def _replay_backends(config: Config, replay: Path) -> Backends:
    from paperlint.agents.client import make_client
    from paperlint.lean.replay import ReplayVerifier

    client = make_client(config, replay)
    models: dict[str, Any] = {role: f"paperlint-replay/{role}" for role in ROLES}
    models["prover_ladder"] = ["paperlint-replay/prover"]
    return Backends(
        verifier=ReplayVerifier(replay),
        models=models,
        replay_parts=("model", "lean"),
        make_ask=lambda emit, spend, lock: _runner_ask(config, client, emit, spend, lock),
    )


def _live_backends(config: Config, edges: EdgeOptions) -> Backends:
    from paperlint.agents.client import make_client

    models: dict[str, Any] = {role: getattr(config.models, role) for role in ROLES}
    models["prover_ladder"] = list(config.models.prover)
    if config.models.second_drafter:  # else the second draft asks the drafter's model afresh
        models[SECOND_DRAFTER] = config.models.second_drafter
    if edges.lean_replay is not None:
        from paperlint.lean.replay import ReplayVerifier

        verifier: Verifier = ReplayVerifier(edges.lean_replay)
        note, parts = "", tuple[str, ...](("lean",))
    else:
        verifier, note = _live_verifier(config)
        parts = tuple[str, ...]()
    client = make_client(config, None, record_dir=edges.record)
    return Backends(
        verifier=verifier,
        models=models,
        replay_parts=parts,
        make_ask=lambda emit, spend, lock: _runner_ask(config, client, emit, spend, lock),
        notes=[note] if note else [],
        new_verifier=_another_worker(verifier),
    )


def _another_worker(verifier: Verifier) -> Callable[[], Verifier] | None:
    from paperlint.lean.warm import WarmVerifier

    if not isinstance(verifier, WarmVerifier):
        return None
    settings = verifier.settings
    return lambda: WarmVerifier(settings)


def _live_verifier(config: Config) -> tuple[Verifier, str]:
    """The warm REPL verifier when Lean is set up; else a stand-in saying what is missing."""
    from paperlint.lean.doctor import lean_ready
    from paperlint.lean.pins import resolve_paths
    from paperlint.lean.warm import WarmSettings, WarmVerifier

    paths = resolve_paths(config.lean.project_dir, config.lean.repl_dir)
    ready, reason = lean_ready(paths)
    if not ready:
        return UnavailableVerifier(reason), reason
    settings = WarmSettings(
        paths=paths,
        memory_hard_limit_mb=config.lean.memory_mb,
        heartbeats=config.lean.max_heartbeats,
        sandbox=config.lean.sandbox,
    )
    return WarmVerifier(settings), ""


def _runner_ask(config: Config, client: Any, emit: Emit, spend: SpendNow, lock: Serialise) -> Ask:
    from paperlint.agents.runner import AgentCall, AgentRunner

    def charge(request: dict[str, Any]) -> None:
        # The action's first request was charged in `action_started` (the plan checked the
        # budget before it); every further request (a repair re-ask, a retry) is checked
        # against the budget and charged here, before it is sent.
        if request.get("repair", 0) or request.get("try", 1) > 1:
            with lock:  # check and charge as one step: no two actions spend one last call
                charge_request(config, spend, emit, request)

    runner = AgentRunner(config, client=client, on_event=emit, before_request=charge)

    def ask(
        task: str,
        *,
        role: str,
        result: str,
        obligation: str | None,
        attempt: int,
        model: str,
        inputs: dict[str, Any],
    ) -> BaseModel:
        call = AgentCall(
            task=task,
            role=role,
            result=result,
            obligation=obligation,
            attempt=attempt,
            inputs=inputs,
        )
        return runner.call(call, model=model).output

    return ask


def charge_request(config: Config, spend: SpendNow, emit: Emit, request: dict[str, Any]) -> None:
    refuse_over_budget(config, spend())
    emit(
        {
            "type": "charge",
            "calls": 1,
            "result": request.get("result"),
            "repair": request.get("repair", 0),
            "try": request.get("try", 1),
        }
    )


def report_restarts(verifier: Verifier, emit: Emit) -> None:
    """Log each restart of a warm REPL (under a recording wrapper too) as an event."""
    target = getattr(verifier, "inner", verifier)
    if not hasattr(target, "on_restart"):
        return

    def on_restart(restart: Any) -> None:
        emit({"type": "lean_restart", "reason": restart.reason, "rss_mb": round(restart.rss_mb)})

    target.on_restart = on_restart


def refuse_over_budget(config: Config, spent: Spend) -> None:
    """Raise BudgetSpent when one more request would pass `--max-calls` or `--max-cost`."""
    from paperlint.agents.faults import BudgetSpent

    budget = Budget(config.budget.max_calls, config.budget.max_cost_usd)
    refusal = budget.refusal(spent)
    if refusal is not None:
        raise BudgetSpent(refusal)
