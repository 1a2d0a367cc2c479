"""The final convergence review: two reviewers of different models read the frozen graph.

When every result has a verdict, two reviewers — of different models, each in a fresh context —
read every gated statement beside the paper's text, every condition and every issue, statements
the gate already passed included, and flag what they disagree with. This module is the pure
core of that step: combining the two reviews and deciding what to re-gate. A flag from either
reviewer counts (the review exists to catch what one reader missed); a flagged result is
re-gated together with every result downstream of it along statement edges (their statements
may quote it) and every result whose proof uses a re-gated one — `blueprint.graph.dependents`
with kind "proof" — and nothing else.

`paperlint.engine.converge` asks the two reviewers at the end of a check and applies this; the
records (the reviews, the combined flags, the state) are `paperlint.records.convergence`'s.
"""

from __future__ import annotations

from collections.abc import Sequence

from paperlint.blueprint.graph import dependents
from paperlint.digraph import Digraph
from paperlint.records.convergence import Combined, ConvergenceReview


def combine(first: ConvergenceReview, second: ConvergenceReview, graph: Digraph) -> Combined:
    """Both reviews together; refuse a review that is not independent or not complete."""
    if first.model == second.model:
        raise ValueError("the two convergence reviewers must be different models")
    nodes = set(graph.nodes)
    for review in (first, second):
        missing = nodes - set(review.reviewed)
        if missing:
            raise ValueError(f"{review.model} did not review {sorted(missing)}")
        unknown = {f.result for f in review.flags} - nodes
        if unknown:
            raise ValueError(f"{review.model} flagged unknown results {sorted(unknown)}")
    a = {f.result for f in first.flags}
    b = {f.result for f in second.flags}
    order = _document_order(graph)
    flagged = sorted(a | b, key=order.__getitem__)
    return Combined(
        flagged=flagged,
        by_both=sorted(a & b, key=order.__getitem__),
        flags=[*first.flags, *second.flags],
        regate=regate_set(flagged, graph),
    )


def regate_set(flagged: Sequence[str], graph: Digraph) -> list[str]:
    """The flagged results and their dependents (statements and proofs), in document order."""
    out = set(flagged)
    for rid in flagged:
        out.update(dependents(graph, rid, "proof"))
    order = _document_order(graph)
    return sorted(out, key=order.__getitem__)


def _document_order(graph: Digraph) -> dict[str, int]:
    return {n: graph.nodes[n]["position"] for n in graph.nodes}
