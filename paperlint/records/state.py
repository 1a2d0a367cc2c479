"""The engine's working state on disk (`paperlint.engine-state/6`), apart from the contract.

`results.json` holds verdicts and their evidence; what the engine needs to resume (the drafts,
gate answers, obligations, rulings it has seen) lives in `engine/state-<sha256[:16]>.json`,
named by its own content and by `Results.engine_state`. The file is written before the
`results.json` that names it and old ones are removed after, so a crash between the two writes
leaves the old pair intact (an orphan state file is harmless and removed by the next write).

Each result's entry is its `ResultWork` (`paperlint.records.work`): `slots`, each step's own
slot by kind (omitted while empty). The agent outputs a slot
keeps (its `REFS`) are not copied into it: each is a reference `{"ref": "audits/<id>/…",
"sha256": …}` to the file under `audits/` that holds exactly that output, so a prompt's output
model is no part of the state's format. In memory the outputs are typed, and `plan`/`apply`
never see a reference: `stored_work` replaces outputs by references when the state is
written, `resolved` reads them back (path allowlisted, file hashed, output validated).

A reference names only a file the engine does not write again while the state naming it
stands (each `StoredOutput`'s candidates say why); an output no such file holds (a state from
an older version, a draft whose file a re-gate will write again) is kept in a file of its own,
`audits/<id>/state-<label>-<sha256[:16]>.json`, written before the state that names it.

`paperlint.engine-state/1` held the outputs inline, /2 held them as references but kept the
second draft's, the restatement's and the gate's own state among the shared fields, /3 kept
the reconnections there, /4 the plan, the draft, the gate's answers and fingerprint, the
obligations, the audit's and the issue side's state, /5 the suspicion and the gate's
counterexample; all are still read (upgraded in memory: `_LEGACY_SLOTS`, `_legacy_shared`)
and `paperlint migrate` rewrites them. A
process that does not know a slot's step keeps it as stored (`UnknownSlot`). The validator
reads the state too, never for a verdict: a reference it cannot resolve leaves that result's
working state empty, which only fails it.
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
from typing import Any, Final, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from paperlint.errors import refuse_newer_schema
from paperlint.records import audits
from paperlint.records.layout import safe_name
from paperlint.records.results import Results
from paperlint.records.slots import (
    Audited,
    Drafted,
    Gated,
    Planned,
    Proving,
    Reconnections,
    Reviewed,
    Ruled,
)
from paperlint.records.work import (
    ResultWork,
    StoredOutput,
    UnknownSlot,
    record_slot_types,
    slot_types,
)

ENGINE_STATE_SCHEMA: Final = "paperlint.engine-state/6"
ENGINE_STATE_V1: Final = "paperlint.engine-state/1"  # agent outputs copied inline
ENGINE_STATE_V2: Final = "paperlint.engine-state/2"  # three steps' state among the shared fields
ENGINE_STATE_V3: Final = "paperlint.engine-state/3"  # the reconnections among the shared fields
ENGINE_STATE_V4: Final = "paperlint.engine-state/4"  # plan … review among them too
ENGINE_STATE_V5: Final = "paperlint.engine-state/5"  # the suspicion, the gate's counterexample
KNOWN_STATE_SCHEMAS: Final = (
    ENGINE_STATE_V1,
    ENGINE_STATE_V2,
    ENGINE_STATE_V3,
    ENGINE_STATE_V4,
    ENGINE_STATE_V5,
    ENGINE_STATE_SCHEMA,
)
# What older files kept among the shared fields and /6 keeps in a step's slot: step kind ->
# {old field: slot field} (/4 kept the plan's, the draft's, the gate's answers and
# fingerprint, the obligations, the audit's and the issue side's there, /3 also the
# reconnections; /5 only the suspicion and the counterexample: `_legacy_shared`). A fact
# about the old files; a new step never adds to it.
_LEGACY_SLOTS: Final = {
    Planned.KIND: {"plan": "plan"},
    Drafted.KIND: {"draft": "draft", "draft_rounds": "rounds", "draft_feedback": "feedback"},
    "second_draft": {
        "second_draft": "draft",
        "second_draft_asked": "asked",
        "second_draft_feedback": "feedback",
    },
    "restate": {"previous": "previous", "restated": "restated"},
    Gated.KIND: {
        "gates": "gates",
        "fingerprint": "fingerprint",
        "kept": "kept",
        "proof_kept": "proof_kept",
    },
    Proving.KIND: {"obligations": "obligations"},
    Reconnections.KIND: {"reconnections": "tried"},
    Audited.KIND: {"final": "final", "audit": "audit"},
    Ruled.KIND: {"ruling": "ruling"},
    Reviewed.KIND: {"review": "review"},
}
# What such a slot takes from the shared fields beside it: an older file's ruling and review
# answer the suspicion there (the prover cleared stale ones), and the one counterexample field
# was the checker's once it ruled. It stays the gate's too when the gate raised the suspicion
# (its probe's refutation, which the checker adopted); else the gate had none.
_LEGACY_KEYS: Final = {
    Ruled.KIND: {"suspicion": "on", "counterexample": "counterexample"},
    Reviewed.KIND: {"suspicion": "on"},
}
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


def _stored_field(model: type[BaseModel], name: str, info: Any) -> tuple[Any, Any]:
    if name == "slots":
        return StoredSlots, Field(default_factory=dict)
    if name not in getattr(model, "REFS", {}):
        return info.annotation, info
    if isinstance(info.get_default(call_default_factory=True), list):
        return list[OutputRef], Field(default_factory=list)
    return OutputRef | None, None


def _stored(model: type[BaseModel], doc: str) -> type[BaseModel]:
    """`model` as the state file holds it, for the committed schema: derived, never a
    mirror; every agent output of its `REFS` an `OutputRef`."""
    fields: dict[str, Any] = {n: _stored_field(model, n, i) for n, i in model.model_fields.items()}
    return create_model(
        f"Stored{model.__name__}", __config__=ConfigDict(extra="forbid"), __doc__=doc, **fields
    )


# The slots every process knows (`paperlint.records.slots`) typed; an engine step's slot is an
# object under its kind (no schema of the engine's steps here).
_SLOTS: Final[dict[str, Any]] = {
    kind: (_stored(model, f"The {kind} step's slot.") | None, None)
    for kind, model in sorted(record_slot_types().items())
}
StoredSlots: Final = create_model(
    "StoredSlots",
    __config__=ConfigDict(extra="allow"),
    __doc__="Each step's slot, by kind.",
    **_SLOTS,
)
# `ResultWork` as the state file holds it, for the committed schema.
_STORED: Final[dict[str, Any]] = {
    n: _stored_field(ResultWork, n, i) for n, i in ResultWork.model_fields.items()
}
StoredWork: Final = create_model(
    "StoredWork",
    __config__=ConfigDict(extra="forbid"),
    __doc__="`ResultWork` as the state file holds it: every agent output an `OutputRef`.",
    **_STORED,
)


class StoredState(BaseModel):
    """The state file (`schemas/engine-state.schema.json`)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    schema_: Literal["paperlint.engine-state/6"] = Field(
        default=ENGINE_STATE_SCHEMA, alias="schema"
    )
    work: dict[str, StoredWork] = Field(default_factory=dict)  # result id -> working state


