"""The opening of a run: from the run spec to the context the engine runs with, in one direction.

    journal -> edges (the journal their sink, each built complete) -> derive(spec, models)
            -> a frozen `EngineContext`

`check`, `resume`, `batch`, a Ray task and the MCP jobs (which run the CLI) all open a run here,
and nothing assigns into a verifier or a context after it is built. `derive` is pure and is the
only place a setting is taken from the config: this module, the CLI, the spec
(`paperlint.spec`) and the model client (`paperlint.agents`) are the only readers of the config
(tests/engine/test_config_reach.py).

`--replay DIR` serves a recorded transcript through the same runner as a live model (litellm is
never imported for it), and recorded Lean answers through the same parsing as the live REPL;
both are named as replays in every output. Without a model or without Lean the run says so and
records `unfinished`; it never invents a verdict.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperlint.blueprint.model import Blueprint
from paperlint.domain import SECOND_DRAFTER, Role
from paperlint.engine.context import EngineContext, Settings
from paperlint.engine.policy import Policy
from paperlint.errors import InputError
from paperlint.lean import compose
from paperlint.lean.verifier import UnavailableVerifier, Verifier
from paperlint.preflight.model import Inventory
from paperlint.prover.loop import LoopBudget
from paperlint.records.events import BaseEvent, Charge, LeanRestart
from paperlint.records.journal import Journal
from paperlint.records.layout import transitive_deps
from paperlint.records.learning import (
    Offered,
    OfferedLemma,
    StrategyPlan,
    read_offer,
    read_strategies,
    write_offer,
    write_strategies,
)
from paperlint.records.spend import Budget
from paperlint.records.workspace import Workspace
from paperlint.spec import RunSpec, replay_parts

if TYPE_CHECKING:
    from paperlint.agents.client import ModelClient
    from paperlint.agents.runner import AgentRunner
    from paperlint.prover.index import IndexFile

log = logging.getLogger(__name__)

ROLES: tuple[str, ...] = tuple(role.value for role in Role if role is not Role.PROVER)
"""Roles with one model each; the prover has a ladder of models instead."""
REPLAY_INDEX = "declarations.jsonl"
"""A replay folder's recorded extraction of the pinned environment (the `search` index)."""


@dataclass(frozen=True)
class Models:
    """Who answers the agents: a model per role, the prover's ladder, and whether the first
    prover model can take tool-loop turns natively."""

    roles: Mapping[str, str | None]
    ladder: tuple[str, ...]
    turns: bool = False
    """The model edge can answer tool-loop turns (a replay: it recorded some)."""
    native_tools: bool = False


@dataclass(frozen=True)
class Learned:
    """What this check took from the user's learning data at its start (its own records)."""

    library: tuple[OfferedLemma, ...] = ()
    no_automation: frozenset[str] = frozenset()


@dataclass(frozen=True)
class LeanEdge:
    verifier: Verifier
    new_worker: Callable[[], Verifier] | None = None
    """Starts another warm worker like `verifier` (`check --jobs N` runs a pool of them); None
    when the verifier is shared instead (a replay, a stand-in, one handed in, a recording)."""


@dataclass(frozen=True)
class OpenRun:
    """An opened run: the context, the policy, the journal and the Lean edge it runs with."""

    ctx: EngineContext
    policy: Policy
    journal: Journal
    lean: LeanEdge
    replay_parts: tuple[str, ...]
    missing: tuple[tuple[str, str], ...]
    """What stops any real work: (unfinished reason, what to do), model first."""
    convergence: bool
    """`[learning] convergence`: the final review runs when the loop is done."""

    def close(self) -> None:
        self.lean.verifier.close()


