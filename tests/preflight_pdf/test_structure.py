"""PDF heads from structure (issue 26), on two compiled papers in fixtures/pdf/: the same
source with and without hyperref. Each prints an algorithm float and two listings
("Algorithm 1: Calculate ELBO L", "Listing 1: …"), statements that open like heads ("Let X
be", "In Section 5 we", "Calculate ELBO L"), a custom number ("Assumption EB"), a
hand-bolded restatement (`{\\bf Lemma \\ref{lem:b}}.`), a subsection titled "Theorem 1.1",
and, with hyperref, an anchor pdfTeX drops as a duplicate (`theorem.1.1` again, after the
counter restarts as S1). The numbered heads must be exactly those LaTeX typeset."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from paperlint.preflight.model import Inventory
from paperlint.preflight.pdf import build_pdf_inventory
from paperlint.preflight.pdf.heads import kind_of

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "pdf"


@pytest.fixture(scope="module", params=["structure_anchored", "structure_fonts"])
def case(request: pytest.FixtureRequest) -> tuple[str, Inventory, list[dict[str, object]]]:
    name = request.param
    heads = json.loads((FIXTURES / f"{name}.heads.json").read_text(encoding="utf-8"))["heads"]
    return name, build_pdf_inventory(FIXTURES / f"{name}.pdf"), heads


def test_numbered_heads_are_exactly_the_ones_latex_typeset(
    case: tuple[str, Inventory, list[dict[str, object]]],
) -> None:
    _, inventory, heads = case
    printed = Counter(
        (kind_of(str(h["title"])), str(h["number"]))
        for h in heads
        if h["number"] and not h["restated"]
    )
    found = Counter((r.kind, r.number) for r in inventory.results if r.number and not r.restates)
    assert found == printed


def test_no_caption_listing_or_sentence_is_a_result(
    case: tuple[str, Inventory, list[dict[str, object]]],
) -> None:
    _, inventory, _ = case
    assert not [
        r
        for r in inventory.results
        if r.title.split()[0] in ("Algorithm", "Listing") and r.number in ("1", "2")
    ]
    assert not [r for r in inventory.results if r.title in ("Let", "In Section", "Calculate")]


def test_the_bold_restatement_is_attached_to_the_original(
    case: tuple[str, Inventory, list[dict[str, object]]],
) -> None:
    _, inventory, _ = case
    [restated] = [r for r in inventory.results if r.restates]
    assert (restated.kind, restated.number, restated.restates) == ("lemma", "1.2", "lemma:1.2")


def test_the_head_whose_anchor_was_dropped_is_found_by_its_style() -> None:
    inventory = build_pdf_inventory(FIXTURES / "structure_anchored.pdf")
    s1 = inventory.result("theorem:S1")
    assert s1 is not None
    method = next(d.message for d in inventory.diagnostics if d.message.startswith("theorem:S1 "))
    assert "found by font-head, confidence medium" in method