class EngineState(BaseModel):
    """The working state in memory: the outputs themselves, typed."""

    model_config = ConfigDict(extra="forbid")

    work: dict[str, ResultWork] = Field(default_factory=dict)  # result id -> working state


# --- which file holds which output ----------------------------------------------------------


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


def own_file(kind: StoredOutput, data: bytes) -> str:
    """The name of the file of its own that holds an output with these bytes."""
    return f"state-{kind.label}-{hashlib.sha256(data).hexdigest()[:16]}.json"


OWN_FILE: Final = re.compile(r"^state-[a-z][a-z0-9-]*-[0-9a-f]{16}\.json$")


def check_ref(result_id: str, kind: StoredOutput, ref: str) -> str:
    """The file name of `ref` when it may hold a `kind` output of `result_id`; else
    StateRefError.

    Untrusted input: only `audits/<the result's own folder>/<a name the field allows>.json`,
    no `.`/`..` component, nothing absolute (reading it must also refuse symlinks: `Reader`)."""
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
        raise StateRefError(f"{ref!r} is not a file that holds a {label} output")
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


def _parse(kind: StoredOutput, name: str, data: bytes) -> BaseModel:
    try:
        raw = json.loads(data.decode("utf-8"))
    except ValueError as exc:
        raise StateRefError(f"not JSON: {exc}") from None
    try:
        return kind.model.model_validate(_output_in(name, raw))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "the top"
        model = kind.model.__name__
        raise StateRefError(f"not a valid {model} (at {where}: {first['msg']})") from None


@lru_cache(maxsize=1024)
def _parse_to_compare(kind: StoredOutput, name: str, data: bytes) -> BaseModel:
    """`_parse`, remembered by the file's bytes: each state write compares every output it
    keeps with its file, and most files have not changed since the last write. The model is
    only compared, never handed out (so it cannot be changed under the cache)."""
    return _parse(kind, name, data)


