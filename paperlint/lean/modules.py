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

Two more jobs judge the other Lean evidence a verdict rests on the same way:

- an ERROR issue's counterexample (`compose_refutation`): the reference
  `PaperlintCheck.Reference.Refutation.<r>` imports the statement's reference module and
  states `Not (type_of% @name)`, the negation of exactly the type the gate locked; the
  candidate `PaperlintCheck.Proof.Counterexample.<r>` (untrusted) holds the counterexample,
  importing the gated modules and the verified dependencies' proof modules;
- a reconnection's discharge (#14, `compose_discharge`): the reference
  `PaperlintCheck.Reference.Discharge.<r>` states the gated statement without the discharged
  hypotheses, from gated modules only; the candidate `PaperlintCheck.Proof.Reconnect.<r>`
  (untrusted: it imports proof modules) applies the result's theorem to the predecessors'.

Nothing a proof module adds can reach a reference: the checker compares the candidate's
target with the reference's elaborated type. Module names are fixed by the result id, so a
result id never becomes part of Lean syntax unescaped; the sub-kinds live under the
`Reference` and `Proof` prefixes, so what is trusted is told by the prefix alone.
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
REFUTATION = f"{REFERENCE}.Refutation"  # `¬` the locked statement: an ERROR's reference
COUNTEREXAMPLE = f"{PROOF}.Counterexample"  # untrusted: the counterexample
DISCHARGE = f"{REFERENCE}.Discharge"  # the statement without discharged hypotheses (#14)
RECONNECT = f"{PROOF}.Reconnect"  # untrusted: the discharge, applying proof modules
COUNTEREXAMPLE_SUFFIX = "_counterexample"  # the counterexample theorem: `<name>_counterexample`
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


def _verified_proofs(
    rid: str, deps: Mapping[str, Sequence[str]], found: Mapping[str, Material]
) -> list[str]:
    """The proof modules of `rid`'s verified dependencies: what a module of `rid` may use."""
    return [module_name(PROOF, d) for d in deps.get(rid, ()) if d in found and found[d].verified]


def _proof_module(
    header: str, rid: str, deps: Mapping[str, Sequence[str]], found: Mapping[str, Material]
) -> LeanModule:
    imports = [*_gated_imports(rid, deps.get(rid, ()), found), *_verified_proofs(rid, deps, found)]
    return LeanModule(module_name(PROOF, rid), module_text(header, imports, found[rid].proofs))


@dataclass(frozen=True)
class _Layout:
    """The modules every job of `rid` builds on: the gated modules of its chain, its
    reference; and the proof modules a candidate may import (`proofs`), built before it."""

    header: str
    rid: str
    mine: Material
    chain: tuple[str, ...]
    found: Mapping[str, Material]
    deps: Mapping[str, Sequence[str]]

    def trusted(self) -> list[LeanModule]:
        modules = [
            _gated_module(self.header, d, self.deps.get(d, ()), self.found)
            for d in [*self.chain, self.rid]
            if self.found[d].definitions
        ]
        return [*modules, self.reference()]

    def reference(self) -> LeanModule:
        assert self.mine.statement is not None
        return LeanModule(
            module_name(REFERENCE, self.rid), self.trusted_text([self.mine.statement])
        )

    def trusted_text(self, declarations: Sequence[str], *extra: str) -> str:
        """A module of gated material: the gated modules of the chain, `extra` imports."""
        imports = [*_gated_imports(self.rid, self.chain, self.found), *extra]
        return module_text(self.header, imports, declarations)

    def proofs(self, roots: Sequence[str]) -> list[LeanModule]:
        """The proof modules of `roots` and of every verified dependency they import."""
        needed: set[str] = set()
        for root in roots:
            needed |= _proof_closure(root, self.deps, self.found)
        order = [*self.chain, self.rid]
        return [_proof_module(self.header, d, self.deps, self.found) for d in order if d in needed]

    def candidate_text(self, declarations: Sequence[str], *extra: str) -> str:
        """An untrusted module of `rid`: its gated imports, its verified dependencies' proof
        modules, `extra` imports."""
        imports = [
            *_gated_imports(self.rid, self.chain, self.found),
            *_verified_proofs(self.rid, self.deps, self.found),
            *extra,
        ]
        return module_text(self.header, list(dict.fromkeys(imports)), declarations)


