"""The engine's working state on disk (`paperlint.engine-state/2`), apart from the contract.

`results.json` holds verdicts and their evidence; what the engine needs to resume (the drafts,
gate answers, obligations, rulings it has seen) lives in `engine/state-<sha256[:16]>.json`,
named by its own content and by `Results.engine_state`. The file is written before the
`results.json` that names it and old ones are removed after, so a crash between the two writes
leaves the old pair intact (an orphan state file is harmless and removed by the next write).

The agent outputs the state keeps (`OUTPUT_FIELDS`: the plan, drafts, gate answers, ruling,
review, final audit) are not copied into it: each is a reference `{"ref": "audits/<id>/…",
"sha256": …}` to the file under `audits/` that holds exactly that output, so a prompt's output
model is no part of the state's format. In memory `ResultWork` keeps the typed outputs, and
`plan`/`apply` never see a reference: `stored` replaces outputs by references when the state
is written, `resolved` reads them back (path allowlisted, file hashed, output validated).

A reference names only a file the engine does not write again while the state naming it
stands (`_candidates` says why for each output); an output no such file holds (a state from an
older version, a draft whose file a re-gate will write again) is kept in a file of its own,
`audits/<id>/state-<field>-<sha256[:16]>.json`, written before the state that names it.

`paperlint.engine-state/1` held the outputs inline; it is still read (upgraded in memory) and
`paperlint migrate` rewrites it. The validator reads the state too, never for a verdict: a
reference it cannot resolve leaves that result's working state empty, which only fails it.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from paperlint.domain import SECOND_DRAFT_FILE
from paperlint.errors import refuse_newer_schema
from paperlint.records import audits
from paperlint.records.layout import safe_name
from paperlint.records.outputs import (
    ArchitectOutput,
    AuditOutput,
    DraftOutput,
    GateOutput,
    IssueRuling,
    OmitUnused,
    ReviewOutput,
)
from paperlint.records.results import Results
from paperlint.records.work import (
    CounterexampleCheck,
    FinalAudit,
    KeptProof,
    Obligation,
    PreviousProof,
    Reconnection,
    ResultWork,
    Suspicion,
)

ENGINE_STATE_SCHEMA: Final = "paperlint.engine-state/2"
ENGINE_STATE_V1: Final = "paperlint.engine-state/1"  # agent outputs copied inline
KNOWN_STATE_SCHEMAS: Final = (ENGINE_STATE_V1, ENGINE_STATE_SCHEMA)
STATE_DIR: Final = "engine"
# The only names a state file may have: a workspace path from results.json is untrusted.
STATE_PATH: Final = re.compile(r"^engine/state-[0-9a-f]{16}\.json$")
# The only shape a reference may have (and then only into its own result's folder, with a
# name its field allows: `check_ref`).
REF_PATH: Final = r"^audits/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+\.json$"
SHA256: Final = r"^[0-9a-f]{64}$"


class StateRefError(ValueError):
    """A reference in a state file that does not resolve to the output it names."""


# --- what the file on disk looks like -------------------------------------------------------


class OutputRef(BaseModel):
    """An agent output kept in the working state: the file that holds it, and its sha256."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ref: str = Field(pattern=REF_PATH)  # workspace-relative: audits/<id>/<name>.json
    sha256: str = Field(pattern=SHA256)  # of the file's bytes


class StoredWork(OmitUnused):
    """`ResultWork` as the state file holds it: every agent output an `OutputRef`, the rest
    as it is (`tests/test_records_state.py` keeps the two field lists in step)."""

    model_config = ConfigDict(extra="forbid")
    OMIT_AT_DEFAULT = ResultWork.OMIT_AT_DEFAULT

    plan: OutputRef | None = None
    draft: OutputRef | None = None
    draft_rounds: int = 0
    draft_feedback: str | None = None
    second_draft: OutputRef | None = None
    second_draft_asked: bool = False
    second_draft_feedback: str | None = None
    previous: PreviousProof | None = None
    restated: bool = False
    gates: list[OutputRef] = Field(default_factory=list)
    fingerprint: str | None = None
    obligations: list[Obligation] = Field(default_factory=list)
    suspicion: Suspicion | None = None
    ruling: OutputRef | None = None
    counterexample: CounterexampleCheck | None = None
    review: OutputRef | None = None
    final: FinalAudit | None = None
    audit: OutputRef | None = None
    reconnections: list[Reconnection] = Field(default_factory=list)
    kept: KeptProof | None = None
    proof_kept: bool = False


