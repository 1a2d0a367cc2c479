"""End to end on the example papers: preflight's real inventory, then the blueprint."""

from pathlib import Path

import pytest

from paperlint.blueprint import build_blueprint, dependency_order
from paperlint.preflight.inventory import build_inventory

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("paper", ["sample-variance", "proportions"])
def test_fixture_paper_blueprint_is_complete_and_ordered(paper):
    inv = build_inventory(ROOT / "fixtures" / paper / "paper.tex")
    bp = build_blueprint(inv)
    ids = [r.id for r in inv.results]
    assert [e.id for e in bp.entries] == ids
    assert sorted(bp.order) == sorted(ids)
    assert dependency_order(bp) == bp.order
    position = {rid: i for i, rid in enumerate(bp.order)}
    assert all(position[e.source] < position[e.target] for e in bp.edges)
    assert len({e.lean_name for e in bp.entries}) == len(ids)
    assert bp.cycles == []


def test_sample_variance_plan():
    bp = build_blueprint(build_inventory(ROOT / "fixtures" / "sample-variance" / "paper.tex"))
    entry = bp.entry("lem:mean-square")
    assert entry is not None
    assert (entry.lean_name, entry.lean_file) == (
        "lem_mean_square",
        "lean/Paper/Lem_mean_square.lean",
    )
    assert entry.statement_uses == ["def:mean"]
    assert [(i.key, i.locator) for i in entry.external_inputs] == [("steele2004", "Theorem~1.1")]
    assert entry.macros_used == ["\\mean"]
    assert bp.order[0] == "def:mean"