def resolve_ref(result_id: str, kind: StoredOutput, ref: OutputRef, read: Reader) -> BaseModel:
    """The output `ref` names, checked: allowlisted path, same bytes, valid output."""
    name = check_ref(result_id, kind, ref.ref)
    data = read(ref.ref)
    if hashlib.sha256(data).hexdigest() != ref.sha256:
        raise StateRefError(f"{ref.ref}: changed since the state named it (its sha256 differs)")
    try:
        return _parse(kind, name, data)
    except StateRefError as exc:
        raise StateRefError(f"{ref.ref}: {exc}") from None


M = TypeVar("M", bound=BaseModel)


def _decode(result_id: str, model: type[M], raw: Any, read: Reader | None) -> M:
    """A slot (or `ResultWork`) from its stored JSON, every reference of its `REFS`
    resolved; `read` None: the outputs are inline (engine-state/1)."""
    if not isinstance(raw, dict):
        return model.model_validate(raw)  # the ValidationError names the wrong shape
    values = dict(raw)
    for field, kind in getattr(model, "REFS", {}).items():
        value = values.get(field)
        if read is None or value is None:
            continue
        if isinstance(value, list):
            refs = [OutputRef.model_validate(ref) for ref in value]
            values[field] = [resolve_ref(result_id, kind, ref, read) for ref in refs]
        else:
            values[field] = resolve_ref(result_id, kind, OutputRef.model_validate(value), read)
    return model.model_validate(values)


def _raised_by_gate(suspicion: Any) -> bool:
    return isinstance(suspicion, dict) and suspicion.get("raised_by") == "gate"


def _legacy(raw: Any) -> Any:
    """An older entry in the /6 layout: `_LEGACY_SLOTS`' fields moved into their slots, then
    the shared ones (`_legacy_shared`)."""
    if not isinstance(raw, dict):
        return raw
    entry = dict(raw)
    slots = entry.get("slots", {})
    slots = dict(slots) if isinstance(slots, dict) else slots  # a wrong shape: parse_entry says
    ruled = "ruling" in entry  # a ruling slot is made (as `_LEGACY_SLOTS` moves it)
    for kind, moved in _LEGACY_SLOTS.items():
        slot = {new: entry.pop(old) for old, new in moved.items() if old in entry}
        if slot:
            keys = _LEGACY_KEYS.get(kind, {})
            slot |= {new: entry[old] for old, new in keys.items() if old in entry}
        _merge(slots, kind, slot)
    for kind, slot in _legacy_shared(entry, ruled=ruled).items():
        _merge(slots, kind, slot)
    return {**entry, "slots": slots} if slots else entry


def _legacy_shared(entry: dict[str, Any], *, ruled: bool = False) -> dict[str, dict[str, Any]]:
    """The fields /1–/5 shared, taken out of `entry` by slot: the suspicion goes to the step
    that raised it (`raised_by`; missing: the prover); the counterexample to the gate, unless
    the checker had ruled (`ruled`) on a suspicion the gate did not raise: then it was the
    checker's alone (copied into its slot by `_LEGACY_KEYS`) and the gate had none."""
    moved: dict[str, dict[str, Any]] = {}
    suspicion, cex = entry.pop("suspicion", None), entry.pop("counterexample", None)
    by_gate = _raised_by_gate(suspicion)
    if suspicion is not None:
        moved[Gated.KIND if by_gate else Proving.KIND] = {"suspicion": suspicion}
    if cex is not None and (by_gate or not ruled):
        moved.setdefault(Gated.KIND, {})["counterexample"] = cex
    return moved


def _merge(slots: Any, kind: str, slot: dict[str, Any]) -> None:
    """`slot`'s fields into `slots[kind]` (an older file may have kept part of it there
    already: /4 the gate's kept proof, /5 most slots); a wrong shape is left for the parse."""
    if slot and isinstance(slots, dict):
        stored = slots.get(kind, {})
        slots[kind] = {**stored, **slot} if isinstance(stored, dict) else stored