class StoredState(BaseModel):
    """The state file (`schemas/engine-state.schema.json`)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    schema_: Literal["paperlint.engine-state/2"] = Field(
        default=ENGINE_STATE_SCHEMA, alias="schema"
    )
    work: dict[str, StoredWork] = Field(default_factory=dict)  # result id -> working state


class EngineState(BaseModel):
    """The working state in memory: the outputs themselves, typed."""

    model_config = ConfigDict(extra="forbid")

    work: dict[str, ResultWork] = Field(default_factory=dict)  # result id -> working state


# --- which file holds which output ----------------------------------------------------------


@dataclass(frozen=True)
class _Kind:
    model: type[BaseModel]
    label: str  # in the name of a file of its own: state-<label>-<sha16>.json
    names: str  # the audit files that may hold it (regular expression on the file name)


@dataclass(frozen=True)
class _Envelope:
    """How an audit file holds its output: under `key`, or as every key but `beside`."""

    schema: str  # the file's own `schema`
    key: str | None = None
    beside: frozenset[str] = frozenset({"schema"})


# By file stem (the name less `-N.json`); a name not listed holds the output alone (plan.json,
# draft-N.json, second-draft-1.json, state-*.json).
_ENVELOPES: Final[dict[str, _Envelope]] = {
    "gate": _Envelope(audits.GATE, key="review"),
    "issue": _Envelope(audits.ISSUE_RULING),
    "issue-review": _Envelope(audits.REVIEW, beside=frozenset({"schema", "reviewer", "raised_by"})),
    "final-audit": _Envelope(audits.FINAL_AUDIT),
}
_SECOND = re.escape(SECOND_DRAFT_FILE)

OUTPUT_FIELDS: Final[dict[str, _Kind]] = {
    "plan": _Kind(ArchitectOutput, "plan", r"plan\.json"),
    "draft": _Kind(DraftOutput, "draft", rf"draft-[1-9][0-9]*\.json|{_SECOND}"),
    "second_draft": _Kind(DraftOutput, "second-draft", _SECOND),
    "gates": _Kind(GateOutput, "gate", r"gate-[1-9][0-9]*\.json"),
    "ruling": _Kind(IssueRuling, "ruling", r"issue\.json"),
    "review": _Kind(ReviewOutput, "review", r"issue-review\.json"),
    "audit": _Kind(AuditOutput, "audit", r"final-audit\.json"),
}


def own_file(field: str, data: bytes) -> str:
    """The name of the file of its own that holds an output with these bytes."""
    return f"state-{OUTPUT_FIELDS[field].label}-{hashlib.sha256(data).hexdigest()[:16]}.json"


OWN_FILE: Final = re.compile(
    r"^state-(?:"
    + "|".join(re.escape(k.label) for k in OUTPUT_FIELDS.values())
    + r")-[0-9a-f]{16}\.json$"
)


def check_ref(result_id: str, field: str, ref: str) -> str:
    """The file name of `ref` when it may hold `field` of `result_id`; else StateRefError.

    Untrusted input: only `audits/<the result's own folder>/<a name the field allows>.json`,
    no `.`/`..` component, nothing absolute (reading it must also refuse symlinks: `Reader`)."""
    kind = OUTPUT_FIELDS[field]
    folder = safe_name(result_id)
    parts = PurePosixPath(ref).parts
    if (
        len(parts) != 3
        or ref.startswith("/")
        or "\\" in ref
        or parts[0] != "audits"
        or parts[1] in (".", "..")
        or not re.fullmatch(REF_PATH, ref)
        or PurePosixPath(ref).as_posix() != ref
    ):
        raise StateRefError(f"{ref!r} is not a path audits/<id>/<name>.json")
    if parts[1] != folder:
        raise StateRefError(f"{ref!r} is not in {result_id}'s own folder audits/{folder}/")
    label = kind.label
    if not re.fullmatch(kind.names, parts[2]) and not re.fullmatch(
        rf"state-{re.escape(label)}-[0-9a-f]{{16}}\.json", parts[2]
    ):
        raise StateRefError(f"{ref!r} is not a file that holds a {field} output")
    return parts[2]


def _output_in(name: str, raw: Any) -> Any:
    """The output an audit file named `name` holds, from its parsed JSON."""
    stem = re.sub(r"-[0-9]+$", "", name.removesuffix(".json"))
    envelope = _ENVELOPES.get(stem)
    if envelope is None:
        return raw
    if not isinstance(raw, dict) or raw.get("schema") != envelope.schema:
        raise StateRefError(f"not a {envelope.schema} record")
    if envelope.key is not None:
        return raw.get(envelope.key)
    return {k: v for k, v in raw.items() if k not in envelope.beside}


# --- reading a reference --------------------------------------------------------------------

# Workspace-relative path -> the file's bytes; StateRefError when it cannot be read safely.
Reader = Callable[[str], bytes]


def workspace_reader(root: Path) -> Reader:
    """Read files of the workspace at `root`, never through a symlink, never outside it: no
    `.`/`..`/empty component, no component below `root` a symlink (the last one is opened
    with O_NOFOLLOW), a regular file only."""
    base = os.fspath(root)

    def read(rel: str) -> bytes:
        parts = rel.split("/")
        if rel.startswith("/") or any(part in ("", ".", "..") for part in parts):
            raise StateRefError(f"{rel}: not a path inside the workspace")
        path = base
        try:
            for part in parts[:-1]:
                path = os.path.join(path, part)
                if stat.S_ISLNK(os.lstat(path).st_mode):
                    raise StateRefError(f"{rel}: a symlink, not read (evidence is never a link)")
            fd = os.open(os.path.join(path, parts[-1]), os.O_RDONLY | os.O_NOFOLLOW)
        except FileNotFoundError:
            raise StateRefError(f"{rel}: missing") from None
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise StateRefError(
                    f"{rel}: a symlink, not read (evidence is never a link)"
                ) from None
            raise StateRefError(f"{rel}: cannot be read: {exc.strerror}") from None
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise StateRefError(f"{rel}: not a regular file")
            return handle.read()

    return read


def files_reader(files: Mapping[str, bytes]) -> Reader:
    """Read from files already read (the validator's snapshot, which holds no symlink)."""

    def read(rel: str) -> bytes:
        data = files.get(rel)
        if data is None:
            raise StateRefError(f"{rel}: missing (or not a regular file of the workspace)")
        return data

    return read


def _parse(field: str, name: str, data: bytes) -> BaseModel:
    try:
        raw = json.loads(data.decode("utf-8"))
    except ValueError as exc:
        raise StateRefError(f"not JSON: {exc}") from None
    try:
        return OUTPUT_FIELDS[field].model.model_validate(_output_in(name, raw))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "the top"
        model = OUTPUT_FIELDS[field].model.__name__
        raise StateRefError(f"not a valid {model} (at {where}: {first['msg']})") from None


@lru_cache(maxsize=1024)
def _parse_to_compare(field: str, name: str, data: bytes) -> BaseModel:
    """`_parse`, remembered by the file's bytes: each state write compares every output it
    keeps with its file, and most files have not changed since the last write. The model is
    only compared, never handed out (so it cannot be changed under the cache)."""
    return _parse(field, name, data)


def resolve_ref(result_id: str, field: str, ref: OutputRef, read: Reader) -> BaseModel:
    """The output `ref` names, checked: allowlisted path, same bytes, valid output."""
    name = check_ref(result_id, field, ref.ref)
    data = read(ref.ref)
    if hashlib.sha256(data).hexdigest() != ref.sha256:
        raise StateRefError(f"{ref.ref}: changed since the state named it (its sha256 differs)")
    try:
        return _parse(field, name, data)
    except StateRefError as exc:
        raise StateRefError(f"{ref.ref}: {exc}") from None


def resolve_work(result_id: str, stored: StoredWork, read: Reader) -> ResultWork:
    """`stored` with every reference replaced by the output it names (StateRefError if one
    does not resolve)."""
    values: dict[str, Any] = {name: getattr(stored, name) for name in StoredWork.model_fields}
    for field in OUTPUT_FIELDS:
        value = values[field]
        if isinstance(value, list):
            values[field] = [resolve_ref(result_id, field, ref, read) for ref in value]
        elif value is not None:
            values[field] = resolve_ref(result_id, field, value, read)
    return ResultWork.model_validate(values)


def parse_entry(result_id: str, raw: Any, schema: str, read: Reader) -> ResultWork:
    """One result's working state from the state file's JSON: ValidationError for a wrong
    shape, StateRefError for a reference that does not resolve."""
    if schema == ENGINE_STATE_V1:
        return ResultWork.model_validate(raw)
    return resolve_work(result_id, StoredWork.model_validate(raw), read)


def state_schema(raw: object) -> str:
    """The schema of a parsed state file; ValueError when it is not a state record."""
    if not isinstance(raw, dict) or raw.get("schema") not in KNOWN_STATE_SCHEMAS:
        schema = raw.get("schema") if isinstance(raw, dict) else None
        refuse_newer_schema(schema, KNOWN_STATE_SCHEMAS, path=None)
        raise ValueError(
            f"the schema is not one of {', '.join(KNOWN_STATE_SCHEMAS)} (it is {schema!r})"
        )
    if set(raw) - {"schema", "work"} or not isinstance(raw.get("work"), dict):
        raise ValueError("not an engine state record (`schema` and a `work` object only)")
    return str(raw["schema"])


def resolved(raw: object, read: Reader) -> EngineState:
    """The working state in a parsed state file (either version), every reference resolved.

    ValueError (a StateRefError for a reference) naming the result concerned."""
    schema = state_schema(raw)
    assert isinstance(raw, dict)
    work: dict[str, ResultWork] = {}
    for rid, entry in raw["work"].items():
        try:
            work[rid] = parse_entry(rid, entry, schema, read)
        except StateRefError as exc:
            raise StateRefError(f"the working state of {rid}: {exc}") from None
        except ValidationError as exc:
            raise ValueError(f"the working state of {rid} is invalid: {exc}") from None
    return EngineState(work=work)


# --- writing references ---------------------------------------------------------------------


def _candidates(field: str, work: ResultWork, index: int) -> list[str]:
    """The audit files that may be named for an output: each is written by one step only, and
    that step does not run again while a state naming the file stands.

    - plan.json: the plan step runs only while there is no plan;
    - draft-N.json: the draft step writes attempt `draft_rounds + 1`; the standing draft is
      attempt `draft_rounds` (a reset that lowers the count drops the draft too);
    - second-draft-1.json: the second-draft step runs only while `second_draft_asked` is
      false, and a reset that clears it keeps the first draft, not the second: while it is
      false a draft is never named by that file;
    - gate-N.json: the gate writes round `len(gates) + 1`; a reset that restarts the rounds
      drops the gates;
    - issue.json, issue-review.json: only while there is no ruling, no review;
    - final-audit.json: only while there is no final check (the audit records both at once).
    """
    if field == "plan":
        return ["plan.json"]
    if field == "draft":
        return [f"draft-{work.draft_rounds}.json"] + (
            [SECOND_DRAFT_FILE] if work.second_draft_asked else []
        )
    if field == "second_draft":
        return [SECOND_DRAFT_FILE]
    if field == "gates":
        return [f"gate-{index + 1}.json"]
    if field == "ruling":
        return ["issue.json"]
    if field == "review":
        return ["issue-review.json"]
    return ["final-audit.json"] if work.final is not None else []


def output_bytes(output: BaseModel) -> bytes:
    """An output in a file of its own, as `paperlint.store.write_record` writes a record."""
    return (output.model_dump_json(indent=2) + "\n").encode("utf-8")


def _ref_for(
    result_id: str,
    field: str,
    output: BaseModel,
    candidates: list[str],
    read: Reader,
    new_files: dict[str, bytes],
) -> OutputRef:
    folder = f"audits/{safe_name(result_id)}"
    for name in candidates:
        try:
            data = read(f"{folder}/{name}")
            found = _parse_to_compare(field, name, data)
        except StateRefError:
            continue
        if found == output:
            return OutputRef(ref=f"{folder}/{name}", sha256=hashlib.sha256(data).hexdigest())
    data = output_bytes(output)
    rel = f"{folder}/{own_file(field, data)}"
    new_files[rel] = data
    return OutputRef(ref=rel, sha256=hashlib.sha256(data).hexdigest())


def stored_work(
    result_id: str, work: ResultWork, read: Reader, new_files: dict[str, bytes]
) -> StoredWork:
    """`work` as the state file holds it; the files of their own it needs go in `new_files`
    (workspace path -> bytes), to be written before the state."""
    values: dict[str, Any] = {name: getattr(work, name) for name in StoredWork.model_fields}
    for field in OUTPUT_FIELDS:
        value = values[field]
        if isinstance(value, list):
            values[field] = [
                _ref_for(result_id, field, out, _candidates(field, work, i), read, new_files)
                for i, out in enumerate(value)
            ]
        elif value is not None:
            where = _candidates(field, work, 0)
            values[field] = _ref_for(result_id, field, value, where, read, new_files)
    return StoredWork.model_validate(values)


def refs_of(state: StoredState) -> set[str]:
    """Every file the state names."""
    return set().union(*(refs_of_work(work) for work in state.work.values()))


def refs_of_work(work: StoredWork) -> frozenset[str]:
    """Every file one result's stored working state names."""
    found: set[str] = set()
    for field in OUTPUT_FIELDS:
        value = getattr(work, field)
        for ref in value if isinstance(value, list) else [value]:
            if ref is not None:
                found.add(ref.ref)
    return frozenset(found)


# --- the state file -------------------------------------------------------------------------


def encode_entry(result_id: str, work: StoredWork) -> str:
    """One result's entry of the state file, as `encode` writes it inside `work` (indented
    for that depth, no trailing comma): `encode_entries` joins them into the same bytes."""
    value = json.dumps(work.model_dump(mode="json", by_alias=True), indent=2, ensure_ascii=False)
    key = json.dumps(result_id, ensure_ascii=False)
    return f"    {key}: " + value.replace("\n", "\n    ")


def encode_entries(entries: list[str]) -> bytes:
    """The state file `encode` writes for the entries `encode_entry` made, in order, without
    encoding any entry again: a commit re-encodes only the results an action changed."""
    work = "{\n" + ",\n".join(entries) + "\n  }" if entries else "{}"
    schema = json.dumps(ENGINE_STATE_SCHEMA)
    return f'{{\n  "schema": {schema},\n  "work": {work}\n}}\n'.encode()


def path_for(data: bytes) -> str:
    """The workspace path of a state file with these bytes."""
    return f"{STATE_DIR}/state-{hashlib.sha256(data).hexdigest()[:16]}.json"


def is_state_path(path: object) -> bool:
    return isinstance(path, str) and STATE_PATH.match(path) is not None


def matches_name(path: str, data: bytes) -> bool:
    return path_for(data) == path


def attach(results: Results, state: EngineState) -> Results:
    """The records, each carrying its working state (a record the state lacks gets none)."""
    records = [r.with_work(state.work.get(r.id, ResultWork())) for r in results.results]
    return results.model_copy(update={"results": records})
