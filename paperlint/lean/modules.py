"""The module layout the trusted checker judges: gated, reference and proof modules (issue #25).

A verdict used to rest on one self-contained text file whose context held the earlier results'
accepted proofs, so an earlier prover's hidden instance could change what a later statement
meant. The checker instead sees three kinds of module per result, all composed here from the
records by pure string work (the engine, `validate` and `replay` call the same functions):

- `PaperlintCheck.Gated.<r>`: the result's gated definitions (for a definition or an
  assumption, its gated statement too), importing the gated modules of its dependencies.
  Only gated material: never a proof.
- `PaperlintCheck.Reference.<r>`: the gated statement, proof `sorry`, importing only gated
  modules. Its elaboration is the statement the gate approved; the gate's Lean check of the
  statement runs on exactly this module.
- `PaperlintCheck.Proof.<r>` (untrusted): the accepted proofs, importing the gated modules
  and the proof modules of the verified dependencies (their lemmas are usable).

Nothing a proof module adds can reach the reference: the checker compares the proof module's
target with the reference's elaborated type. Module names are fixed by the result id, so a
result id never becomes part of Lean syntax unescaped.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

ROOT = "PaperlintCheck"
GATED = f"{ROOT}.Gated"
REFERENCE = f"{ROOT}.Reference"
PROOF = f"{ROOT}.Proof"
REQUEST_SCHEMA = "paperlint.checker-request/1"

Mode = Literal["reference", "compare"]
_HEAD = ("prelude", "import ")


def ident(result_id: str) -> str:
    """A Lean identifier for a result id: readable, and distinct for distinct ids."""
    readable = re.sub(r"[^A-Za-z0-9]+", "_", result_id).strip("_") or "result"
    digest = hashlib.sha256(result_id.encode()).hexdigest()[:8]
    return f"r_{readable}_{digest}"


def module_name(kind: str, result_id: str) -> str:
    return f"{kind}.{ident(result_id)}"


def is_proof_module(name: str) -> bool:
    return name == PROOF or name.startswith(PROOF + ".")


@dataclass(frozen=True)
class LeanModule:
    """One module of the layout: its name and its full text."""

    name: str
    text: str

    @property
    def path(self) -> str:
        """Where the module's source lives below the build root (`-R`)."""
        return self.name.replace(".", "/") + ".lean"

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()

    @property
    def untrusted(self) -> bool:
        return is_proof_module(self.name)


def split_header(header: str) -> tuple[list[str], list[str]]:
    """The header's `prelude`/`import` lines, then the rest (options, opens)."""
    head: list[str] = []
    rest: list[str] = []
    for line in header.splitlines():
        (head if line.startswith(_HEAD) and not rest else rest).append(line)
    return head, rest


def module_text(header: str, imports: Sequence[str], declarations: Sequence[str]) -> str:
    """The header's imports, the extra imports, the header's options, the declarations."""
    head, rest = split_header(header)
    lines = [*head, *(f"import {name}" for name in imports), *rest]
    body = "\n\n".join(d.strip() for d in declarations if d.strip())
    return "\n".join(lines) + "\n\n" + (body + "\n" if body else "")


@dataclass(frozen=True)
class Material:
    """What one result contributes to the layout, read from its record
    (`paperlint.records.modules.material`)."""

    id: str
    definitions: tuple[str, ...]  # gated; a definition's or assumption's statement included
    statement: str | None  # the gated statement of a verdict-bearing result
    lean_name: str
    approved: tuple[str, ...]  # the names of its gated definitions
    proofs: tuple[str, ...]  # the accepted proofs, in obligation order (main last)
    verified: bool


