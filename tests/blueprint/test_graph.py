from paperlint.blueprint.build import build_blueprint
from paperlint.blueprint.graph import (
    break_cycles,
    build_graph,
    dependency_order,
    dependents,
    find_cycles,
    graph_of,
    predecessors,
    resolve_edges,
)
from paperlint.blueprint.model import Edge
from paperlint.preflight.model import EquationInfo

from .helpers import inventory, result


def paper():
    """A small paper in document order; the definition and assumption come late on purpose."""
    return inventory(
        result("lem:cheb", uses=[], proof_uses=[]),
        result("thm:main", "theorem", uses=["def:trimmed"], proof_uses=["lem:cheb", "lem:tail"]),
        result("lem:tail", uses=["def:trimmed", "ass:moments"], proof_uses=["lem:cheb"]),
        result("def:trimmed", "definition"),
        result("ass:moments", "assumption"),
        result("cor:rate", "corollary", uses=["thm:main"], proof_uses=["thm:main"]),
    )


def test_edges_of_both_kinds_point_from_dependency_to_user():
    edges, diagnostics = resolve_edges(paper())
    assert Edge(source="def:trimmed", target="thm:main", kind="statement") in edges
    assert Edge(source="lem:tail", target="thm:main", kind="proof") in edges
    assert Edge(source="thm:main", target="cor:rate", kind="statement") in edges
    assert Edge(source="thm:main", target="cor:rate", kind="proof") in edges
    assert diagnostics == []


def test_a_use_in_statement_and_proof_is_one_graph_edge_of_the_stronger_kind():
    bp = build_blueprint(paper())
    graph = graph_of(bp)
    assert graph.edge("thm:main", "cor:rate")["kind"] == "statement"
    assert graph.edge("thm:main", "cor:rate")["kinds"] == {"statement", "proof"}


def test_order_puts_definitions_and_assumptions_first_then_document_order():
    bp = build_blueprint(paper())
    assert bp.order == [
        "def:trimmed",
        "ass:moments",
        "lem:cheb",
        "lem:tail",
        "thm:main",
        "cor:rate",
    ]
    assert dependency_order(bp) == bp.order


def test_order_respects_dependencies_over_document_order():
    inv = inventory(
        result("thm:a", "theorem", proof_uses=["lem:b"]),
        result("lem:b"),
    )
    assert build_blueprint(inv).order == ["lem:b", "thm:a"]


def test_unknown_references_are_ignored_with_a_diagnostic():
    inv = inventory(result("lem:a", uses=["lem:gone"], proof_uses=["lem:a", "thm:elsewhere"]))
    bp = build_blueprint(inv)
    assert bp.edges == []
    codes = [(d.code, d.severity) for d in bp.diagnostics]
    assert codes == [("unknown-reference", "warning")] * 2
    assert "lem:gone" in bp.diagnostics[0].message
    assert bp.diagnostics[0].render().startswith("main.tex:1: warning:")


def test_equation_references_resolve_to_the_result_holding_the_equation():
    inv = inventory(
        result("lem:a"),
        result("thm:b", "theorem", proof_uses=["eq:key", "eq:intro"]),
        equations={
            "eq:key": EquationInfo(number="2", result="lem:a"),
            "eq:intro": EquationInfo(number="1", result=None),
        },
    )
    bp = build_blueprint(inv)
    assert bp.edges == [Edge(source="lem:a", target="thm:b", kind="proof")]
    assert [d.code for d in bp.diagnostics] == ["unknown-reference"]


def test_a_claim_inside_a_proof_feeds_that_proof():
    inv = inventory(result("thm:a", "theorem"), result("claim:1", "claim", parent="thm:a"))
    bp = build_blueprint(inv)
    assert bp.edges == [Edge(source="claim:1", target="thm:a", kind="proof")]
    assert bp.order == ["claim:1", "thm:a"]


def cyclic():
    return inventory(
        result("lem:a", proof_uses=["lem:c"]),
        result("lem:b", uses=["lem:a"]),
        result("lem:c", proof_uses=["lem:b"]),
        result("lem:d", proof_uses=["lem:c"]),
    )


def test_a_cycle_is_reported_and_broken_at_the_forward_reference():
    bp = build_blueprint(cyclic())
    assert bp.cycles == [["lem:a", "lem:b", "lem:c"]]
    # lem:a's proof uses lem:c, stated later: the forward reference is dropped
    assert bp.dropped_edges == [Edge(source="lem:c", target="lem:a", kind="proof")]
    assert bp.order == ["lem:a", "lem:b", "lem:c", "lem:d"]
    broken = [d for d in bp.diagnostics if d.code == "cycle-broken"]
    assert len(broken) == 1
    assert "lem:c" in broken[0].message and "lem:a" in broken[0].message
    # the paper's edge is still recorded
    assert Edge(source="lem:c", target="lem:a", kind="proof") in bp.edges


