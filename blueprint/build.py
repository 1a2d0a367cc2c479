"""Inventory -> Blueprint: a pure function of the inventory alone."""

from __future__ import annotations

import re
from typing import NamedTuple

from paperlint.blueprint.fidelity import fidelity_hints
from paperlint.blueprint.fingerprint import tex_sha256
from paperlint.blueprint.graph import (
    break_cycles,
    build_graph,
    find_cycles,
    predecessors,
    resolve_edges,
    topological_order,
)
from paperlint.blueprint.model import (
    Blueprint,
    BlueprintEntry,
    Edge,
    ExternalInput,
)
from paperlint.blueprint.names import assign_modules, assign_names, module_file
from paperlint.digraph import Digraph
from paperlint.domain import is_verdict_bearing
from paperlint.preflight.model import Diagnostic, Inventory, Macro, Result


def build_blueprint(inventory: Inventory) -> Blueprint:
    """The plan for one inventory: a Lean name, module and file per result, the dependency
    graph and its order, cited inputs, macros, fidelity hints and statement fingerprints."""
    edges, diagnostics = resolve_edges(inventory)
    graph = build_graph(((r.id, r.kind) for r in inventory.results), edges)
    acyclic, dropped = break_cycles(graph)
    names = assign_names(inventory.results)
    modules = assign_modules(names)
    bibliography = {b.key: b.text for b in inventory.bibliography}
    entries = []
    for result in inventory.results:
        plan = _Plan(names[result.id], modules[result.id], bibliography, inventory.macros)
        entries.append(_entry(result, graph, plan))
        diagnostics += _missing_bib_keys(result, bibliography)
    diagnostics += [_dropped_diagnostic(inventory, e) for e in dropped]
    return Blueprint(
        entries=entries,
        order=topological_order(acyclic),
        cycles=find_cycles(graph),
        edges=edges,
        dropped_edges=dropped,
        diagnostics=diagnostics,
    )


class _Plan(NamedTuple):
    """What an entry needs beyond its result and the graph."""

    name: str
    module: str
    bibliography: dict[str, str]
    macros: list[Macro]


def _entry(result: Result, graph: Digraph, plan: _Plan) -> BlueprintEntry:
    return BlueprintEntry(
        id=result.id,
        number=result.number,
        kind=result.kind,
        verdict_bearing=is_verdict_bearing(result.kind, result.restates),
        lean_name=plan.name,
        module=plan.module,
        lean_file=module_file(plan.module),
        statement_uses=predecessors(graph, result.id, "statement"),
        proof_uses=predecessors(graph, result.id, "proof"),
        external_inputs=_external_inputs(result, plan.bibliography),
        macros_used=macros_used(result, plan.macros),
        fidelity=fidelity_hints(result.statement),
        statement_sha256=tex_sha256(result.statement),
        proof_sha256=tex_sha256(result.proof.text) if result.proof else None,
    )


def _external_inputs(result: Result, bibliography: dict[str, str]) -> list[ExternalInput]:
    # the same \cite[Thm 2]{k} twice in one proof is one input; first occurrence wins
    unique: dict[tuple[str, str | None, str], ExternalInput] = {}
    for c in result.citations:
        unique.setdefault(
            (c.key, c.note, c.where),
            ExternalInput(
                key=c.key, locator=c.note, where=c.where, bib_text=bibliography.get(c.key)
            ),
        )
    return list(unique.values())


def _missing_bib_keys(result: Result, bibliography: dict[str, str]) -> list[Diagnostic]:
    missing = dict.fromkeys(c.key for c in result.citations if c.key not in bibliography)
    return [
        Diagnostic(
            severity="warning",
            file=result.span.file,
            line=result.span.start_line,
            code="citation-without-entry",
            message=f"{result.id}: cites {key!r}, which is not in the bibliography; "
            "the drafter will have only the key to go on",
        )
        for key in missing
    ]


def macros_used(result: Result, macros: list[Macro]) -> list[str]:
    """Names of the paper's macros that occur in the statement or proof, in glossary order.

    A name ending in a letter must not be followed by another letter (`\\E` is not in `\\Exp`),
    because TeX reads a control word up to the first non-letter."""
    text = result.statement + "\n" + (result.proof.text if result.proof else "")
    used = []
    for macro in macros:
        tail = r"(?![A-Za-z@])" if macro.name[-1:].isalpha() else ""
        if re.search(re.escape(macro.name) + tail, text):
            used.append(macro.name)
    return list(dict.fromkeys(used))


def _dropped_diagnostic(inventory: Inventory, edge: Edge) -> Diagnostic:
    target = inventory.result(edge.target)
    return Diagnostic(
        severity="warning",
        file=target.span.file if target else inventory.root,
        line=target.span.start_line if target else None,
        code="cycle-broken",
        message=f"{edge.target} and {edge.source} depend on each other; the {edge.kind} use of "
        f"{edge.source} by {edge.target} is left out of the proving order",
    )
