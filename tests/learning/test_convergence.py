"""The convergence review's pure core: two independent readings, and what to re-gate."""

import pytest

from paperlint.blueprint.graph import build_graph
from paperlint.blueprint.model import Edge
from paperlint.learning.convergence import combine, regate_set
from paperlint.records.convergence import ConvergenceReview
from paperlint.records.outputs import ConvergenceFlag as ReviewFlag

# def:d -> lem:a (statement uses d) -> thm:b (proof uses a) ; lem:c independent; cor:e uses b's
# statement
NODES = [
    ("def:d", "definition"),
    ("lem:a", "lemma"),
    ("lem:c", "lemma"),
    ("thm:b", "theorem"),
    ("cor:e", "corollary"),
]
EDGES = [
    Edge(source="def:d", target="lem:a", kind="statement"),
    Edge(source="lem:a", target="thm:b", kind="proof"),
    Edge(source="thm:b", target="cor:e", kind="statement"),
]
GRAPH = build_graph(NODES, EDGES)
ALL = [n for n, _ in NODES]


def review(model, *flags):
    return ConvergenceReview(
        model=model,
        reviewed=ALL,
        flags=[
            ReviewFlag(result=r, concern="statement", reason="reads differently") for r in flags
        ],
    )


@pytest.mark.parametrize(
    ("flagged", "regate"),
    [
        ([], []),
        (["lem:c"], ["lem:c"]),  # nothing depends on it: only it
        (["thm:b"], ["thm:b", "cor:e"]),
        # a's statement changes: b's proof uses it (redo), e does not use a at all
        (["lem:a"], ["lem:a", "thm:b"]),
        # d's statement changes: a is re-gated, b's proof redone
        (["def:d"], ["def:d", "lem:a", "thm:b"]),
        (["cor:e", "def:d"], ["def:d", "lem:a", "thm:b", "cor:e"]),
    ],
)
def test_regate_only_the_flagged_and_their_dependents(flagged, regate):
    assert regate_set(flagged, GRAPH) == regate


def test_either_reviewer_s_flag_counts():
    got = combine(review("m1", "lem:a"), review("m2", "lem:a", "lem:c"), GRAPH)
    assert got.flagged == ["lem:a", "lem:c"]
    assert got.by_both == ["lem:a"]
    assert got.regate == ["lem:a", "lem:c", "thm:b"]
    assert len(got.flags) == 3


def test_the_reviewers_must_be_different_models():
    with pytest.raises(ValueError, match="different models"):
        combine(review("m1"), review("m1"), GRAPH)


def test_every_result_must_have_been_reviewed():
    partial = ConvergenceReview(model="m2", reviewed=ALL[:-1])
    with pytest.raises(ValueError, match="did not review"):
        combine(review("m1"), partial, GRAPH)


def test_a_flag_on_an_unknown_result_is_refused():
    with pytest.raises(ValueError, match="unknown results"):
        combine(review("m1", "thm:zz"), review("m2"), GRAPH)
