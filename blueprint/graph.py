"""The dependency graph: statement-uses and proof-uses edges between results.

Edges point from a dependency to the result that uses it (`source` is used by `target`), so
a node's predecessors are a result's inputs and a topological order lists inputs first. Each
edge carries `kinds`, the set of ways the target uses the source, and `kind`, the strongest of
them ("statement" beats "proof": a statement change re-gates, a proof change only re-proves).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from typing import Any, Final, Literal

from paperlint.blueprint.model import Blueprint, Edge, EdgeKind
from paperlint.digraph import Digraph, components, descendants, has_path
from paperlint.digraph import topological_order as _sorted
from paperlint.domain import INPUT_KINDS
from paperlint.preflight.model import Diagnostic, Inventory, Result

# Reporting every simple cycle can be exponential; a handful is enough to show the problem.
MAX_CYCLES: Final = 20
MAX_CYCLE_LENGTH: Final = 12

# Kinds ordered first among results that are ready: inputs before the claims that use them.

DependencyKind = Literal["statement", "proof", "any"]


def resolve_edges(inventory: Inventory) -> tuple[list[Edge], list[Diagnostic]]:
    """Every (dependency, user, kind) edge the inventory states, in document order, with a
    diagnostic for each reference that cannot be resolved to another result."""
    known = {r.id for r in inventory.results}
    edges: list[Edge] = []
    diagnostics: list[Diagnostic] = []
    for result in inventory.results:
        refs: list[tuple[str, EdgeKind]] = [(u, "statement") for u in result.uses]
        refs += [(u, "proof") for u in result.proof_uses]
        for ref, kind in refs:
            source = _resolve(ref, inventory, known)
            if source is None:
                diagnostics.append(_diag(result, "unknown-reference", "warning", _unknown(ref)))
            elif source == result.id:
                continue  # a result citing its own equation: not a dependency
            else:
                edges.append(Edge(source=source, target=result.id, kind=kind))
        # a claim nested in a proof is a step of that proof
        if result.parent in known and result.parent != result.id:
            edges.append(Edge(source=result.id, target=str(result.parent), kind="proof"))
    return _unique(edges), diagnostics


def _resolve(ref: str, inventory: Inventory, known: set[str]) -> str | None:
    if ref in known:
        return ref
    # a reference to an equation inside a result depends on that result
    equation = inventory.equations.get(ref)
    if equation is not None and equation.result in known:
        return equation.result
    return None


def _unknown(ref: str) -> str:
    return f"reference to {ref!r} does not name a result of this paper; dependency ignored"


def _diag(result: Result, code: str, severity: Literal["warning", "info"], msg: str) -> Diagnostic:
    return Diagnostic(
        severity=severity,
        file=result.span.file,
        line=result.span.start_line,
        code=code,
        message=f"{result.id}: {msg}",
    )


def _unique(edges: Iterable[Edge]) -> list[Edge]:
    seen: set[tuple[str, str, str]] = set()
    out: list[Edge] = []
    for e in edges:
        if (key := (e.source, e.target, e.kind)) not in seen:
            seen.add(key)
            out.append(e)
    return out


def build_graph(nodes: Iterable[tuple[str, str]], edges: Iterable[Edge]) -> Digraph:
    """A graph of (id, kind) nodes in document order (node attributes `kind` and `position`)."""
    graph = Digraph()
    for position, (rid, kind) in enumerate(nodes):
        graph.add_node(rid, kind=kind, position=position)
    for e in edges:
        if graph.has_edge(e.source, e.target):
            kinds = graph.edge(e.source, e.target)["kinds"] | {e.kind}
        else:
            kinds = frozenset({e.kind})
        strongest = "statement" if "statement" in kinds else "proof"
        graph.add_edge(e.source, e.target, kinds=kinds, kind=strongest)
    return graph


def graph_of(blueprint: Blueprint) -> Digraph:
    """The dependency graph of a blueprint."""
    return build_graph(((e.id, e.kind) for e in blueprint.entries), blueprint.edges)


def find_cycles(graph: Digraph) -> list[list[str]]:
    """Up to MAX_CYCLES simple cycles, each rotated to start at its earliest result."""
    if not _cyclic_components(graph):
        return []  # the common case: networkx, ~0.23 s to import, is not loaded
    import networkx as nx

    theirs = nx.DiGraph()  # built in the same order: networkx picks the same cycles
    theirs.add_nodes_from(graph.nodes)
    theirs.add_edges_from((s, t) for s, t, _ in graph.edges())
    found = itertools.islice(nx.simple_cycles(theirs, length_bound=MAX_CYCLE_LENGTH), MAX_CYCLES)
    position = {node: attrs["position"] for node, attrs in graph.nodes.items()}
    cycles = []
    for cycle in found:
        start = min(range(len(cycle)), key=lambda i: position[cycle[i]])
        cycles.append([str(n) for n in cycle[start:] + cycle[:start]])
    return sorted(cycles, key=lambda c: [position[n] for n in c])


def break_cycles(graph: Digraph) -> tuple[Digraph, list[Edge]]:
    """A copy of the graph made acyclic, and the edges removed to make it so.

    Within each strongly connected component the edges are kept greedily, most trusted first,
    and an edge is dropped only when it would close a cycle among those kept: so no dropped
    edge could be put back, and the outcome does not depend on iteration order. Most trusted
    are statement edges (a statement cannot be formalised without what it mentions), then
    backward references (papers prove in order; a result that uses something stated later is
    the likeliest to be wrong about the order)."""
    acyclic = graph.copy()
    dropped: list[Edge] = []
    for component in _cyclic_components(graph):
        kept = Digraph()
        for node in component:
            kept.add_node(node)
        inner = [(s, t) for s, t, _ in graph.subgraph(component).edges()]
        for u, v in sorted(inner, key=lambda e: _drop_key(graph, e)):
            if u == v or has_path(kept, v, u):
                dropped.append(Edge(source=u, target=v, kind=graph.edge(u, v)["kind"]))
                acyclic.remove_edge(u, v)
            else:
                kept.add_edge(u, v)
    return acyclic, dropped


def _cyclic_components(graph: Digraph) -> list[set[str]]:
    groups: dict[int, set[str]] = {}
    for node, component in components(graph).items():
        groups.setdefault(component, set()).add(node)
    cyclic = [c for c in groups.values() if len(c) > 1 or any(graph.has_edge(n, n) for n in c)]
    return sorted(cyclic, key=lambda c: min(graph.nodes[n]["position"] for n in c))


def _drop_key(graph: Digraph, edge: tuple[str, str]) -> tuple[bool, int, int, int]:
    u, v = edge
    pu, pv = graph.nodes[u]["position"], graph.nodes[v]["position"]
    # ascending = kept first; (u, v) positions make the key unique, so sorting is total
    return (graph.edge(u, v)["kind"] == "proof", pu - pv, pu, pv)


def topological_order(graph: Digraph) -> list[str]:
    """Dependencies first; among ready results definitions and assumptions first, then
    document order. The graph must be acyclic (see `break_cycles`)."""

    def key(node: str) -> tuple[int, int]:
        attrs = graph.nodes[node]
        return (0 if attrs["kind"] in INPUT_KINDS else 1, attrs["position"])

    return _sorted(graph, key)


def dependency_order(blueprint: Blueprint) -> list[str]:
    """The order results are formalised in, recomputed from the blueprint's entries and edges
    (cycles broken as in `break_cycles`)."""
    acyclic, _ = break_cycles(graph_of(blueprint))
    return topological_order(acyclic)


def dependents(
    graph: Digraph,
    result_id: str,
    kind: DependencyKind = "any",
) -> list[str]:
    """The results affected when the statement of `result_id` changes, in document order.

    - "statement": the closure over statement-uses edges only: the statements to re-gate
      (docs/prior-art.md §4.3; following proof edges too would keep everything dirty).
    - "proof": the proofs to redo: those re-gated statements, plus every result whose proof
      uses `result_id` or one of them. Not transitive along proof edges: re-proving a result
      leaves its statement, and so its own users, untouched.
    - "any": everything downstream along either kind of edge."""
    if kind == "any":
        return _in_document_order(graph, descendants(graph, result_id))
    restated = descendants(graph, result_id, _uses("statement"))
    if kind == "statement":
        return _in_document_order(graph, restated)
    reproved = set(restated)
    for changed in restated | {result_id}:
        reproved.update(t for t, attrs in graph.succ[changed].items() if "proof" in attrs["kinds"])
    reproved.discard(result_id)
    return _in_document_order(graph, reproved)


def predecessors(
    graph: Digraph,
    result_id: str,
    kind: DependencyKind = "any",
) -> list[str]:
    """The results `result_id` uses directly, in document order."""
    uses = _uses(kind)
    found = (s for s in graph.predecessors(result_id) if uses(graph.edge(s, result_id)))
    return _in_document_order(graph, found)


def _uses(kind: DependencyKind) -> Callable[[dict[str, Any]], bool]:
    """Whether an edge's attributes say it is a use of `kind`."""
    return lambda attrs: kind == "any" or kind in attrs["kinds"]


def _in_document_order(graph: Digraph, ids: Iterable[str]) -> list[str]:
    return sorted(ids, key=lambda n: graph.nodes[n]["position"])