def test_breaking_prefers_proof_edges_over_statement_edges():
    # a statement forward reference (lem:b -> lem:a) and a proof back reference (lem:a -> lem:b)
    inv = inventory(result("lem:a", uses=["lem:b"]), result("lem:b", proof_uses=["lem:a"]))
    bp = build_blueprint(inv)
    assert bp.dropped_edges == [Edge(source="lem:a", target="lem:b", kind="proof")]
    assert bp.order == ["lem:b", "lem:a"]


def test_cycle_breaking_is_deterministic_and_leaves_a_dag():
    g = graph_of(build_blueprint(cyclic()))
    first, dropped_first = break_cycles(g)
    second, dropped_second = break_cycles(g)
    assert dropped_first == dropped_second
    assert find_cycles(first) == []
    assert g.number_of_edges() == first.number_of_edges() + 1  # the input is untouched


def test_two_disjoint_cycles_each_lose_one_edge():
    inv = inventory(
        result("a", proof_uses=["b"]),
        result("b", proof_uses=["a"]),
        result("c", proof_uses=["d"]),
        result("d", proof_uses=["c"]),
    )
    bp = build_blueprint(inv)
    assert bp.cycles == [["a", "b"], ["c", "d"]]
    assert len(bp.dropped_edges) == 2


def test_dependents_any_is_everything_downstream():
    g = graph_of(build_blueprint(paper()))
    assert dependents(g, "def:trimmed") == ["thm:main", "lem:tail", "cor:rate"]
    assert dependents(g, "cor:rate") == []


def test_statement_dependents_follow_statement_edges_only():
    g = graph_of(build_blueprint(paper()))
    # a changed definition re-dirties the statements that mention it, and theirs in turn
    assert dependents(g, "def:trimmed", kind="statement") == ["thm:main", "lem:tail", "cor:rate"]
    assert dependents(g, "ass:moments", kind="statement") == ["lem:tail"]
    assert dependents(g, "lem:cheb", kind="statement") == []


def test_proof_dependents_are_restated_results_and_the_proofs_that_use_them():
    g = graph_of(build_blueprint(paper()))
    # lem:tail's statement changes with the assumption; thm:main's proof uses lem:tail
    assert dependents(g, "ass:moments", kind="proof") == ["thm:main", "lem:tail"]
    # thm:main is only re-proved, its statement is unchanged, so cor:rate is untouched
    assert dependents(g, "lem:cheb", kind="proof") == ["thm:main", "lem:tail"]


def test_predecessors_are_direct_uses_in_document_order():
    g = graph_of(build_blueprint(paper()))
    assert predecessors(g, "thm:main") == ["lem:cheb", "lem:tail", "def:trimmed"]
    assert predecessors(g, "thm:main", kind="statement") == ["def:trimmed"]
    assert predecessors(g, "thm:main", kind="proof") == ["lem:cheb", "lem:tail"]


def test_entries_record_uses_in_document_order():
    bp = build_blueprint(paper())
    entry = bp.entry("lem:tail")
    assert entry is not None
    assert entry.statement_uses == ["def:trimmed", "ass:moments"]
    assert entry.proof_uses == ["lem:cheb"]


def test_build_graph_keeps_node_kind_and_position():
    g = build_graph([("x", "definition"), ("y", "lemma")], [])
    assert g.nodes["y"] == {"kind": "lemma", "position": 1}


def test_only_edges_that_close_a_cycle_are_dropped():
    # a <-> b, b <-> c: two 2-cycles sharing b; two drops suffice, and no more are made
    inv = inventory(
        result("a", proof_uses=["b"]),
        result("b", proof_uses=["a", "c"]),
        result("c", proof_uses=["b"]),
    )
    bp = build_blueprint(inv)
    assert bp.dropped_edges == [
        Edge(source="b", target="a", kind="proof"),
        Edge(source="c", target="b", kind="proof"),
    ]
    g = graph_of(bp)
    acyclic, _ = break_cycles(g)
    for e in bp.dropped_edges:  # maximal: putting any dropped edge back closes a cycle
        acyclic.add_edge(e.source, e.target)
        assert find_cycles(acyclic)
        acyclic.remove_edge(e.source, e.target)


def test_cycle_reports_are_bounded():
    # a complete graph on 8 results has thousands of simple cycles
    ids = [f"r{i}" for i in range(8)]
    inv = inventory(*(result(i, proof_uses=[j for j in ids if j != i]) for i in ids))
    bp = build_blueprint(inv)
    assert 0 < len(bp.cycles) <= 20
    assert sorted(bp.order) == sorted(ids)
