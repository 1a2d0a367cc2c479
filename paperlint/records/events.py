"""The events of `events.jsonl`, as typed records: the one place their shapes are stated.

`docs/events.md` is generated from this module (`python -m paperlint.records.events`), and a
test checks it has not drifted. Every event also has `seq` (1-based) and `ts` (ISO 8601 UTC),
added by the journal when it appends.

The end of an action is one line, `action_finished`, carrying the stage change and the verdict
together: the engine appends it before it commits `results.json`, so a crash between any two
writes leaves either both (the verdict is logged and recorded) or neither (`resume` redoes the
action). Workspaces written before this carry separate `stage` and `verdict` events; they are
still read (`LegacyStage`, `LegacyVerdict`).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from paperlint.domain import IssueClass
from paperlint.records.results import Stage, UnfinishedReason, Verdict


class BaseEvent(BaseModel):
    """A line of `events.jsonl`, as the journal is handed it (`Journal.emit`)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    seq: int | None = None
    ts: str | None = None

    def as_event(self) -> dict[str, Any]:
        """The JSON object the journal appends (without `seq` and `ts`, which it adds)."""
        return self.model_dump(mode="json", by_alias=True, exclude={"seq", "ts"})


class ActionRef(BaseModel):
    """The action an event is about, as the engine planned it."""

    model_config = ConfigDict(extra="forbid")

    kind: str
    result: str
    obligation: str | None = None
    attempt: int = 1
    model: str | None = None


