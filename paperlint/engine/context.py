"""What the engine needs around the records: the paper, the plan, the edges, the settings."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel

from paperlint.lean.verifier import Verifier
from paperlint.preflight.model import Inventory, Result
from paperlint.prover.index import SearchIndex
from paperlint.prover.loop import LoopBudget
from paperlint.records.events import BaseEvent
from paperlint.records.learning import OfferedLemma
from paperlint.records.workspace import Workspace

if TYPE_CHECKING:
    from paperlint.agents.runner import AgentRunner


class Ask(Protocol):
    """One agent call: render the task's prompt, call the model, return the parsed output.

    Raises `paperlint.errors.ModelError` when no model answers or the answer stays invalid.
    """

    def __call__(
        self,
        task: str,
        *,
        role: str,
        result: str,
        obligation: str | None,
        attempt: int,
        model: str,
        inputs: dict[str, Any],
    ) -> BaseModel: ...


@dataclass(frozen=True)
class Settings:
    """What the steps read of the run's configuration, derived from the run spec once
    (`paperlint.engine.opening.derive`; no default is stated here)."""

    header: str
    models: dict[str, str | None]  # role -> model string (prover: the first rung)
    lean_timeout_s: float
    final_timeout_s: float
    failed_attempts_in_prompt: int
    # Issue #13: the tactic ladder is tried on an obligation's first attempt before any model.
    automation_first: bool
    automation_timeout_s: float
    # Issue #19: the promoted library lemmas this check took at its start (library-offered.json),
    # tried as automation rungs after the ladder; `library_rungs` of them per obligation.
    library: tuple[OfferedLemma, ...]
    library_rungs: int
    # The results whose chosen strategy (strategy.json) turns the automation ladder off.
    no_automation: frozenset[str]
    # Issue #13: each prove attempt runs the tool loop (`[prover] tool_loop`), under this
    # budget per obligation; off, an attempt is one tool-less completion.
    tool_loop: bool
    loop_budget: LoopBudget
    # Issue #15: re-check a verified proof with each explicit hypothesis removed.
    minimal_hypotheses: bool


@dataclass(frozen=True)
class EngineContext:
    """What a step sees around the records, built whole by `engine.opening.open_run` and never
    changed after (an action on a leased worker gets a copy with that verifier)."""

    ws: Workspace
    inventory: Inventory
    order: list[str]
    lean_names: dict[str, str]
    modules: dict[str, str]  # result id -> workspace-relative Lean file
    deps: dict[str, list[str]]  # result id -> transitive dependencies, in order
    settings: Settings
    ask: Ask
    """One agent call (a task's parsed answer), through the run's one model edge."""
    turns: AgentRunner
    """The tool loop's turns, through the same model edge as `ask` (`AgentRunner`)."""
    verifier: Verifier
    emit: Callable[[BaseEvent], None] = field(default=lambda event: None)
    index: SearchIndex | None = None
    """The tool loop's declaration index, when the loop runs (None: `search` says so)."""

    def paper_result(self, result_id: str) -> Result:
        found = self.inventory.result(result_id)
        if found is None:
            raise KeyError(result_id)
        return found
