"""Build the two edges for a run: who answers the agents' calls, and which Lean checks.

`--replay DIR` serves a recorded transcript through the same litellm code path as a live
model, and recorded Lean answers through the same parsing as the live REPL; both are named
as replays in every output. Without a model or without Lean the run says so and records
`unfinished`; it never invents a verdict.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from paperlint.config import Config
from paperlint.domain import Role
from paperlint.engine.context import Ask
from paperlint.lean.verifier import (
    AxiomReport,
    FailureCode,
    FinalCheck,
    LeanCheck,
    LeanContext,
    Outcome,
    Verifier,
)

# Roles with one model each; the prover has a ladder of models instead.
ROLES: tuple[str, ...] = tuple(role.value for role in Role if role is not Role.PROVER)
Emit = Callable[[dict[str, Any]], None]


@dataclass
class Backends:
    verifier: Verifier
    models: dict[str, Any]  # role -> model string or None; "prover_ladder" -> list
    replay_parts: tuple[str, ...]
    make_ask: Callable[[Emit], Ask]
    notes: list[str] = field(default_factory=list)

    def ask_with(self, emit: Emit) -> Ask:
        return self.make_ask(emit)

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


def make_backends(
    config: Config, replay: Path | None, *, verifier: Verifier | None = None
) -> Backends:
    """The edges of a run; `verifier` replaces the Lean edge (fixture authoring, tests)."""
    made = _replay_backends(config, replay) if replay is not None else _live_backends(config)
    if verifier is not None:
        made.verifier = verifier
    return made


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
        make_ask=lambda emit: _runner_ask(config, client, emit),
    )


def _live_backends(config: Config) -> Backends:
    from paperlint.agents.client import make_client

    models: dict[str, Any] = {role: getattr(config.models, role) for role in ROLES}
    models["prover_ladder"] = list(config.models.prover)
    verifier, note = _live_verifier(config)
    client = make_client(config, None)
    return Backends(
        verifier=verifier,
        models=models,
        replay_parts=(),
        make_ask=lambda emit: _runner_ask(config, client, emit),
        notes=[note] if note else [],
    )


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
    )
    return WarmVerifier(settings), ""


def _runner_ask(config: Config, client: Any, emit: Emit) -> Ask:
    from paperlint.agents.runner import AgentCall, AgentRunner

    def charge(request: dict[str, Any]) -> None:
        # The action's first request was charged in `action_started`; every further request
        # (a repair re-ask, a retry) is charged here, before it is made.
        if request.get("repair", 0) or request.get("try", 1) > 1:
            emit(
                {
                    "type": "charge",
                    "calls": 1,
                    "result": request.get("result"),
                    "repair": request.get("repair", 0),
                    "try": request.get("try", 1),
                }
            )

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
