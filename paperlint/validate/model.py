"""What the validator reads and what it reports: a workspace snapshot and findings.

The snapshot holds every file of the workspace in memory (the records, `audits/`, `lean/`,
`source/`), read once at the edge by `load.load_snapshot`; every rule is a pure function over
it. Rule ids are a contract (users grep and suppress them): add ids, never rename them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import PurePosixPath
from typing import Any

from paperlint.records.results import ResultRecord


class Check(StrEnum):
    # The workspace as a whole.
    RESULTS_SCHEMA = "results-schema"  # results.json unreadable or a record invalid
    ENGINE_STATE = "engine-state"  # the engine state results.json names: missing or invalid
    RESULT_MISSING = "result-missing"  # a result of the inventory has no record
    RESULT_UNKNOWN = "result-unknown"  # a record the inventory does not know
    RECORD_INVENTORY_MISMATCH = "record-inventory-mismatch"  # kind or verdict-bearing changed
    REPLAY_HIDDEN = "replay-hidden"  # replayed evidence, but results.json does not say replay
    EVENTS_MISSING = "events-missing"  # events.jsonl absent or unreadable
    VERDICT_EVENT_MISMATCH = "verdict-event-mismatch"  # verdict differs from its last event
    # Re-derived from first principles (soundness_rules.py).
    INVENTORY_SOURCE_MISMATCH = "inventory-source-mismatch"  # preflight on source/ differs
    GATE_TEX_MISMATCH = "gate-tex-mismatch"  # the gate reviewed another TeX statement
    REFUTED_BUT_VERIFIED = "refuted-but-verified"  # a compiled refutation of a verified result
    LIVE_RUN_MISMATCH = "live-run-mismatch"  # replay: false, but events show replayed answers
    PROMPT_MISMATCH = "prompt-mismatch"  # a verdict rests on an answer to another prompt
    ANSWER_NOT_ALLOWED = "answer-not-allowed"  # an accepted proof breaks the answer allowlist
    SECOND_KERNEL = "second-kernel"  # the run claimed a second kernel that did not pass
    # Any result.
    VERDICT_MISSING = "verdict-missing"  # a verdict-bearing result is done without a verdict
    STAGE_VERDICT = "stage-verdict"  # a final verdict on a result that is not done
    NOT_VERDICT_BEARING = "not-verdict-bearing"  # a definition carries a proof verdict
    # issue/unfinished parts contradict the verdict (an unfinished verdict needs its reason;
    # an empty or unknown reason already fails the record's schema)
    VERDICT_INCONSISTENT = "verdict-inconsistent"
    EVIDENCE_PATH = "evidence-path"  # an evidence path escapes the workspace
    EVIDENCE_MISSING = "evidence-missing"  # a named evidence file does not exist
    HASH_MISSING = "hash-missing"  # a hashed evidence file is gone, or required but not hashed
    HASH_MISMATCH = "hash-mismatch"  # an evidence file's sha256 changed
    # Verified results.
    GATE_MISSING = "gate-missing"
    GATE_NOT_PASSED = "gate-not-passed"
    GATE_NOT_LATEST = "gate-not-latest"  # a later gate round exists than the one cited
    GATE_RECORD_MISMATCH = "gate-record-mismatch"  # the gate file and results.json disagree
    GATE_FINGERPRINT = "gate-fingerprint"  # recorded fingerprints disagree with the statement
    GATED_STATEMENT_MISMATCH = "gated-statement-mismatch"  # draft records disagree with the gate
    LEAN_FILE_MISSING = "lean-file-missing"
    LEAN_FILE_NOT_REBUILT = "lean-file-not-rebuilt"  # not what the gated records compose to
    LEAN_DECLARATION_MISSING = "lean-declaration-missing"  # lean_name absent or declared twice
    STATEMENT_CHANGED = "statement-changed"  # the Lean file's statement is not the gated one
    LEAN_CONTEXT_CHANGED = "lean-context-changed"  # header, opens, namespaces differ
    DEFINITION_CHANGED = "definition-changed"  # a gated definition or step was edited
    HELPER_NOT_ALLOWED = "helper-not-allowed"  # a new instance/structure/… or a shadowing helper
    TRIVIAL_DEFINITION = "trivial-definition"  # a Prop-valued definition that is just `True`
    FINAL_CHECK_MISSING = "final-check-missing"
    FINAL_CHECK_UNCLEAN = "final-check-unclean"  # exit code, sorry warning, errors
    FINAL_CHECK_STALE = "final-check-stale"  # the record is about other bytes than the file
    AXIOMS_MISSING = "axioms-missing"
    AXIOMS_NONSTANDARD = "axioms-nonstandard"
    AXIOMS_MISMATCH = "axioms-mismatch"  # evidence.axioms differs from the final check's
    # Faithfulness evidence (#15), when recorded: claims Lean did not show, or no longer shows.
    FAITHFULNESS_INCONSISTENT = "faithfulness-inconsistent"
    AXIOMS_OUTPUT_MISMATCH = "axioms-output-mismatch"  # the recorded Lean output says otherwise
    HYGIENE = "hygiene"  # a blocking hygiene finding in the Lean file or its local imports
    AUDIT_MISSING = "audit-missing"
    AUDIT_NOT_PASSED = "audit-not-passed"
    AUDIT_RECORD_MISMATCH = "audit-record-mismatch"  # final-audit.json vs results.json's copy
    ENGINE_AUDIT_FAILED = "engine-audit-failed"  # the engine's own mechanical audit said no
    UNCONDITIONAL_HAS_CONDITIONS = "unconditional-has-conditions"
    CONDITIONAL_WITHOUT_CONDITIONS = "conditional-without-conditions"
    CONDITION_NOT_HYPOTHESIS = "condition-not-hypothesis"  # not a binder with that type
    CONDITION_PROVENANCE = "condition-provenance"  # key, quote or result id not found
    CONDITIONS_MISMATCH = "conditions-mismatch"  # results.json vs the gated draft's conditions
    HIDDEN_HYPOTHESIS = "hidden-hypothesis"  # a condition-shaped binder that is not listed
    CONTRADICTORY_HYPOTHESES = "contradictory-hypotheses"  # e.g. `x < 0` and `0 < x`
    # a reconnection (issue #14) that does not re-derive: it discharges nothing
    DISCHARGE_INVALID = "discharge-invalid"
    # The trusted checker (issue #25, checker_rules.py): the record a verified verdict rests on.
    CHECKER_MISSING = "checker-missing"  # the run used the checker; this result has no record
    CHECKER_FAILED = "checker-failed"  # the record is unreadable, or the check did not pass
    CHECKER_STALE = "checker-stale"  # the record judged other modules than the records compose
    CHECKER_FINDING = "checker-finding"  # the record's facts break a checker rule (named)
    REFERENCE_UNLOCKED = "reference-unlocked"  # the gate locked no reference statement
    # Issues.
    ISSUE_MISSING = "issue-missing"
    ISSUE_QUOTE = "issue-quote"  # the quote is not verbatim in the kept source at that line
    ISSUE_RULING_MISMATCH = "issue-ruling-mismatch"  # issue.json disagrees with the record
    ISSUE_REVIEW_MISMATCH = "issue-review-mismatch"  # the review file and results.json disagree
    ISSUE_REVIEW_MISSING = "issue-review-missing"
    ISSUE_NOT_CONFIRMED = "issue-not-confirmed"
    ISSUE_SELF_CONFIRMED = "issue-self-confirmed"  # confirmed by the agent that raised it
    COUNTEREXAMPLE_MISSING = "counterexample-missing"
    COUNTEREXAMPLE_UNCLEAN = "counterexample-unclean"  # check record not clean, stale, axioms
    COUNTEREXAMPLE_NOT_REFUTATION = "counterexample-not-refutation"


@dataclass(frozen=True)
class Finding:
    """One disagreement between a verdict and its evidence, at a workspace-relative path."""

    path: str
    rule: Check
    message: str
    line: int | None = None
    result: str | None = None

    def render(self, root: str = "") -> str:
        where = f"{root.rstrip('/')}/{self.path}" if root else self.path
        line = f":{self.line}" if self.line else ""
        return f"{where}{line}: {self.rule.value}: {self.message}"

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "line": self.line,
            "rule": self.rule.value,
            "result": self.result,
            "message": self.message,
        }


@dataclass(frozen=True)
class Snapshot:
    """A workspace's files, by workspace-relative POSIX path, plus the parsed records."""

    root: str
    files: Mapping[str, bytes]
    records: tuple[ResultRecord, ...] = ()
    record_errors: tuple[Finding, ...] = ()  # records that failed their schema
    events: tuple[dict[str, Any], ...] | None = None  # None: events.jsonl missing or unreadable
    config: Mapping[str, Any] = field(default_factory=dict)  # paperlint.toml, parsed
    # preflight re-run on source/ at the load edge (inventory JSON), or why it could not run
    source_inventory: Mapping[str, Any] | None = None
    source_inventory_error: str | None = None
    meta: Mapping[str, Any] = field(default_factory=dict)  # results.json's top-level fields

    def has(self, rel: str | None) -> bool:
        return rel is not None and safe_rel(rel) is not None and safe_rel(rel) in self.files

    def text(self, rel: str | None) -> str | None:
        key = safe_rel(rel) if rel is not None else None
        data = self.files.get(key) if key is not None else None
        return data.decode("utf-8", errors="replace") if data is not None else None

    def json(self, rel: str | None) -> dict[str, Any] | None:
        text = self.text(rel)
        if text is None:
            return None
        try:
            value = json.loads(text)
        except ValueError:
            return None
        return value if isinstance(value, dict) else None

    def sha256(self, rel: str) -> str | None:
        key = safe_rel(rel)
        data = self.files.get(key) if key is not None else None
        return hashlib.sha256(data).hexdigest() if data is not None else None

    def listing(self, folder: str) -> list[str]:
        prefix = folder.rstrip("/") + "/"
        return sorted(p for p in self.files if p.startswith(prefix))

    def line_of(self, rel: str, needle: str) -> int | None:
        text = self.text(rel)
        if text is None or needle not in text:
            return None
        return text.count("\n", 0, text.index(needle)) + 1


def safe_rel(rel: str) -> str | None:
    """The normalised workspace-relative path, or None when it could leave the workspace."""
    if not rel or "\\" in rel or "\0" in rel:
        return None
    path = PurePosixPath(rel)
    if path.is_absolute() or any(part in ("..", "") for part in path.parts):
        return None
    return path.as_posix()
