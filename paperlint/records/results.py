"""The results record (contract: `paperlint.results/2`, docs/design.md §5).

The contract holds verdicts, conditions, issues and evidence paths only. The engine's working
state (drafts, gate answers, obligations, rulings: agent outputs, whose shapes change with the
prompts) is no part of it: in memory it rides on each record as `record.work` (a private
attribute, never serialized into `results.json`), and on disk it lives in its own versioned
file, `engine/state-<sha>.json`, that `Results.engine_state` names (`paperlint.records.work`).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from paperlint.domain import ConditionKind, IssueClass, IssueSideField
from paperlint.records.outputs import DraftCondition, OmitUnused
from paperlint.records.work import ResultWork

RESULTS_SCHEMA: Final = "paperlint.results/2"
__all__ = ["ConditionKind", "IssueClass"]  # re-exported: defined in paperlint.domain


class Stage(StrEnum):
    PENDING = "pending"
    PLANNED = "planned"
    DRAFTED = "drafted"
    GATED = "gated"
    GATE_BLOCKED = "gate_blocked"
    PROVING = "proving"
    AUDITED = "audited"
    DONE = "done"


class Verdict(StrEnum):
    VERIFIED_UNCONDITIONAL = "verified_unconditional"
    VERIFIED_CONDITIONAL = "verified_conditional"
    ISSUE = "issue"
    UNFINISHED = "unfinished"


class UnfinishedReason(StrEnum):
    BUDGET_EXHAUSTED = "budget_exhausted"
    LEAN_UNAVAILABLE = "lean_unavailable"
    MODEL_UNAVAILABLE = "model_unavailable"
    STATEMENT_NOT_APPROVED = "statement_not_approved"
    MISSING_LIBRARY_INTERFACE = "missing_library_interface"
    TRANSLATION_BLOCKED = "translation_blocked"
    INTERRUPTED = "interrupted"
    NOT_VERDICT_BEARING = "not_verdict_bearing"
    DEPENDENCY_UNFINISHED = "dependency_unfinished"
    AUDIT_FAILED = "audit_failed"
    INVALID_MODEL_OUTPUT = "invalid_model_output"
    ISSUE_NOT_CONFIRMED = "issue_not_confirmed"


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class ConditionSource(_Record):
    key: str | None = None  # bibliography key, for a cited result
    locator: str | None = None  # "Theorem 2"
    result: str | None = None  # result id, for a clause of another result
    quote: str | None = None  # the paper's words, for an asserted fact


class Condition(_Record):
    name: str  # the hypothesis' name in the Lean theorem
    lean_type: str
    kind: ConditionKind
    source: ConditionSource = Field(default_factory=ConditionSource)
    used_by: str | None = None  # the proof step that uses it


class IssueLocation(_Record):
    file: str
    line: int
    quote: str


class IssueEvidence(_Record):
    counterexample: str | None = None  # path of a compiled Lean counterexample, in the workspace
    confirmed_by: str | None = None  # the role (and call id) of the confirming review
    raised_by: str | None = None
    review: str | None = None  # path of the confirming review record


class Issue(_Record):
    class_: IssueClass = Field(alias="class")
    side: IssueSideField = Field(title="Side")
    location: IssueLocation
    summary: str = ""
    evidence: IssueEvidence = Field(default_factory=IssueEvidence)


class Unfinished(_Record):
    reason: UnfinishedReason
    detail: str = ""
    remaining: list[str] = Field(default_factory=list)


class Evidence(_Record, OmitUnused):
    OMIT_AT_DEFAULT = ("checker",)  # issue #25: absent from records written before it
    lean_file: str | None = None
    lean_name: str | None = None
    statement_fingerprint: str | None = None
    gate: str | None = None
    final_check: str | None = None
    axioms: list[str] | None = None
    audit: str | None = None
    # the trusted checker's run the verdict rests on (issue #25): audits/<id>/checker.json
    checker: str | None = None
    hashes: dict[str, str] = Field(default_factory=dict)  # workspace path -> sha256


class ResultRecord(_Record):
    id: str
    number: str | None
    kind: str
    stage: Stage = Stage.PENDING
    verdict: Verdict | None = None
    conditions: list[Condition] = Field(default_factory=list)
    issue: Issue | None = None
    unfinished: Unfinished | None = None
    evidence: Evidence = Field(default_factory=Evidence)
    verdict_bearing: bool = True
    notes: list[str] = Field(default_factory=list)
    # The engine's working state: never serialized here (see the module docstring). Set it
    # with `paperlint.engine.steps.base.evolve(record, work=...)`.
    _work: ResultWork = PrivateAttr(default_factory=ResultWork)

    @property
    def work(self) -> ResultWork:
        """What `plan` reads besides the fields above, so a resume needs nothing else.

        Read from pydantic's private-attribute dict directly: `self._work` goes through
        `BaseModel.__getattr__`, ten times slower, and `plan` reads every record's work for
        every action it plans."""
        private = self.__pydantic_private__
        return private["_work"] if private else self._work

    def with_work(self, work: ResultWork) -> ResultRecord:
        """This record carrying `work` (a copy; records are never changed in place)."""
        copy = self.model_copy()
        copy._work = work
        return copy


class Results(_Record):
    schema_: Literal["paperlint.results/2"] = Field(default=RESULTS_SCHEMA, alias="schema")
    replay: bool = False
    replay_parts: list[str] = Field(default_factory=list)  # "model", "lean"
    paper: str = ""
    # the engine's working state of these records: `engine/state-<sha256[:16]>.json`
    engine_state: str | None = None
    results: list[ResultRecord] = Field(default_factory=list)
    extra: dict[str, Any] = Field(default_factory=dict)

    def get(self, result_id: str) -> ResultRecord | None:
        return next((r for r in self.results if r.id == result_id), None)


def encode_record(record: ResultRecord) -> str:
    """One record's entry of `results.json`, as `paperlint.store.write_record` writes it inside
    `results` (indented for that depth): `encode_results` joins them into the same bytes."""
    return "    " + record.model_dump_json(indent=2, by_alias=True).replace("\n", "\n    ")


def encode_results(head: Results, entries: list[str]) -> bytes:
    """`results.json` for `head` (its own `results` empty) with the records `encode_record`
    made, byte for byte what `write_record` writes for the whole: a commit encodes only the
    records an action changed. The first `"results": []` is the field itself (a string value
    cannot hold an unescaped quote)."""
    assert not head.results
    text = head.model_dump_json(indent=2, by_alias=True)
    body = "[\n" + ",\n".join(entries) + "\n  ]" if entries else "[]"
    return (text.replace('"results": []', f'"results": {body}', 1) + "\n").encode("utf-8")


def to_condition(c: DraftCondition) -> Condition:
    """A drafted hypothesis as the record lists it (the validator recomputes the same list)."""
    return Condition(
        name=c.name,
        lean_type=c.lean_type,
        kind=ConditionKind(c.kind),
        source=ConditionSource(key=c.key, locator=c.locator, result=c.result, quote=c.quote),
        used_by=c.used_by,
    )