def _layout(
    header: str, found: Mapping[str, Material], deps: Mapping[str, Sequence[str]], rid: str
) -> _Layout | None:
    mine = found.get(rid)
    if mine is None or mine.statement is None:
        return None
    chain = tuple(d for d in deps.get(rid, ()) if d in found)
    return _Layout(header, rid, mine, chain, found, deps)


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
    layout = _layout(header, found, deps, rid)
    if layout is None:
        return None
    modules = layout.trusted()
    candidate = None
    if mode == "compare":
        modules += layout.proofs([rid])
        candidate = module_name(PROOF, rid)
    request = CheckerRequest(
        mode=mode,
        target=layout.mine.lean_name,
        reference_module=module_name(REFERENCE, rid),
        candidate_module=candidate,
        approved=layout.mine.approved,
    )
    return _job(request, modules)


def compose_refutation(
    header: str,
    found: Mapping[str, Material],
    deps: Mapping[str, Sequence[str]],
    rid: str,
    declaration: str,
) -> CheckJob | None:
    """The checker's job for an ERROR issue's counterexample `declaration` (issue #25).

    The reference states the negation of the type the gate locked, by name: `type_of%` is
    the elaborated type of the reference module's own declaration, so no re-reading of the
    statement's text stands between the lock and what is refuted. The candidate may use the
    result's gated definitions and its verified dependencies' lemmas, as the prover may."""
    layout = _layout(header, found, deps, rid)
    if layout is None:
        return None
    name = layout.mine.lean_name
    target = name + COUNTEREXAMPLE_SUFFIX
    negation = f"theorem {target} : Not (type_of% @_root_.{name}) := sorry"
    reference = LeanModule(
        module_name(REFUTATION, rid),
        layout.trusted_text([negation], module_name(REFERENCE, rid)),
    )
    candidate = LeanModule(module_name(COUNTEREXAMPLE, rid), layout.candidate_text([declaration]))
    verified = [d for d in layout.chain if layout.found[d].verified]
    return _derived_job(target, reference, candidate, [*layout.trusted(), reference,
                        *layout.proofs(verified), candidate])  # fmt: skip


def compose_discharge(
    header: str,
    found: Mapping[str, Material],
    deps: Mapping[str, Sequence[str]],
    rid: str,
    declaration: str,
    predecessors: Sequence[str],
) -> CheckJob | None:
    """The checker's job for a reconnection's discharge `declaration` (issues #14, #25): a
    theorem applying `rid`'s theorem to the `predecessors`' theorems. Its reference is the
    same statement with `sorry`, from gated material only; the candidate imports the proof
    modules of `rid` and of the predecessors (which must be dependencies of `rid`)."""
    from paperlint.lean.compose import parse_declaration, statement_text_exact, with_body

    layout = _layout(header, found, deps, rid)
    parsed = parse_declaration(declaration)
    if layout is None or parsed is None or not parsed.name:
        return None
    if any(p not in layout.chain or not layout.found[p].verified for p in predecessors):
        return None
    statement = with_body(statement_text_exact(declaration), "sorry")
    reference = LeanModule(module_name(DISCHARGE, rid), layout.trusted_text([statement]))
    proofs = [module_name(PROOF, p) for p in (rid, *predecessors)]
    candidate = LeanModule(
        module_name(RECONNECT, rid), layout.candidate_text([declaration], *proofs)
    )
    return _derived_job(parsed.name, reference, candidate, [*layout.trusted(), reference,
                        *layout.proofs([rid, *predecessors]), candidate])  # fmt: skip


def _derived_job(
    target: str, reference: LeanModule, candidate: LeanModule, modules: Sequence[LeanModule]
) -> CheckJob | None:
    """A `compare` job whose reference is derived from the locked statement (a refutation, a
    discharge): no approved names of its own, the candidate judged against `reference`."""
    request = CheckerRequest(
        mode="compare",
        target=target,
        reference_module=reference.name,
        candidate_module=candidate.name,
    )
    return _job(request, modules)


def _job(request: CheckerRequest, modules: Sequence[LeanModule]) -> CheckJob | None:
    """The job, or None when two of its modules share a name: two result ids with one `ident`
    (its 8 hex digits are 32 bits, and the ids are the paper's labels, so an author can find
    two), whose sources would overwrite each other in one build. The build would then not be
    the layout the records describe: one result's gated definitions silently replaced by the
    other's (docs/checker.md)."""
    names = [m.name for m in modules]
    if len(set(names)) != len(names):
        return None
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