class StageChange(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    from_: Stage = Field(alias="from")
    to: Stage


class RunStarted(BaseEvent):
    """A `check` or `resume` began."""

    type: Literal["run_started"] = "run_started"
    command: str
    paperlint_version: str
    replay: list[str] = Field(description='what is replayed: "model", "lean"')


class ActionStarted(BaseEvent):
    """The engine took an action; its first model call is charged here. (An action a Ray actor
    went on to in the same call is taken once the action before it is committed, a few
    milliseconds after the actor started it: docs/ray.md.)"""

    type: Literal["action_started"] = "action_started"
    action: ActionRef
    charge: dict[str, int] = Field(description='`{"calls": 1}`')


class ModelCallEvent(BaseEvent):
    """One request to a model (or its replay)."""

    type: Literal["model_call"] = "model_call"
    role: str
    model: str
    task: str
    result: str | None
    obligation: str | None
    attempt: int
    repair: int
    tokens_in: int | None
    tokens_out: int | None
    cost_usd: float | None = Field(
        description="null when unknown; 0 only for a model priced at 0 (a local one)"
    )
    duration_s: float
    replay: bool
    prompt_sha256: str
    prompt_drift: bool
    template_sha256: str | None = Field(
        default=None, description="the prompt template's hash (templates, includes, schema)"
    )
    inputs_sha256: str | None = Field(default=None, description="the prompt inputs' hash")
    template_drift: bool = Field(
        default=False, description="replay: the answer was recorded with another template"
    )
    ok: bool
    finish_reason: str | None = Field(
        default=None, description="the provider's; `length` means the reply was cut off"
    )
    turn: int | None = Field(
        default=None, description="a prover tool-loop turn (task `prover_turn`), 1-based"
    )
    estimated: bool = Field(
        default=False,
        description="the provider sent no usage: tokens and cost are estimated from the "
        "request's and the reply's sizes (4 characters a token)",
    )


class LeanCheckEvent(BaseEvent):
    """One Lean check: `kind` is draft, check, final or vacuity; reconnect (a discharged clause,
    #14); or, for the faithfulness checks of #15, faithfulness (ladder, probe),
    minimal_hypotheses or restatement."""

    type: Literal["lean_check"] = "lean_check"
    result: str
    obligation: str | None
    kind: str
    outcome: str
    code: str | None
    duration_s: float
    replay: bool
    checked: int | None = Field(
        default=None, description="vacuity, faithfulness checks: candidates Lean answered"
    )


class ProverTool(BaseEvent):
    """One tool call of the prover's tool loop (check, goals, search, library, try, give_up),
    after it ran; its answer is in `prover-turns.jsonl` (issue #13)."""

    type: Literal["prover_tool"] = "prover_tool"
    result: str
    obligation: str
    attempt: int
    turn: int
    index: int = Field(description="the call's place in its turn, 0-based")
    tool: str
    ok: bool
    accepted: bool = Field(description="`check` only: the candidate closed the obligation")


class ProverFinished(BaseEvent):
    """How a prove attempt ended, by automation or the tool loop (issue #13)."""

    type: Literal["prover_finished"] = "prover_finished"
    result: str
    obligation: str
    attempt: int
    status: str = Field(description="accepted, gave_up, unfinished or rejected")
    closed_by: str | None = Field(description="automation, search, library or model; or null")
    detail: str = Field(description="the tactic, the names used, or why it ended")
    model_turns: int
    tool_calls: int
    tokens_in: int


class ActionFinished(BaseEvent):
    """The end of an action, in one line: whether it worked, the stage change, the verdict."""

    type: Literal["action_finished"] = "action_finished"
    action: ActionRef
    ok: bool = Field(description="false when an edge failed (no model, invalid answer, no Lean)")
    result: str | None = Field(default=None, description="the action's result")
    stage: StageChange | None = Field(default=None, description="null when it did not change")
    verdict: Verdict | None = Field(default=None, description="the new verdict, or null")
    class_: IssueClass | None = Field(default=None, alias="class", description="issue class")
    reason: UnfinishedReason | None = Field(default=None, description="unfinished reason")


class RunFinished(BaseEvent):
    type: Literal["run_finished"] = "run_finished"
    exit_code: int
    summary: dict[str, int] = Field(description="counts per verdict")


class Retry(BaseEvent):
    """A model request failed transiently and is retried after `wait_s`."""

    type: Literal["retry"] = "retry"
    role: str
    model: str
    wait_s: float
    error: str
    result: str | None
    obligation: str | None
    try_: int = Field(alias="try")
    retry_after_s: float | None = Field(default=None, description="what the server asked for")
    status: int | None = Field(default=None, description="the HTTP status, when there was one")


class ModelFallback(BaseEvent):
    """The prompt did not fit a model's context window; the role's next model is asked."""

    type: Literal["model_fallback"] = "model_fallback"
    role: str
    result: str | None
    model: str = Field(description="the next model asked")
    error: str


class LeanRestart(BaseEvent):
    """The warm REPL was restarted; its context is rebuilt with paperlint's own timeouts."""

    type: Literal["lean_restart"] = "lean_restart"
    reason: str
    rss_mb: float


class Charge(BaseEvent):
    """A request beyond an action's first (a repair re-ask, a retry), charged before it is made."""

    type: Literal["charge"] = "charge"
    calls: int
    result: str | None
    repair: int
    try_: int = Field(alias="try")


class Interrupted(BaseEvent):
    """Ctrl-C: open results were recorded as `unfinished: interrupted`."""

    type: Literal["interrupted"] = "interrupted"


class RevisionEvent(BaseEvent):
    """Written by `paperlint revise`."""

    type: Literal["revision"] = "revision"
    paper: str
    snapshot: str
    reset: list[dict[str, str]] = Field(description="each `{id, action, why}`, as the dry run")
    added: list[str]
    removed: list[str]
    renumbered: Any
    renamed: dict[str, str] = Field(
        default_factory=dict,
        description="old id -> new id of each result whose id changed; the events before name "
        "it by the old one (`paperlint.records.history`)",
    )


class RevisionUndone(BaseEvent):
    type: Literal["revision_undone"] = "revision_undone"
    snapshot: str


class StrategyChosen(BaseEvent):
    """The strategy chosen for a result at the start of a check, from the run record (#19)."""

    type: Literal["strategy_chosen"] = "strategy_chosen"
    result: str
    strategy: str
    kind: str = Field(description="the obligation kind the run record was read for")
    phase: str = Field(description="default, explore or exploit")
    reason: str
    seed: int


class LibraryOffered(BaseEvent):
    """The promoted library lemmas a check offers its prover, copied at its start (#19)."""

    type: Literal["library_offered"] = "library_offered"
    lemmas: list[str]
    skipped: list[str] = Field(description="lemmas not offered, each with the reason")


class ConvergenceReviewed(BaseEvent):
    """The final convergence review: what the two reviewers flagged and what is re-gated."""

    type: Literal["convergence_reviewed"] = "convergence_reviewed"
    status: str = Field(description="done, pending (resume asks again) or not_run")
    reason: str | None = None
    flagged: list[str] = Field(default_factory=list)
    regate: list[str] = Field(default_factory=list)


class LegacyStage(BaseEvent):
    """Before one-line action ends: a stage change (read, no longer written)."""

    type: Literal["stage"] = "stage"
    result: str
    from_: Stage = Field(alias="from")
    to: Stage


class LegacyVerdict(BaseEvent):
    """Before one-line action ends: a verdict (read, no longer written)."""

    type: Literal["verdict"] = "verdict"
    result: str
    verdict: Verdict
    class_: IssueClass | None = Field(default=None, alias="class")
    reason: UnfinishedReason | None = None


EVENT_TYPES: tuple[type[BaseEvent], ...] = (
    RunStarted,
    ActionStarted,
    ModelCallEvent,
    LeanCheckEvent,
    ProverTool,
    ProverFinished,
    ActionFinished,
    RunFinished,
    Retry,
    ModelFallback,
    LeanRestart,
    Charge,
    Interrupted,
    RevisionEvent,
    RevisionUndone,
    StrategyChosen,
    LibraryOffered,
    ConvergenceReviewed,
    LegacyStage,
    LegacyVerdict,
)
Event = Annotated[
    RunStarted
    | ActionStarted
    | ModelCallEvent
    | LeanCheckEvent
    | ProverTool
    | ProverFinished
    | ActionFinished
    | RunFinished
    | Retry
    | ModelFallback
    | LeanRestart
    | Charge
    | Interrupted
    | RevisionEvent
    | RevisionUndone
    | StrategyChosen
    | LibraryOffered
    | ConvergenceReviewed
    | LegacyStage
    | LegacyVerdict,
    Field(discriminator="type"),
]
EVENT: TypeAdapter[Event] = TypeAdapter(Event)


def parse_event(data: dict[str, Any]) -> Event:
    """One line of `events.jsonl` as its typed record; raises `ValueError` if it is not one."""
    return EVENT.validate_python(data)


def verdict_of(data: dict[str, Any]) -> tuple[str, str, str | None] | None:
    """(result, verdict, issue class) an event logs, or None when it logs no verdict.

    Read from the raw line, not the typed record, so that a forged or damaged line is still
    compared (and disagrees) rather than silently skipped."""
    if data.get("type") not in ("action_finished", "verdict"):
        return None
    result, verdict = data.get("result"), data.get("verdict")
    if not isinstance(result, str) or verdict is None:
        return None
    issue_class = data.get("class")
    return result, str(verdict), issue_class if isinstance(issue_class, str) else None


# --- docs/events.md -----------------------------------------------------------------------------

_INTRO = """# events.jsonl

<!-- generated from paperlint/records/events.py by `python -m paperlint.records.events` -->

Append-only, one JSON object per line, written through `paperlint.records.EventLog`.
Every event has `seq` (1-based), `ts` (ISO 8601 UTC) and `type`. Types:

| type | fields |
|---|---|
"""
_OUTRO = """
The end of an action is one `action_finished` line (stage change, verdict, class and reason
together), appended before `results.json` is committed: a crash between any two writes leaves
the log and the records in agreement, or makes `resume` redo the action.

Charges stay charged: `resume` and `revise --undo` never remove events, so spending is never
refunded.
"""


def _field_doc(name: str, info: Any) -> str:
    text = f"`{info.alias or name}`"
    return f"{text} ({info.description})" if info.description else text


def render_docs() -> str:
    rows = []
    for model in EVENT_TYPES:
        fields = model.model_fields
        tag = fields["type"].default
        listed = [_field_doc(n, f) for n, f in fields.items() if n not in ("seq", "ts", "type")]
        what = (model.__doc__ or "").strip().replace("\n", " ")
        cells = ", ".join(listed) or "—"
        rows.append(f"| `{tag}` | {cells}{' — ' + what if what else ''} |")
    return _INTRO + "\n".join(rows) + "\n" + _OUTRO


if __name__ == "__main__":  # pragma: no cover - the docs generator
    print(render_docs(), end="")
