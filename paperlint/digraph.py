"""A small directed graph: the dependency graph of a paper's results (`paperlint.blueprint.graph`)
and the report's picture of it (`paperlint.reports.graph`).

networkx did this before and costs ~0.23 s to import, paid by every check (the blueprint is
built at each start) and every report. The few operations used are here, each held to
networkx's answer on random graphs by `tests/test_digraph.py`. Nodes, each node's edges and
each node's attributes keep insertion order, so every walk is the same in every process.
Listing simple cycles (`paperlint.blueprint.graph.find_cycles`) still asks networkx, and only
when the graph has a cycle: its bounded search stays polynomial per cycle on hostile inputs.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

EdgeFilter = Callable[[dict[str, Any]], bool]


@dataclass
class Digraph:
    """Nodes with attributes (`nodes[n]`), and edges with attributes (`succ[s][t]`)."""

    nodes: dict[str, dict[str, Any]] = field(default_factory=dict)
    succ: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    pred: dict[str, dict[str, None]] = field(default_factory=dict)

    def add_node(self, node: str, **attrs: Any) -> None:
        """Adds `node` if new; its attributes are updated in place."""
        self.nodes.setdefault(node, {}).update(attrs)
        self.succ.setdefault(node, {})
        self.pred.setdefault(node, {})

    def add_edge(self, source: str, target: str, **attrs: Any) -> None:
        """Adds both ends if new; adding an edge again updates its attributes in place."""
        self.add_node(source)
        self.add_node(target)
        self.succ[source].setdefault(target, {}).update(attrs)
        self.pred[target][source] = None

    def remove_edge(self, source: str, target: str) -> None:
        del self.succ[source][target]
        del self.pred[target][source]

    def has_edge(self, source: str, target: str) -> bool:
        return target in self.succ.get(source, {})

    def edge(self, source: str, target: str) -> dict[str, Any]:
        """The attributes of the edge `source -> target` (KeyError if absent)."""
        return self.succ[source][target]

    def __contains__(self, node: object) -> bool:
        return node in self.nodes

    def predecessors(self, node: str) -> Iterator[str]:
        return iter(self.pred[node])

    def successors(self, node: str) -> Iterator[str]:
        return iter(self.succ[node])

    def edges(self) -> Iterator[tuple[str, str, dict[str, Any]]]:
        return ((s, t, attrs) for s, out in self.succ.items() for t, attrs in out.items())

    def number_of_edges(self) -> int:
        return sum(len(out) for out in self.succ.values())

    def subgraph(self, nodes: Iterable[str]) -> Digraph:
        """A copy holding `nodes` and the edges among them, in this graph's order."""
        keep = set(nodes)
        sub = Digraph()
        for node, attrs in self.nodes.items():
            if node in keep:
                sub.add_node(node, **attrs)
        for source, target, attrs in self.edges():
            if source in keep and target in keep:
                sub.add_edge(source, target, **attrs)
        return sub

    def copy(self) -> Digraph:
        """A copy (attribute dicts copied too, their values shared)."""
        return self.subgraph(self.nodes)


def descendants(graph: Digraph, node: str, follow: EdgeFilter | None = None) -> set[str]:
    """Every node reachable from `node`, never `node` itself (as networkx), along the edges
    whose attributes `follow` accepts (every edge without it)."""
    seen = {node}
    todo = [node]
    while todo:
        for child, attrs in graph.succ[todo.pop()].items():
            if child not in seen and (follow is None or follow(attrs)):
                seen.add(child)
                todo.append(child)
    seen.discard(node)
    return seen


def has_path(graph: Digraph, source: str, target: str) -> bool:
    """Whether `target` is reachable from `source` (a node reaches itself)."""
    return source == target or target in descendants(graph, source)


def topological_order(graph: Digraph, key: Callable[[str], Any]) -> list[str]:
    """Every node, each after its predecessors; among the nodes ready at once, the least by
    `key` first, then the first added (networkx's lexicographical_topological_sort).
    Raises ValueError on a cycle."""
    waiting = {node: len(sources) for node, sources in graph.pred.items()}
    place = {node: i for i, node in enumerate(graph.nodes)}  # ties: insertion order
    ready = [(key(node), place[node], node) for node, count in waiting.items() if count == 0]
    heapq.heapify(ready)
    out: list[str] = []
    while ready:
        _, _, node = heapq.heappop(ready)
        out.append(node)
        for child in graph.succ[node]:
            waiting[child] -= 1
            if waiting[child] == 0:
                heapq.heappush(ready, (key(child), place[child], child))
    if len(out) != len(graph.nodes):
        raise ValueError("the graph has a cycle: no topological order")
    return out


def components(graph: Digraph) -> dict[str, int]:
    """Each node's strongly connected component (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    component: dict[str, int] = {}
    stack: list[str] = []
    found = 0
    for root in graph.succ:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        work = [(root, iter(graph.succ[root]))]
        while work:
            node, children = work[-1]
            child = next((c for c in children if c not in component), None)
            if child is not None and child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                work.append((child, iter(graph.succ[child])))
                continue
            if child is not None:  # on the stack: a back or cross edge inside this component
                low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                while True:
                    member = stack.pop()
                    component[member] = found
                    if member == node:
                        break
                found += 1
    return component
