"""Golden checks on the compiled fixture papers in fixtures/pdf/ (the .tex is next to each)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paperlint.preflight.pdf import build_pdf_inventory

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "pdf"
CASES = sorted(FIXTURES.glob("*.expected.json"))


@pytest.fixture(scope="module", params=CASES, ids=lambda p: p.name.split(".")[0])
def case(request):
    expected = json.loads(request.param.read_text())
    pdf = request.param.with_name(request.param.name.split(".")[0] + ".pdf")
    return expected, build_pdf_inventory(pdf)


def test_heads_have_the_printed_kind_number_note_and_page(case):
    expected, inventory = case
    got = [
        {"kind": r.kind, "number": r.number, "note": r.note, "page": r.span.page}
        for r in inventory.results
    ]
    assert got == expected["heads"]


def test_every_result_is_reported_with_its_method(case):
    expected, inventory = case
    messages = [d.message for d in inventory.diagnostics if d.code == "pdf-extraction"]
    for result in inventory.results:
        assert any(m.startswith(f"{result.id} ") and expected["method"] in m for m in messages)
        assert result.number_source == "pdf"


def test_proofs_are_attached(case):
    expected, inventory = case
    assert [r.id for r in inventory.results if r.proof] == expected["proofs"]
    for result in inventory.results:
        if result.proof:
            assert result.proof.text.startswith("Proof")
            assert result.proof.attached_by == "pdf"


def test_references_to_other_results(case):
    expected, inventory = case
    for rid, uses in expected["uses"].items():
        assert inventory.result(rid).uses == uses
    for rid, uses in expected["proof_uses"].items():
        assert inventory.result(rid).proof_uses == uses


def test_citations_resolve_to_bibliography_keys(case):
    expected, inventory = case
    keys = {entry.key for entry in inventory.bibliography}
    for rid, cited in expected["citations"].items():
        got = [c.key for c in inventory.result(rid).citations]
        assert got == cited
        assert set(got) <= keys


def test_inventory_is_a_pdf_record(case):
    _, inventory = case
    assert inventory.source_kind == "pdf"
    assert inventory.files[0].path == inventory.root
    assert len(inventory.files[0].sha256) == 64
    data = json.loads(inventory.model_dump_json(by_alias=True))
    assert data["schema"] == "paperlint.inventory/1"


def test_line_starting_with_a_reference_gives_no_head():
    inventory = build_pdf_inventory(FIXTURES / "font_heads.pdf")
    assert {r.number for r in inventory.results if r.kind == "theorem"} == {"1", "2"}
    assert not any(r.number in {"3.1", "4.1"} for r in inventory.results)


def test_ligature_glyphs_are_repaired_in_statements():
    from paperlint.preflight.pdf.extract import read_pdf

    raw = "".join(ln.text for p in read_pdf(FIXTURES / "font_heads.pdf").pages for ln in p.lines)
    assert any("\ufb00" <= ch <= "\ufb04" for ch in raw), "fixture lost its ligature glyphs"
    inventory = build_pdf_inventory(FIXTURES / "font_heads.pdf")
    theorem = inventory.result("theorem:1")
    assert theorem.note == "Efficient fitting"
    assert "difference is efficient" in theorem.statement
    assert not any("\ufb00" <= ch <= "\ufb04" for r in inventory.results for ch in r.statement)


def test_two_column_page_is_read_column_by_column():
    inventory = build_pdf_inventory(FIXTURES / "twocolumn.pdf")
    lemma, theorem = inventory.result("lemma:1"), inventory.result("theorem:1")
    # Lemma 1 sits in the left column, Theorem 1 higher up in the right one: reading order
    # puts the whole left column first, so the lemma comes first with a smaller line number.
    assert [r.id for r in inventory.results][:2] == ["lemma:1", "theorem:1"]
    assert lemma.span.start_line < theorem.span.start_line
    assert lemma.statement == "The iterates stay in a compact set (Robbins and Monro, 1951)."
    assert theorem.statement == "The iterates converge almost surely."


def test_running_heads_and_page_numbers_are_not_text():
    inventory = build_pdf_inventory(FIXTURES / "hyperref_amsthm.pdf")
    remark = inventory.result("remark:2.4")
    # The remark opens page 2 right under the running head "SHORT NOTES ON BOUNDED
    # SEQUENCES 2"; with the head removed the remark is the page's line 3, after the proof.
    assert (remark.span.page, remark.span.start_line) == (2, 3)
    texts = [r.statement + (r.proof.text if r.proof else "") for r in inventory.results]
    assert not any("Short notes" in text for text in texts)
    proposition = inventory.result("proposition:A.2")
    assert (proposition.span.page, proposition.span.start_line) == (3, 1)


def test_proof_that_crosses_a_page_keeps_its_start_page():
    theorem = build_pdf_inventory(FIXTURES / "hyperref_amsthm.pdf").result("theorem:2.3")
    assert theorem.span.page == 1
    assert theorem.proof is not None
    assert theorem.proof.span.page == 2
    assert "Lemma 2.2 applies" in theorem.proof.text