@dataclass(frozen=True)
class CheckerRequest:
    """What the checker program is asked (`paperlint.checker-request/1`)."""

    mode: Mode
    target: str
    reference_module: str
    candidate_module: str | None
    approved: tuple[str, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {
            "schema": REQUEST_SCHEMA,
            "mode": self.mode,
            "target": self.target,
            "reference_module": self.reference_module,
            "candidate_module": self.candidate_module,
            "local_prefix": ROOT,
            "approved": list(self.approved),
        }


@dataclass(frozen=True)
class CheckJob:
    """One run of the checker: the modules to build (in order) and what to ask."""

    request: CheckerRequest
    modules: tuple[LeanModule, ...]

    def key(self) -> str:
        """What the job judges, as one sha256: the request and every module's name and text.
        A recorded checker answer is valid for exactly this key."""
        return job_key(self.request.to_json(), [(m.name, m.sha256) for m in self.modules])

    def described(self) -> dict[str, object]:
        """The job as a recording names it: the request, each module's name and sha256."""
        return {
            "request": self.request.to_json(),
            "modules": [[m.name, m.sha256] for m in self.modules],
        }

    def module(self, name: str) -> LeanModule | None:
        return next((m for m in self.modules if m.name == name), None)


def job_key(request: Mapping[str, object], modules: Sequence[Sequence[str]]) -> str:
    """sha256 of the request and of each module's (name, sha256), in build order."""
    canonical = json.dumps(
        {"request": dict(request), "modules": [list(m) for m in modules]}, sort_keys=True
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


def _gated_imports(rid: str, deps: Sequence[str], found: Mapping[str, Material]) -> list[str]:
    """The gated modules a module of `rid` imports: those of its dependencies (and its own)
    that hold a declaration; an empty gated module is never built."""
    return [module_name(GATED, d) for d in [*deps, rid] if d in found and found[d].definitions]


def _gated_module(
    header: str, rid: str, deps: Sequence[str], found: Mapping[str, Material]
) -> LeanModule:
    imports = _gated_imports(rid, deps, {k: v for k, v in found.items() if k != rid})
    return LeanModule(module_name(GATED, rid), module_text(header, imports, found[rid].definitions))


def _proof_module(
    header: str, rid: str, deps: Mapping[str, Sequence[str]], found: Mapping[str, Material]
) -> LeanModule:
    mine = deps.get(rid, ())
    proofs = [module_name(PROOF, d) for d in mine if d in found and found[d].verified]
    imports = [*_gated_imports(rid, mine, found), *proofs]
    return LeanModule(module_name(PROOF, rid), module_text(header, imports, found[rid].proofs))


def compose_job(
    header: str,
    found: Mapping[str, Material],
    deps: Mapping[str, Sequence[str]],
    rid: str,
    *,
    mode: Mode,
) -> CheckJob | None:
    """The checker's job for result `rid` (None: it has no gated statement to check), from
    each result's material (`records.modules.material`).

    `deps`: each result's transitive dependencies in queue order. `reference` mode builds
    the gated modules and the reference only (the gate's check of the statement); `compare`
    adds the proof modules of `rid` and of its verified dependencies."""
    mine = found.get(rid)
    if mine is None or mine.statement is None:
        return None
    chain = [d for d in deps.get(rid, ()) if d in found]
    modules = [
        _gated_module(header, d, deps.get(d, ()), found)
        for d in [*chain, rid]
        if found[d].definitions
    ]
    reference = LeanModule(
        module_name(REFERENCE, rid),
        module_text(header, _gated_imports(rid, chain, found), [mine.statement]),
    )
    modules.append(reference)
    candidate = None
    if mode == "compare":
        needed = _proof_closure(rid, deps, found)
        modules += [_proof_module(header, d, deps, found) for d in [*chain, rid] if d in needed]
        candidate = module_name(PROOF, rid)
    request = CheckerRequest(
        mode=mode,
        target=mine.lean_name,
        reference_module=reference.name,
        candidate_module=candidate,
        approved=mine.approved,
    )
    return CheckJob(request=request, modules=tuple(modules))


def _proof_closure(
    rid: str, deps: Mapping[str, Sequence[str]], found: Mapping[str, Material]
) -> set[str]:
    """`rid` and every verified dependency whose proof module it imports, transitively."""
    needed, todo = set(), [rid]
    while todo:
        current = todo.pop()
        if current in needed:
            continue
        needed.add(current)
        todo += [d for d in deps.get(current, ()) if d in found and found[d].verified]
    return needed