def parse_entry(result_id: str, raw: Any, schema: str, read: Reader) -> ResultWork:
    """One result's working state from the state file's JSON: ValidationError for a wrong
    shape, StateRefError for a reference that does not resolve. A slot whose step this
    process does not know is kept as stored (`UnknownSlot`)."""
    inline = schema == ENGINE_STATE_V1
    entry = _legacy(raw) if schema != ENGINE_STATE_SCHEMA else raw
    entry = dict(entry) if isinstance(entry, dict) else entry
    stored = entry.pop("slots", {}) if isinstance(entry, dict) else {}
    if not isinstance(stored, dict):
        ResultWork.model_validate({"slots": stored})  # raises: names the wrong shape
    types = slot_types()
    decoded = {
        kind: _decode(result_id, types[kind], value, None if inline else read)
        if kind in types
        else UnknownSlot(stored=value)
        for kind, value in stored.items()
    }
    # an older file's empty shared fields make default slots: absent, as a write leaves them
    slots = {k: s for k, s in decoded.items() if isinstance(s, UnknownSlot) or s != type(s)()}
    work = _decode(result_id, ResultWork, entry, None if inline else read)
    return work.model_copy(update={"slots": slots}) if slots else work


# --- writing references ---------------------------------------------------------------------


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
    """The working state in a parsed state file (any version), every reference resolved.

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


def output_bytes(output: BaseModel) -> bytes:
    """An output in a file of its own, as `paperlint.store.write_record` writes a record."""
    return (output.model_dump_json(indent=2) + "\n").encode("utf-8")


def _ref_for(
    result_id: str,
    kind: StoredOutput,
    output: BaseModel,
    candidates: list[str],
    read: Reader,
    new_files: dict[str, bytes],
) -> dict[str, str]:
    folder = f"audits/{safe_name(result_id)}"
    for name in candidates:
        try:
            data = read(f"{folder}/{name}")
            found = _parse_to_compare(kind, name, data)
        except StateRefError:
            continue
        if found == output:
            return {"ref": f"{folder}/{name}", "sha256": hashlib.sha256(data).hexdigest()}
    data = output_bytes(output)
    rel = f"{folder}/{own_file(kind, data)}"
    new_files[rel] = data
    return {"ref": rel, "sha256": hashlib.sha256(data).hexdigest()}


def _encode(
    result_id: str, slot: BaseModel, work: ResultWork, read: Reader, new_files: dict[str, bytes]
) -> dict[str, Any]:
    """A slot (or `ResultWork`) as the state file holds it: its `REFS` as references."""
    refs: Mapping[str, StoredOutput] = getattr(slot, "REFS", {})
    data = slot.model_dump(mode="json", exclude={"slots", *refs})
    omitted = getattr(slot, "OMIT_AT_DEFAULT", ())
    pending = work.pending_files()
    out: dict[str, Any] = {}
    for name in type(slot).model_fields:
        if name not in refs:
            if name in data:
                out[name] = data[name]
            continue
        value, kind = getattr(slot, name), refs[name]
        if name in omitted and not value:
            continue

        def ref(output: BaseModel, index: int, kind: StoredOutput = kind) -> dict[str, str]:
            where = [c for c in kind.candidates(work, index) if c not in pending]
            return _ref_for(result_id, kind, output, where, read, new_files)

        if isinstance(value, list):
            out[name] = [ref(output, i) for i, output in enumerate(value)]
        else:
            out[name] = None if value is None else ref(value, 0)
    return out


def stored_work(
    result_id: str, work: ResultWork, read: Reader, new_files: dict[str, bytes]
) -> dict[str, Any]:
    """`work` as the state file holds it; the files of their own it needs go in `new_files`
    (workspace path -> bytes), to be written before the state."""
    out = _encode(result_id, work, work, read, new_files)
    slots = {
        kind: slot.stored
        if isinstance(slot, UnknownSlot)
        else _encode(result_id, slot, work, read, new_files)
        for kind, slot in sorted(work.slots.items())
    }
    return {**out, "slots": slots} if slots else out


def refs_of_work(stored: Any) -> frozenset[str]:
    """Every file one result's stored working state names (any `{"ref", "sha256"}` in it)."""
    if isinstance(stored, list):
        return frozenset().union(*(refs_of_work(item) for item in stored))
    if not isinstance(stored, dict):
        return frozenset()
    if set(stored) == {"ref", "sha256"} and isinstance(stored["ref"], str):
        return frozenset({stored["ref"]})
    return frozenset().union(*(refs_of_work(value) for value in stored.values()))


# --- the state file -------------------------------------------------------------------------


def encode_entry(result_id: str, work: dict[str, Any]) -> str:
    """One result's entry of the state file, as `encode` writes it inside `work` (indented
    for that depth, no trailing comma): `encode_entries` joins them into the same bytes."""
    value = json.dumps(work, indent=2, ensure_ascii=False)
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
