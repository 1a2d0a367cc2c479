"""The reviewed lemma library: a per-user Lake package `PaperlintLib` of promoted helper lemmas.

A *candidate* is a helper lemma of a verified result: a `theorem`/`lemma` of the result's
accepted Lean file other than the result's own theorem, that mentions nothing else the paper's
files declare (a lemma about the paper's own definitions is no general fact), and that passes
the model-written hygiene rules. Promotion is a person's step, never automatic: the CLI shows
the text and asks. A promoted lemma goes into `PaperlintLib/<Module>.lean` under the namespace
`PaperlintLib`, with its provenance in a header comment and in `library.json`, and carries the
pins (toolchain, Mathlib revision) it was checked under; when the pins change, it is listed as
needing re-verification until the library is built again under the new pins.

The package lives under the user's data folder (`paperlint.learning.userdata`). Writes go
through the project's atomic writer. Nothing here runs Lean: building the library (and so
moving an entry from `unbuilt` to `built`) needs the toolchain that `paperlint setup` installs.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from paperlint.errors import InputError
from paperlint.lean.declarations import PROOF_KEYWORDS, declarations, split_commands
from paperlint.lean.hygiene import refusal_findings
from paperlint.lean.lexer import Kind, code_tokens
from paperlint.records.learning import Provenance
from paperlint.store import write_text_atomic

LIBRARY_SCHEMA: Final = "paperlint.library/1"
PACKAGE: Final = "PaperlintLib"
MANIFEST: Final = "library.json"
VERIFIED: Final = frozenset({"verified_unconditional", "verified_conditional"})

Status = Literal["unbuilt", "built", "needs_reverification"]


class LibraryPins(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    toolchain: str | None
    mathlib: str | None  # the manifest revision, else the tag


class Candidate(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str  # as declared in the workspace
    text: str  # the declaration, with the file's top-level `open` commands before it
    provenance: Provenance
    refused: str | None = None  # why it cannot be promoted; None when it can


class LibraryEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str  # `PaperlintLib.<name>`
    module: str  # `PaperlintLib.<Module>`
    text_sha256: str
    provenance: Provenance
    promoted_at: str
    pins: LibraryPins
    built_pins: LibraryPins | None = None  # the pins of the last successful build


class Manifest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    schema_: str = Field(default=LIBRARY_SCHEMA, alias="schema")
    entries: list[LibraryEntry] = Field(default_factory=list)


def status_of(entry: LibraryEntry, current: LibraryPins) -> Status:
    """Built under the current pins, never built, or built (or promoted) under older pins."""
    if entry.built_pins == current:
        return "built"
    if entry.pins != current or entry.built_pins is not None:
        return "needs_reverification"
    return "unbuilt"


# --- candidates (pure over the workspace's records and files) -------------------------------


def candidates_of(
    *, results: Mapping[str, Any], paper_sha256: str, workspace: str, files: Mapping[str, str]
) -> list[Candidate]:
    """Every helper lemma of every verified result, promotable or with the reason it is not."""
    declared = {d.name for text in files.values() for d in declarations(text) if d.name}
    out = []
    for rec in results.get("results", []):
        evidence = rec.get("evidence") or {}
        rel = evidence.get("lean_file")
        if rec.get("verdict") not in VERIFIED or not isinstance(rel, str) or rel not in files:
            continue
        text = files[rel]
        opens = "".join(
            text[c.start : c.end] + "\n"
            for c in split_commands(text)
            if c.keyword == "open" and not c.is_scoped_prefix
        )
        for decl in declarations(text):
            if decl.kind not in PROOF_KEYWORDS or not decl.name:
                continue
            if decl.name == evidence.get("lean_name"):
                continue
            start = decl.prefixes[0].start if decl.prefixes else decl.command.start
            body = text[start : decl.command.end]
            out.append(
                Candidate(
                    name=decl.name,
                    text=opens + body + "\n",
                    provenance=Provenance(
                        paper_sha256=paper_sha256,
                        workspace=workspace,
                        result=str(rec.get("id")),
                        lean_file=rel,
                    ),
                    refused=_refusal(body, decl.name, declared),
                )
            )
    return out


def _refusal(body: str, name: str, declared: set[str]) -> str | None:
    uses = sorted(
        {
            t.text
            for t in code_tokens(body)
            if t.kind is Kind.IDENT and t.text in declared and t.text != name
        }
    )
    if uses:
        return "uses the paper's own declarations: " + ", ".join(uses)
    findings = refusal_findings(body, file=name)
    if findings:
        first = findings[0]
        return f"refused by the hygiene rules: {first.rule} ({first.message})"
    return None


def read_candidates(workspace: Path) -> list[Candidate]:
    """The candidates of a check workspace, reading only files its records name."""
    from paperlint.learning.runrecord import paper_hash

    try:
        results = json.loads((workspace / "results.json").read_text(encoding="utf-8"))
        inventory = json.loads((workspace / "inventory.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(
            f"cannot read the check's records: {exc}",
            path=workspace,
            hint="give the folder `paperlint check` wrote, e.g. paper.paperlint/",
        ) from exc
    files = {}
    root = workspace.resolve()
    for rec in results.get("results", []):
        evidence = rec.get("evidence") or {}
        rel = evidence.get("lean_file")
        if not isinstance(rel, str):
            continue
        path = (workspace / rel).resolve()
        if not path.is_relative_to(root) or not path.is_file():
            continue
        data = path.read_bytes()
        # The file must still be the one the verdict was recorded for.
        if evidence.get("hashes", {}).get(rel) != hashlib.sha256(data).hexdigest():
            continue
        files[rel] = data.decode("utf-8", errors="replace")
    return candidates_of(
        results=results, paper_sha256=paper_hash(inventory), workspace=str(root), files=files
    )


# --- the package (I/O) ------------------------------------------------------------------------


def module_of(name: str) -> str:
    parts = [p for p in re.split(r"[^0-9A-Za-z]+", name) if p]
    camel = "".join(p[:1].upper() + p[1:] for p in parts) or "Lemma"
    if camel[0].isdigit():
        camel = "L" + camel
    return f"{PACKAGE}.{camel}"


class Library:
    """The package folder: `lakefile.toml`, `lean-toolchain`, modules, `library.json`."""

    def __init__(self, root: Path) -> None:
        self.root = root

    @property
    def manifest_path(self) -> Path:
        return self.root / MANIFEST

    def manifest(self) -> Manifest:
        if not self.manifest_path.is_file():
            return Manifest()
        try:
            return Manifest.model_validate_json(self.manifest_path.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise InputError(
                f"the library manifest is unreadable: {exc}",
                path=self.manifest_path,
                hint="restore it from a backup, or remove the library folder to start over",
            ) from exc

    def find(self, name: str) -> LibraryEntry | None:
        wanted = {name, f"{PACKAGE}.{name}"}
        return next((e for e in self.manifest().entries if e.name in wanted), None)

    def module_text(self, entry: LibraryEntry) -> str:
        path = self.root / (entry.module.replace(".", "/") + ".lean")
        return path.read_text(encoding="utf-8")

    def promote(self, candidate: Candidate, *, pins: LibraryPins, now: dt.datetime) -> LibraryEntry:
        if candidate.refused:
            raise InputError(
                f"{candidate.name} cannot be promoted: {candidate.refused}",
                hint="only self-contained helper lemmas that pass the hygiene rules can be",
            )
        manifest = self.manifest()
        name = f"{PACKAGE}.{candidate.name.rsplit('.', 1)[-1]}"
        if any(e.name == name for e in manifest.entries):
            raise InputError(
                f"{name} is already in the library",
                hint="`paperlint library remove` it first to replace it",
            )
        module = module_of(candidate.name)
        source = self._module_source(candidate, now)
        entry = LibraryEntry(
            name=name,
            module=module,
            text_sha256=hashlib.sha256(source.encode()).hexdigest(),
            provenance=candidate.provenance,
            promoted_at=now.isoformat(timespec="seconds"),
            pins=pins,
        )
        self._write_package(pins)
        write_text_atomic(self.root / (module.replace(".", "/") + ".lean"), source)
        manifest.entries.append(entry)
        self._write_manifest(manifest)
        return entry

    def remove(self, name: str) -> LibraryEntry:
        manifest = self.manifest()
        entry = self.find(name)
        if entry is None:
            raise InputError(f"{name} is not in the library", hint="see `paperlint library list`")
        manifest.entries = [e for e in manifest.entries if e.name != entry.name]
        (self.root / (entry.module.replace(".", "/") + ".lean")).unlink(missing_ok=True)
        self._write_manifest(manifest)
        return entry

    def _module_source(self, candidate: Candidate, now: dt.datetime) -> str:
        p = candidate.provenance
        short = candidate.name.rsplit(".", 1)[-1]
        text = (
            candidate.text.replace(candidate.name, short, 1)
            if "." in candidate.name
            else (candidate.text)
        )
        return (
            "import Mathlib\n\n"
            f"/-! Promoted into the paperlint library on {now.date().isoformat()}.\n"
            f"From result `{p.result}` ({p.lean_file}) of the paper with sha256 "
            f"{p.paper_sha256[:16]}…, checked in {p.workspace}. -/\n\n"
            f"namespace {PACKAGE}\n\n{text.rstrip()}\n\nend {PACKAGE}\n"
        )

    def _write_package(self, pins: LibraryPins) -> None:
        if pins.toolchain:
            write_text_atomic(self.root / "lean-toolchain", pins.toolchain + "\n")
        rev = pins.mathlib or "master"
        write_text_atomic(
            self.root / "lakefile.toml",
            f'name = "{PACKAGE}"\ndefaultTargets = ["{PACKAGE}"]\n\n'
            '[[require]]\nname = "mathlib"\nscope = "leanprover-community"\n'
            'git = "https://github.com/leanprover-community/mathlib4"\n'
            f'rev = "{rev}"\n\n[[lean_lib]]\nname = "{PACKAGE}"\n',
        )

    def _write_manifest(self, manifest: Manifest) -> None:
        modules = sorted({e.module for e in manifest.entries})
        write_text_atomic(self.root / f"{PACKAGE}.lean", "".join(f"import {m}\n" for m in modules))
        write_text_atomic(
            self.manifest_path,
            json.dumps(manifest.model_dump(mode="json", by_alias=True), indent=2) + "\n",
        )


def current_pins(project: Path | None = None) -> LibraryPins:
    from paperlint.lean.pins import default_project_dir, read_pins

    pins = read_pins(project or default_project_dir())
    return LibraryPins(toolchain=pins.toolchain, mathlib=pins.mathlib_rev or pins.mathlib_tag)


def library_dir(data_dir: Path) -> Path:
    return data_dir / "library"


def entries_with_status(
    entries: Sequence[LibraryEntry], current: LibraryPins
) -> list[tuple[LibraryEntry, Status]]:
    return [(e, status_of(e, current)) for e in entries]