def open_run(
    ws: Workspace,
    spec: RunSpec,
    *,
    inventory: Inventory,
    blueprint: Blueprint,
    journal: Journal | None = None,
    verifier: Verifier | None = None,
) -> OpenRun:
    """Open a run on `ws`: its journal (the event log, or one handed in: a Ray task's), the
    edges with the journal as their sink, the settings and policy, the context. `verifier`
    replaces the Lean edge (a stand-in, a Ray task's remote worker)."""
    journal = journal if journal is not None else Journal(ws.events())
    lean = lean_edge(spec, journal.emit) if verifier is None else LeanEdge(verifier)
    runner = model_edge(spec, journal)
    models = models_of(spec, runner.client)
    missing = tuple(missing_edges(models, lean.verifier))
    settings, policy = derive(spec, models, learned_of(ws), complete=not missing)
    order = _order(inventory, blueprint)
    ctx = EngineContext(
        ws=ws,
        inventory=inventory,
        order=order,
        lean_names={e.id: e.lean_name for e in blueprint.entries},
        modules={e.id: e.lean_file for e in blueprint.entries},
        deps=transitive_deps(blueprint, order),
        settings=settings,
        ask=runner.ask,
        turns=runner,
        verifier=lean.verifier,
        emit=journal.emit,
        index=index_for(spec) if settings.tool_loop else None,
    )
    parts = replay_parts(spec)
    return OpenRun(ctx, policy, journal, lean, parts, missing, spec.config.learning.convergence)


def _order(inventory: Inventory, blueprint: Blueprint) -> list[str]:
    entries = {e.id for e in blueprint.entries}
    return [i for i in blueprint.order if i in entries] or [r.id for r in inventory.results]


# --- derive: the one place settings come from the config -------------------------------------


def derive(
    spec: RunSpec, models: Models, learned: Learned, *, complete: bool = True
) -> tuple[Settings, Policy]:
    """The steps' settings and the queue's policy, from the spec (pure). `complete`: a model
    for every role and Lean that runs (else nothing runs, and the tool loop is off)."""
    config = spec.config
    prover, lean, budget = config.prover, config.lean, config.budget
    tool_loop = (
        complete
        and bool(models.ladder)
        and models.turns
        and (prover.tool_loop == "on" or (prover.tool_loop == "auto" and models.native_tools))
    )
    settings = Settings(
        header=compose.header(max_heartbeats=lean.max_heartbeats),
        models={role: model for role, model in models.roles.items() if isinstance(model, str)},
        lean_timeout_s=lean.timeout_s,
        final_timeout_s=lean.final_timeout_s,
        failed_attempts_in_prompt=budget.max_failed_attempts_in_prompt,
        automation_first=config.automation.enabled,
        automation_timeout_s=config.automation.timeout_s,
        library=learned.library,
        library_rungs=config.learning.library_rungs,
        no_automation=learned.no_automation,
        tool_loop=tool_loop,
        loop_budget=LoopBudget(
            max_turns=prover.max_turns,
            max_tool_calls=prover.max_tool_calls,
            max_wall_s=prover.max_wall_s,
        ),
        minimal_hypotheses=config.faithfulness.minimal_hypotheses,
    )
    policy = Policy(
        prover_ladder=models.ladder,
        prover_attempts=budget.prover_attempts,
        escalate_after=budget.escalate_after,
        draft_rounds=budget.draft_rounds,
        double_draft=config.faithfulness.double_draft,
        budget=budget_of(spec),
    )
    return settings, policy


def budget_of(spec: RunSpec) -> Budget:
    return Budget(spec.config.budget.max_calls, spec.config.budget.max_cost_usd)


def learned_of(ws: Workspace) -> Learned:
    strategies = read_strategies(ws.root)
    off = {rid for rid, c in strategies.choices.items() if c.strategy == "no-automation"}
    return Learned(library=read_offer(ws.root).lemmas, no_automation=frozenset(off))


# --- what a check takes at its start --------------------------------------------------------


def refuse_unpriced(spec: RunSpec) -> None:
    """With `--max-cost`, every configured model needs a price, or the cap could not bind."""
    if spec.edges.replay is not None or spec.allow_unpriced:
        return
    if spec.config.budget.max_cost_usd is None:
        return
    from paperlint.agents.client import unpriced_models

    unpriced = unpriced_models(spec.config)
    if unpriced:
        raise InputError(
            f"--max-cost cannot be enforced: no price is known for {', '.join(unpriced)}",
            hint='add [prices."MODEL"] input_cost_per_token and output_cost_per_token to '
            "paperlint.toml, or pass --allow-unpriced to count their cost as unknown",
        )


