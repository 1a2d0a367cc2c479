"""`paperlint.digraph` and the dependency graph built on it, held to networkx (which they
replaced on the check's path; it stays a dependency for listing cycles) on random graphs,
cycles and self-loops included."""

from __future__ import annotations

import itertools

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperlint.blueprint.graph import (
    break_cycles,
    build_graph,
    dependents,
    find_cycles,
    predecessors,
    topological_order,
)
from paperlint.blueprint.model import Edge
from paperlint.digraph import Digraph, descendants, has_path
from paperlint.digraph import topological_order as ordered

KINDS = ("definition", "assumption", "lemma", "theorem")
EDGES = st.lists(
    st.tuples(st.integers(0, 9), st.integers(0, 9), st.sampled_from(["statement", "proof"])),
    max_size=30,
)
NODES = st.lists(st.sampled_from(KINDS), min_size=1, max_size=10)


def _both(kinds: list[str], edges: list[tuple[int, int, str]]) -> tuple[Digraph, nx.DiGraph]:
    """The same dependency graph twice: ours (`build_graph`) and networkx's, built as the
    blueprint built it before."""
    nodes = [(f"r{i}", kind) for i, kind in enumerate(kinds)]
    found = [
        Edge(source=f"r{s}", target=f"r{t}", kind=k) for s, t, k in edges if max(s, t) < len(kinds)
    ]  # type: ignore[arg-type]
    theirs = nx.DiGraph()
    for position, (rid, kind) in enumerate(nodes):
        theirs.add_node(rid, kind=kind, position=position)
    for e in found:
        old = (
            theirs.edges[e.source, e.target]["kinds"]
            if theirs.has_edge(e.source, e.target)
            else frozenset()
        )
        kinds_ = old | {e.kind}
        theirs.add_edge(
            e.source, e.target, kinds=kinds_, kind="statement" if "statement" in kinds_ else "proof"
        )
    return build_graph(nodes, found), theirs


def _their_break(graph: nx.DiGraph) -> tuple[nx.DiGraph, list[tuple[str, str]]]:
    """The blueprint's cycle breaking as it was written on networkx."""
    position = nx.get_node_attributes(graph, "position")
    cyclic = [
        c
        for c in nx.strongly_connected_components(graph)
        if len(c) > 1 or any(graph.has_edge(n, n) for n in c)
    ]
    acyclic, dropped = graph.copy(), []
    for component in sorted(cyclic, key=lambda c: min(position[n] for n in c)):
        kept = nx.DiGraph()
        kept.add_nodes_from(component)

        def key(e: tuple[str, str]) -> tuple[bool, int, int, int]:
            pu, pv = position[e[0]], position[e[1]]
            return (graph.edges[e]["kind"] == "proof", pu - pv, pu, pv)

        for u, v in sorted(graph.subgraph(component).edges, key=key):
            if u == v or nx.has_path(kept, v, u):
                dropped.append((u, v))
                acyclic.remove_edge(u, v)
            else:
                kept.add_edge(u, v)
    return acyclic, dropped


@settings(max_examples=300, deadline=None)
@given(NODES, EDGES)
def test_the_blueprint_graph_answers_as_networkx_did(kinds, edges):
    ours, theirs = _both(kinds, edges)
    acyclic, dropped = break_cycles(ours)
    their_acyclic, their_dropped = _their_break(theirs)
    assert [(e.source, e.target) for e in dropped] == their_dropped
    key = {
        n: (0 if a["kind"] in ("definition", "assumption") else 1, a["position"])
        for n, a in theirs.nodes.items()
    }
    assert topological_order(acyclic) == list(
        nx.lexicographical_topological_sort(their_acyclic, key=key.__getitem__)
    )
    position = nx.get_node_attributes(theirs, "position")
    for node in theirs:
        assert dependents(ours, node) == sorted(nx.descendants(theirs, node), key=position.get)
        statement = nx.subgraph_view(
            theirs, filter_edge=lambda u, v: "statement" in theirs.edges[u, v]["kinds"]
        )
        restated = nx.descendants(statement, node)
        assert dependents(ours, node, "statement") == sorted(restated, key=position.get)
        for kind in ("statement", "proof"):
            uses = [p for p in theirs.predecessors(node) if kind in theirs.edges[p, node]["kinds"]]
            assert predecessors(ours, node, kind) == sorted(uses, key=position.get)
        assert predecessors(ours, node) == sorted(theirs.predecessors(node), key=position.get)
    # the cycles listed are those networkx lists on the graph as built before
    assert find_cycles(acyclic) == []
    cycles = []
    for cycle in itertools.islice(nx.simple_cycles(theirs, length_bound=12), 20):
        start = min(range(len(cycle)), key=lambda i: position[cycle[i]])
        cycles.append(cycle[start:] + cycle[:start])
    assert find_cycles(ours) == sorted(cycles, key=lambda c: [position[n] for n in c])


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 10), st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)), max_size=30))
def test_reachability_and_order_match_networkx(n, pairs):
    ours, theirs = Digraph(), nx.DiGraph()
    for i in range(n):
        ours.add_node(f"n{i}")
        theirs.add_node(f"n{i}")
    for s, t in pairs:
        if max(s, t) < n:
            ours.add_edge(f"n{s}", f"n{t}")
            theirs.add_edge(f"n{s}", f"n{t}")
    for a in theirs:
        assert descendants(ours, a) == nx.descendants(theirs, a)
        for b in theirs:
            assert has_path(ours, a, b) == nx.has_path(theirs, a, b)
    key = {f"n{i}": (i * 7) % 3 for i in range(n)}  # ties broken by insertion order
    if nx.is_directed_acyclic_graph(theirs):
        assert ordered(ours, key.__getitem__) == list(
            nx.lexicographical_topological_sort(theirs, key=key.__getitem__)
        )
    else:
        with pytest.raises(ValueError, match="cycle"):
            ordered(ours, key.__getitem__)


def test_an_acyclic_graph_lists_its_cycles_without_networkx():
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from paperlint.blueprint.graph import build_graph, find_cycles, break_cycles\n"
        "from paperlint.blueprint.model import Edge\n"
        "edges = [Edge(source='a', target='b', kind='proof')]\n"
        "g = build_graph([('a', 'lemma'), ('b', 'theorem')], edges)\n"
        "assert find_cycles(g) == [] and break_cycles(g)[1] == []\n"
        "print('networkx' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
