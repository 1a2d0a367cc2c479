"""Per-result working state of the engine, kept in `engine/state-<sha>.json` beside
`results.json` (`paperlint.records.state`; docs/workspace.md), never in the contract.

Large texts (Lean candidates, reviews) live in files under `lean/` and `audits/`; this record
holds what `plan` needs to decide the next action, so a resume needs nothing else.

Every field of it is a step's own `Slot` (issue #27), kept in `ResultWork.slots` by the
step's kind and read by other steps only through that step's typed accessor (the suspicion
under review, which the prover or the gate raises in its own slot: `suspicion_of`). A slot
is declared in its step's module (`paperlint.engine.steps`), or in `paperlint.records.slots`
when the validator reads it (the validator never imports the engine). A slot declares which of its
fields are agent outputs (`REFS`: on disk each is a reference to the `audits/` file that holds
it, `paperlint.records.state`) and what a reset keeps of it (`after_reset`).

This module never imports the engine: the state codec and the rewind learn the slot types
from the engine's registry (`learn_slots`, called where the registry is built) and from
`paperlint.records.slots` (`record_slot`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, SerializeAsAny

from paperlint.records.outputs import OmitUnused

if TYPE_CHECKING:
    from paperlint.records.results import ResultRecord

ResetAction = Literal["re-draft", "re-gate", "re-prove"]


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class FailedProof(_Record):
    attempt: int
    model: str
    file: str  # the candidate, under audits/<id>/
    feedback: str  # Lean's answer for the prover, truncated


class Obligation(_Record):
    id: str
    skeleton: str  # the declaration with a `sorry` body, as gated
    status: Literal["open", "proved", "failed"] = "open"
    proof: str | None = None  # the accepted declaration text
    attempts: int = 0
    failures: list[FailedProof] = Field(default_factory=list)


class Suspicion(_Record, OmitUnused):
    OMIT_AT_DEFAULT = ("raised_by",)  # issue #15
    obligation: str | None
    reason: str
    raised_by: str = "prover"  # the role: the prover, or the gate (issue #15)


class CounterexampleCheck(_Record, OmitUnused):
    """An ERROR's counterexample: the file a referee reads, and how it was judged."""

    OMIT_AT_DEFAULT = ("declaration", "checker")  # issue #25
    file: str  # the self-contained file under lean/ (read, not built)
    accepted: bool  # the trusted checker found nothing (before #25: the file's build was clean)
    axioms_ok: bool
    detail: str = ""
    # Issue #25: the declaration judged (the refutation statement, the model's proof) and the
    # trusted checker's run on it (audits/<id>/counterexample.json); None before the checker.
    declaration: str | None = None
    checker: str | None = None


class FinalAudit(_Record, OmitUnused):
    OMIT_AT_DEFAULT = ("checker", "checker_problems")  # issue #25
    file: str  # the self-contained file under lean/ a referee reads
    clean: bool  # every module compiled (before #25: the file's own cold build was clean)
    axioms: list[str] | None  # the checker's (before #25: the file's `#print axioms`)
    axioms_ok: bool
    hygiene_findings: list[str] = Field(default_factory=list)
    fingerprint_ok: bool = False
    # What Lean's elaboration of the statement changed since the gate (elaborated.py).
    statement_changes: list[str] = Field(default_factory=list)
    # audits/<id>/final-check.json: the file's cold build, before #25; None since the verdict
    # rests on the trusted checker (`checker`), which compiles the same declarations.
    record: str | None
    detail: str = ""
    # Issue #25: the trusted checker's run (audits/<id>/checker.json) and every reason it does
    # not support a verified verdict ("<rule>: <message>"); None: no checker ran.
    checker: str | None = None
    checker_problems: list[str] = Field(default_factory=list)


# --- slots: which fields are agent outputs, what a reset keeps ------------------------------


