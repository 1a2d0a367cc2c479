"""The report's own graph code against networkx, the library it replaced (networkx stays a
dependency of the blueprint, so it is here to compare with): the same strongly connected
components and the same layers on random graphs, cycles and self-loops included."""

from __future__ import annotations

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from paperlint.digraph import Digraph, components
from paperlint.reports.graph import layers

EDGES = st.lists(st.tuples(st.integers(0, 11), st.integers(0, 11)), max_size=40)


def _both(n: int, edges: list[tuple[int, int]]) -> tuple[Digraph, nx.DiGraph, list[str]]:
    order = [f"r{i}" for i in range(n)]
    ours, theirs = Digraph(), nx.DiGraph()
    for node in order:
        ours.add_node(node)
        theirs.add_node(node)
    for s, t in edges:
        if s < n and t < n:
            ours.add_edge(order[s], order[t], statement=True)
            theirs.add_edge(order[s], order[t])
    return ours, theirs, order


def _nx_layers(graph: nx.DiGraph, order: list[str]) -> list[list[str]]:
    condensed = nx.condensation(graph)
    members = condensed.graph["mapping"]
    return [
        [n for n in order if members[n] in set(generation)]
        for generation in nx.topological_generations(condensed)
    ]


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 12), EDGES)
def test_components_and_layers_match_networkx(n, edges):
    ours, theirs, order = _both(n, edges)
    groups: dict[int, set[str]] = {}
    for node, c in components(ours).items():
        groups.setdefault(c, set()).add(node)
    expected = {frozenset(c) for c in nx.strongly_connected_components(theirs)}
    assert {frozenset(g) for g in groups.values()} == expected
    # same layers as sets (within a layer our barycentre sort decides the order)
    assert [set(layer) for layer in layers(ours, order)] == [
        set(layer) for layer in _nx_layers(theirs, order)
    ]
    assert ours.number_of_edges() == theirs.number_of_edges()
    for node in order:
        assert set(ours.predecessors(node)) == set(theirs.predecessors(node))


def test_a_long_chain_needs_no_recursion_and_stays_in_order():
    ours = Digraph()
    order = [f"r{i}" for i in range(5000)]
    for a, b in zip(order, order[1:], strict=False):
        ours.add_edge(a, b)
    ours.add_edge(order[-1], order[2500])  # one long cycle at the end
    rows = layers(ours, order)
    assert len(rows) == 2501
    assert rows[-1] == order[2500:]


def test_subgraph_keeps_order_and_edges_among_the_kept_nodes_only():
    g = Digraph()
    for s, t in [("c", "a"), ("a", "b"), ("b", "c"), ("a", "d")]:
        g.add_edge(s, t, statement=s == "a")
    sub = g.subgraph(["b", "a", "c"])
    assert list(sub.succ) == ["c", "a", "b"]
    assert [(s, t, a["statement"]) for s, t, a in sub.edges()] == [
        ("c", "a", False),
        ("a", "b", True),
        ("b", "c", False),
    ]
    assert "d" not in sub