def take_learning(ws: Workspace, spec: RunSpec, inventory: Inventory) -> None:
    """What a check takes from the user's library and run record at its start, as its own
    records (read again by every opening of this check)."""
    write_offer(ws.root, library_offer(spec))
    write_strategies(ws.root, strategy_plan(spec, inventory))


def strategy_plan(spec: RunSpec, inventory: Inventory) -> StrategyPlan:
    """A strategy per verdict-bearing result from the run record (`[learning] strategy`)."""
    from paperlint.learning.runrecord import read_entries
    from paperlint.learning.strategy import ChooserSettings, baseline_plan, plan_strategies
    from paperlint.learning.userdata import user_data_dir
    from paperlint.records.initial import is_verdict_bearing

    learning = spec.config.learning
    settings = ChooserSettings(seed=learning.strategy_seed, min_trials=learning.strategy_min_trials)
    results = [(r.id, r.kind) for r in inventory.results if is_verdict_bearing(r)]
    if learning.strategy == "baseline":
        return baseline_plan(results, settings.seed)
    # A replay takes nothing from the user's record: it re-serves a recorded run, so it
    # chooses from the record the replay folder carries (`runs.jsonl`, usually none), and two
    # replays of one fixture choose and report alike on any machine (#28).
    folder = spec.edges.replay if spec.edges.replay is not None else user_data_dir()
    try:
        entries = read_entries(folder).entries
    except OSError as exc:
        log.warning("the run record is unreadable (%s); every result gets the baseline", exc)
        entries = []
    return plan_strategies(entries, results, settings)


def library_offer(spec: RunSpec) -> Offered:
    """The promoted lemmas this check offers its prover, taken from the user's library now."""
    if not spec.config.learning.library:
        return Offered()
    from paperlint.learning.library import Library, current_pins, library_dir
    from paperlint.learning.offer import take_offer
    from paperlint.learning.userdata import user_data_dir

    library = Library(library_dir(user_data_dir()))
    if not library.manifest_path.is_file():
        return Offered()
    return take_offer(library, current_pins(spec.lean.project))


# --- the edges -------------------------------------------------------------------------------


def models_of(spec: RunSpec, client: ModelClient) -> Models:
    """The model per role; a replay routes every role to `paperlint-replay/<role>`. Whether the
    edge answers tool-loop turns, and natively, is the model client's to say."""
    config = spec.config
    if spec.edges.replay is not None:
        roles: dict[str, str | None] = {role: f"paperlint-replay/{role}" for role in ROLES}
        ladder: tuple[str, ...] = ("paperlint-replay/prover",)
    else:
        roles = {role: getattr(config.models, role) for role in ROLES}
        ladder = tuple(config.models.prover)
        if config.models.second_drafter:  # else the second draft asks the drafter afresh
            roles[SECOND_DRAFTER] = config.models.second_drafter
    if config.prover.tool_loop == "off" or not ladder or not client.answers_turns():
        return Models(roles, ladder)
    return Models(roles, ladder, turns=True, native_tools=client.supports_tools(ladder[0]))


def missing_edges(models: Models, verifier: Verifier) -> list[tuple[str, str]]:
    """What stops any real work: (unfinished reason, what to do), model first."""
    problems: list[tuple[str, str]] = []
    roles = [role for role in ROLES if not models.roles.get(role)]
    if not models.ladder:
        roles.append("prover")
    if roles:
        problems.append(
            (
                "model_unavailable",
                f"no model configured for {', '.join(roles)}; set [models] in paperlint.toml "
                "(`paperlint doctor` lists what is missing)",
            )
        )
    if isinstance(verifier, UnavailableVerifier):
        problems.append(("lean_unavailable", f"Lean cannot run: {verifier.reason}"))
    return problems


Emit = Callable[[BaseEvent], None]