@dataclass(frozen=True)
class StoredOutput:
    """A field holding an agent output, stored as a reference to the `audits/` file that holds
    it (`paperlint.records.state`). A candidate names a file its step does not write again
    while the state naming it stands; files a step may still write are never named."""

    model: type[BaseModel]
    label: str  # of a file of its own: state-<label>-<sha16>.json
    names: str  # the audit files that may hold it (a regular expression on the name)
    candidates: Callable[[ResultWork, int], list[str]]  # (work, index in a list) -> files


S = TypeVar("S", bound="Slot")


class Slot(_Record):
    """A step's own working state. A subclass sets `KIND` (its step's kind), declares its
    agent-output fields in `REFS` and may override `after_reset` and `may_write`; every
    field has a default (an absent slot reads as the default one)."""

    KIND: ClassVar[str]
    REFS: ClassVar[Mapping[str, StoredOutput]] = {}

    @classmethod
    def after_reset(
        cls: type[S], before: ResultRecord, action: ResetAction, revision: bool
    ) -> S | None:
        """What a reset keeps of this slot of `before` (None: nothing). `revision`: a
        revision of the paper; else the convergence review's re-gate. Default: nothing."""
        return None

    def may_write(self) -> frozenset[str]:
        """Files of the result's `audits/` folder this slot's step may still write."""
        return frozenset()


class UnknownSlot(Slot):
    """A slot read by a process that does not know its step (the validator, the report): kept
    as stored, never interpreted. Such a process does not write the state."""

    KIND = ""
    stored: dict[str, Any]


_slot_types: list[Callable[[], Mapping[str, type[Slot]]]] = [dict]
_record_slots: dict[str, type[Slot]] = {}
SlotType = TypeVar("SlotType", bound=type[Slot])


def learn_slots(types: Callable[[], Mapping[str, type[Slot]]]) -> None:
    """Where the slot types come from: the engine's registry (kind -> slot type)."""
    _slot_types[0] = types


def record_slot(model: SlotType) -> SlotType:
    """A slot every process knows, registry or not (`paperlint.records.slots`)."""
    _record_slots[model.KIND] = model
    return model


def record_slot_types() -> Mapping[str, type[Slot]]:
    """The slot types every process knows (`record_slot`), by kind."""
    return dict(_record_slots)


def slot_types() -> Mapping[str, type[Slot]]:
    """The slot types known to this process, by kind."""
    return {**_record_slots, **_slot_types[0]()}


class ResultWork(_Record, OmitUnused):
    """Every step's own slot, in `slots` (see the module docstring)."""

    REFS: ClassVar[Mapping[str, StoredOutput]]  # set below the class: its candidates read it

    OMIT_AT_DEFAULT = ("slots",)  # issue #27

    # Step kind -> that step's own slot (issue #27); an absent one is its default.
    slots: dict[str, SerializeAsAny[Slot]] = Field(default_factory=dict)

    def slot(self, model: type[S]) -> S:
        """The slot of `model`'s step (its default when absent): for that step's accessor."""
        found = self.slots.get(model.KIND)
        if isinstance(found, UnknownSlot):  # read before the registry taught the codec
            raise RuntimeError(f"the {model.KIND} slot was read without its type: read again")
        return found if isinstance(found, model) else model()

    def with_slot(self, slot: Slot) -> ResultWork:
        """This work with `slot` in its step's place (a copy); a default slot is absent."""
        slots = {kind: s for kind, s in self.slots.items() if kind != slot.KIND}
        if slot != type(slot)():
            slots[slot.KIND] = slot
        return self.model_copy(update={"slots": slots})

    def pending_files(self) -> frozenset[str]:
        """Files some step may still write (`Slot.may_write`): no reference names one."""
        found: set[str] = set()
        for model in slot_types().values():
            found |= self.slot(model).may_write()
        return frozenset(found)


# No agent output outside a slot: every step's own slot declares its outputs.
ResultWork.REFS = {}