def lean_edge(spec: RunSpec, emit: Emit | None) -> LeanEdge:
    """The Lean edge, built complete: its restarts logged to `emit` (None: not logged), its
    answers recorded with `--record`. A recording is written by one verifier (no pool)."""
    from paperlint.lean.replay import LeanRecorder, ReplayVerifier

    recorder = (
        LeanRecorder(
            spec.edges.record,
            toolchain=spec.versions.get("lean_toolchain"),
            mathlib_rev=spec.versions.get("mathlib_rev"),
        )
        if spec.edges.record is not None
        else None
    )
    recorded = spec.edges.replay or spec.edges.lean_replay
    if recorded is not None:
        return LeanEdge(ReplayVerifier(recorded, on_served=recorder.copy if recorder else None))
    from paperlint.lean.doctor import lean_ready
    from paperlint.lean.warm import Restart, WarmSettings, WarmVerifier

    ready, reason = lean_ready(spec.lean)
    if not ready:
        return LeanEdge(UnavailableVerifier(reason))
    lean = spec.config.lean
    settings = WarmSettings(
        paths=spec.lean,
        memory_hard_limit_mb=lean.memory_mb,
        heartbeats=lean.max_heartbeats,
        sandbox=lean.sandbox,
    )

    def restarted(restart: Restart) -> None:
        if emit is not None:
            emit(LeanRestart(reason=restart.reason, rss_mb=round(restart.rss_mb)))

    def start() -> Verifier:
        write = recorder.write if recorder is not None else None
        return WarmVerifier(settings, on_restart=restarted, recorder=write)

    return LeanEdge(start(), new_worker=start if recorder is None else None)


def lean_kept_by(spec: RunSpec) -> object | None:
    """What `lean_edge` builds a warm REPL from: a later run whose spec gives the same may keep
    the REPL (a Ray actor serving a batch's papers). None: a replay or a recording, which
    belongs to its own run."""
    edges = spec.edges
    if edges.replay is not None or edges.lean_replay is not None or edges.record is not None:
        return None
    return (spec.lean, spec.config.lean.model_dump_json())


def model_edge(spec: RunSpec, journal: Journal) -> AgentRunner:
    """The one model edge, for every role and every tool-loop turn: retries and waits,
    charging, recording and replay keying alike. Every request an action makes beyond its
    first (a repair re-ask, a retry, a later turn) is checked against the budget and charged
    before it is sent, under the journal's lock (no two actions spend one last call); every
    request is an event."""
    from paperlint.agents.client import make_client, preload_litellm
    from paperlint.agents.runner import AgentRunner

    client = make_client(spec.config, spec.edges.replay, record_dir=spec.edges.record)
    if not client.replay:
        preload_litellm()

    def before(request: dict[str, Any]) -> None:
        # The action's first request was charged in `action_started` (the plan checked the
        # budget before it): it is `free`; every further request is charged here.
        if not request.get("free"):
            charge(spec, journal, request)

    return AgentRunner(spec.config, client=client, on_event=journal.emit, before_request=before)


def charge(spec: RunSpec, journal: Journal, request: Mapping[str, Any]) -> None:
    """Check the budget and charge one more request, as one step under the journal's lock;
    raise `BudgetSpent` (nothing charged) when it would overspend."""
    from paperlint.agents.faults import BudgetSpent

    with journal.lock:
        refusal = budget_of(spec).refusal(journal.spend)
        if refusal is not None:
            raise BudgetSpent(refusal)
        journal.emit(
            Charge(
                calls=1,
                result=request.get("result"),
                repair=request.get("repair", 0),
                try_=request.get("try", 1),
            )
        )


def index_for(spec: RunSpec) -> IndexFile | None:
    """The tool loop's declaration index: the recorded extraction of the folder the run's Lean
    answers come from (`--replay`, `--lean-replay`), or the one `paperlint setup` made (and
    saved built); None: `search` says to set it up. Nothing is read until the first search."""
    from paperlint.lean.extraction import index_file

    recorded = spec.edges.replay or spec.edges.lean_replay
    path = recorded / REPLAY_INDEX if recorded is not None else index_file(spec.lean)
    if not path.is_file():
        return None
    stat = path.stat()
    return _index(path, stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=4)
def _index(path: Path, mtime_ns: int, size: int) -> IndexFile:
    """The declaration index, read once per file and process (a Ray worker's tasks and every
    opening of one run share it; a rewritten file is read again)."""
    from paperlint.prover.index import IndexFile

    return IndexFile(path)
