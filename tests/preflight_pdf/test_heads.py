"""Head recognition on synthetic lines: fonts, punctuation and the gap above decide."""

from __future__ import annotations

import pytest

from paperlint.preflight.pdf.build import inventory_from_document
from paperlint.preflight.pdf.heads import find_destination_heads, match_head_text
from paperlint.preflight.pdf.layout import reading_order
from paperlint.preflight.pdf.records import Destination, PdfDocument

from .synthetic import line, page, paragraph, run


def _results(*lines, destinations=()):
    document = PdfDocument("paper.pdf", (page(*lines),), tuple(destinations))
    return inventory_from_document(document).results


def _with_context(head_line):
    """Body text above (12 pt skip) and below; the head sits after an 18 pt gap."""
    above = paragraph(700, 5)
    below = paragraph(head_line.y0 - 12, 3, "the statement goes on in the body")
    return [*above, head_line, *below]


@pytest.mark.parametrize(
    ("text", "word", "number", "note", "punct"),
    [
        ("Theorem 3.1 (Hoeffding). Let", "Theorem", "3.1", "Hoeffding", True),
        ("Lemma A.2. If", "Lemma", "A.2", None, True),
        ("Theorem 1 (Name) Every", "Theorem", "1", "Name", False),
        ("2.3 Proposition. The", "Proposition", "2.3", None, True),
        ("THEOREM 2.1. Let", "THEOREM", "2.1", None, True),
        ("Remark. This", "Remark", None, None, True),
        (
            "Corollary 4.2a (of Theorem 4.1 (ii)). Then",
            "Corollary",
            "4.2a",
            "of Theorem 4.1 (ii)",
            True,
        ),
    ],
)
def test_head_text_is_parsed(text, word, number, note, punct):
    m = match_head_text(text)
    assert m is not None
    assert (m.word, m.number, m.note, m.punct) == (word, number, note, punct)


@pytest.mark.parametrize(
    "text", ["Theorems 3 and 4 show", "Lemmas are", "theorem 3", "Proof. Easy"]
)
def test_non_head_text_is_not_parsed(text):
    assert match_head_text(text) is None


def test_bold_head_is_a_result():
    head = line(622, run("Theorem 3.1. ", "CMBX10"), run("Every bounded sequence", "CMTI10"))
    (result,) = _results(*_with_context(head))
    assert (result.id, result.kind, result.number) == ("theorem:3.1", "theorem", "3.1")
    assert result.statement.startswith("Every bounded sequence")


@pytest.mark.parametrize(
    "start",
    [
        "Theorem 3.1 shows that the bound holds",
        "Theorem 4.1. Since the bound holds",
        "Lemma 2 (and",
    ],
)
def test_regular_font_reference_at_line_start_is_never_a_head(start):
    reference = line(622, run(start, "CMR10"))
    assert _results(*_with_context(reference)) == []


def test_reference_inside_italic_statement_is_not_a_remark_head():
    # An italic plain-style body may start a line with "Theorem 2.1." in italic: the number
    # is italic too, unlike amsthm's remark style, which sets the number upright.
    reference = line(622, run("Theorem 2.1. Then the claim follows", "CMTI10"))
    assert _results(*_with_context(reference)) == []


def test_remark_style_head_italic_name_upright_number():
    head = line(
        622, run("Remark ", "CMTI10"), run("1.4", "CMR10"), run(". ", "CMTI10"), run("Sharp.")
    )
    (result,) = _results(*_with_context(head))
    assert (result.kind, result.number) == ("remark", "1.4")


def test_small_caps_head_and_kernel_head_without_period():
    sc = line(622, run("Theorem 2.1. ", "CMCSC10"), run("Let x be", "CMTI10"))
    kernel = line(
        560,
        run("Theorem 1 ", "NimbusRomNo9L-Medi"),
        run("(Name) ", "NimbusRomNo9L-Regu"),
        run("Every set", "NimbusRomNo9L-ReguItal"),
    )
    results = _results(*_with_context(sc), *_with_context(kernel)[5:])
    assert [(r.number, r.note) for r in results] == [("2.1", None), ("1", "Name")]


def test_bold_sentence_starting_with_a_result_name_is_not_a_head():
    bold = line(622, run("Theorem 1 is the main result of this paper", "CMBX10"))
    assert _results(*_with_context(bold)) == []


def test_section_title_in_a_larger_font_is_not_a_swapped_head():
    title = line(622, run("2 Lemma proofs", "CMBX12", size=14.3))
    assert _results(*_with_context(title)) == []


def test_named_destination_locates_the_head_and_text_gives_the_number():
    # hyperref names the anchor after the shared counter (theorem.2.2) for a lemma.
    head = line(622, run("Lemma 2.2. ", "CMBX10"), run("Every monotone sequence", "CMTI10"))
    results = _results(*_with_context(head), destinations=[Destination("theorem.2.2", 1, 635.0)])
    assert [(r.id, r.kind) for r in results] == [("lemma:2.2", "lemma")]


def test_restated_result_points_to_the_first_one():
    first = line(622, run("Theorem 1. ", "CMBX10"), run("A claim", "CMTI10"))
    again = line(500, run("Theorem 1. ", "CMBX10"), run("A claim", "CMTI10"))
    results = _results(*_with_context(first), *_with_context(again)[5:])
    assert results[0].id == "theorem:1"
    assert results[1].restates == "theorem:1"
    assert results[1].id.startswith("theorem@")


def test_proof_ends_at_the_qed_mark():
    head = line(622, run("Lemma 1. ", "CMBX10"), run("A claim.", "CMTI10"))
    proof = [
        line(600, run("Proof. ", "CMTI10"), run("First step")),
        line(588, "and the last step. \u25a1"),
        line(576, "Text after the proof that belongs to no result."),
    ]
    (result,) = _results(*paragraph(700, 5), head, *proof)
    assert result.proof is not None
    assert result.proof.text == "Proof. First step and the last step. \u25a1"
    assert (result.proof.span.start_line, result.proof.span.end_line) == (7, 8)


def test_proof_of_a_named_result_far_from_it_is_attached():
    lemma = line(622, run("Lemma 2.2. ", "CMBX10"), run("A claim.", "CMTI10"))
    theorem = line(560, run("Theorem 2.3. ", "CMBX10"), run("Another claim.", "CMTI10"))
    later = line(500, run("Proof of Lemma 2.2. ", "CMTI10"), run("By induction. \u25a1"))
    results = _results(
        *paragraph(700, 5), lemma, *paragraph(598, 2), theorem, *paragraph(538, 2), later
    )
    lemma_result = next(r for r in results if r.id == "lemma:2.2")
    assert lemma_result.proof is not None
    assert lemma_result.proof.text.startswith("Proof of Lemma 2.2.")
    assert next(r for r in results if r.id == "theorem:2.3").proof is None


def test_a_note_that_wraps_onto_the_next_line_is_read_whole():
    head = line(622, run("Theorem 2.1 ", "CMBX10"), run("(Sufficient conditions for", "CMR10"))
    wrapped = line(610, run("Theorem 3.2)", "CMR10"), run(". ", "CMBX10"), run("Let x", "CMTI10"))
    (result,) = _results(*paragraph(700, 5), head, wrapped, *paragraph(598, 2, "and so on"))
    assert (result.number, result.note) == ("2.1", "Sufficient conditions for Theorem 3.2")
    assert result.statement.startswith("Let x")
    assert result.span.start_line == 6


@pytest.mark.parametrize("text", ["Claim II. For every", "Lemma as stated"])
def test_lower_case_or_roman_tails_are_not_numbers(text):
    m = match_head_text(text)
    assert m is None or m.number is None


def test_cid_glyphs_are_reported_in_a_warning():
    head = line(622, run("Lemma 1. ", "CMBX10"), run("The sum (cid:80) is finite.", "CMTI10"))
    document = PdfDocument("paper.pdf", (page(*paragraph(700, 5), head),))
    inventory = inventory_from_document(document)
    (warning,) = [d for d in inventory.diagnostics if d.code == "pdf-cid-glyphs"]
    assert warning.severity == "warning" and warning.message.startswith("1 glyph(s)")
    assert "(cid:80)" in inventory.results[0].statement


def test_fit_anchor_takes_the_next_styled_head_on_its_page():
    lines = reading_order(
        [
            page(*paragraph(700, 3)),
            page(
                line(700, "Lemma 3 shows the rest of the argument here.", page=2),
                line(680, run("Key Lemma 4.", "CMBX10"), " Every bounded set is finite.", page=2),
                number=2,
            ),
        ]
    )
    heads = find_destination_heads(lines, [Destination("lemma.4", 2, None)])
    assert [(h.word, h.number, h.kind) for h in heads] == [("Key Lemma", "4", "lemma")]
    # on page 1, `/Fit` is pdfTeX's placeholder for a lost anchor: it locates nothing
    assert find_destination_heads(lines, [Destination("lemma.4", 1, None)]) == []


def test_cross_reference_line_above_a_head_does_not_take_its_anchor():
    lines = reading_order(
        [
            page(
                line(691, "Theorem 2 gives the bound we need in what follows"),
                line(680, run("Theorem 3.", "CMBX10"), " A statement."),
            )
        ]
    )
    heads = find_destination_heads(lines, [Destination("theorem.3", 1, 699.0, 72.0)])
    assert [(h.number, h.index) for h in heads] == [("3", 1)]


def test_ieeetran_italic_head_with_colon_then_upright_statement():
    head = line(
        622,
        run("Theorem 1 (Capacity): ", "NimbusRomNo9L-ReguItal"),
        run("The capacity is the maximum.", "NimbusRomNo9L-Regu"),
    )
    (result,) = _results(*_with_context(head))
    assert (result.kind, result.number, result.note) == ("theorem", "1", "Capacity")


def test_italic_reference_with_colon_inside_an_italic_statement_is_not_a_head():
    reference = line(622, run("Lemma 2: the claim follows from it", "NimbusRomNo9L-ReguItal"))
    assert _results(*_with_context(reference)) == []


def test_lipics_ornament_before_the_head_word():
    head = line(
        622,
        run("\u25b6 ", "MSAM10"),
        run("Lemma 1. ", "LMSans10-Bold"),
        run("Every bounded set is finite.", "LMRoman10-Italic"),
    )
    (result,) = _results(*_with_context(head))
    assert (result.kind, result.number) == ("lemma", "1")


@pytest.mark.parametrize(
    ("text", "custom", "word", "number"),
    [
        ("Exercise II.5 (Local rings).", False, "Exercise", "II.5"),
        ("Proposition IV.12. Let", False, "Proposition", "IV.12"),
        ("Issue/TODO 18. Check this", True, "Issue/TODO", "18"),
        ("Theorem .3. Let", False, "Theorem", ".3"),
    ],
)
def test_roman_chapter_numbers_and_slashed_custom_words(text, custom, word, number):
    m = match_head_text(text, custom=custom)
    assert m is not None and (m.word, m.number) == (word, number)


def test_anchor_at_a_page_foot_finds_its_head_on_the_next_page_past_a_note():
    # "Note that …" right below the anchor is text (an anchored head is numbered), and the
    # footnote under it must not hide the head that opens the next page.
    lines = reading_order(
        [
            page(
                *paragraph(700, 3),
                line(130, "Note that the definition used here is weak"),
                line(100, run("1 A footnote in a smaller font", size=8.0)),
            ),
            page(
                line(727, run("Corollary 6. ", "CMBX10"), "The type is a group.", page=2),
                *paragraph(715, 3, page=2),
                number=2,
            ),
        ]
    )
    heads = find_destination_heads(lines, [Destination("theorem.6", 1, 140.0, 72.0)])
    assert [(h.word, h.number, lines[h.index].line.page) for h in heads] == [("Corollary", "6", 2)]


def test_an_unanchored_head_set_like_the_anchored_ones_is_a_result():
    # pdfTeX drops an anchor whose name was used before (numbers reset after \\appendix):
    # the head is set exactly as the anchored heads of its word, with a number of its own.
    anchored = line(622, run("Exercise 1. ", "CMBX10"), run("Show that", "CMR10"))
    unanchored = line(500, run("Exercise 2. ", "CMBX10"), run("Prove that", "CMR10"))
    body = [*_with_context(anchored), *_with_context(unanchored)[5:]]
    results = _results(*body, destinations=[Destination("exercise.1", 1, 635.0, 72.0)])
    assert [(r.number, r.restates) for r in results] == [("1", None), ("2", None)]


def test_a_hand_made_head_is_ignored_unless_a_dropped_anchor_vouches_for_it():
    # no anchored head is a Claim: "Claim 1." in bold is the author's own heading; pdfTeX
    # replaces an anchor that was referenced but never set by `[page 1 /Fit]`
    anchored = line(622, run("Theorem 1. ", "CMBX10"), run("Show that", "CMTI10"))
    hand_made = line(500, run("Claim 1. ", "CMBX10"), run("Prove that", "CMR10"))
    body = [*_with_context(anchored), *_with_context(hand_made)[5:]]
    real = Destination("theorem.1", 1, 635.0, 72.0)
    assert [r.kind for r in _results(*body, destinations=[real])] == ["theorem"]
    placeholder = Destination("claim.1", 1, None, None)
    kept = _results(*body, destinations=[real, placeholder])
    assert [(r.kind, r.number) for r in kept] == [("theorem", "1"), ("claim", "1")]


def test_a_bold_restatement_of_an_anchored_result_is_attached_to_it():
    # `{\\bf Lemma \\ref{b}}.` repeats the number of an anchored lemma: a restatement (in
    # whatever words), not a result of its own
    anchored = line(622, run("Lemma 2. ", "CMBX10"), run("Every finite set is bounded.", "CMTI10"))
    again = line(500, run("Lemma 2", "CMBX10"), run(". In other words, sets are small.", "CMR10"))
    body = [*_with_context(anchored), *_with_context(again)[5:]]
    results = _results(*body, destinations=[Destination("lemma.2", 1, 635.0, 72.0)])
    assert [(r.id, r.restates) for r in results] == [
        ("lemma:2", None),
        (results[1].id, "lemma:2"),
    ]
    assert results[1].id.startswith("lemma@")


def test_the_same_number_over_a_different_statement_is_another_result():
    # KOMA's \addsec restarts the theorem counter without a new section number
    first = line(622, run("Theorem 1.1. ", "CMBX10"), run("Every set is finite.", "CMTI10"))
    again = line(500, run("Theorem 1.1. ", "CMBX10"), run("No group is empty.", "CMTI10"))
    results = _results(
        *paragraph(700, 5),
        first,
        *paragraph(610, 2, "of the first statement and its sets"),
        again,
        *paragraph(488, 2, "while groups have a unit element"),
    )
    assert [(r.number, r.restates) for r in results] == [("1.1", None), ("1.1", None)]


def test_a_heading_titled_with_a_result_number_is_not_another_result():
    # a thesis' `\\subsubsection*{Theorem \\ref{a}}`: bold, alone on its line
    first = line(622, run("Theorem 3.2. ", "CMBX10"), run("Every set is finite.", "CMTI10"))
    heading = line(500, run("Theorem 3.2", "CMBX10"))
    results = _results(
        *paragraph(700, 5),
        first,
        *paragraph(610, 2, "of the first statement and its sets"),
        heading,
        *paragraph(488, 2, "we now prove it in several steps"),
    )
    assert [(r.number, r.restates) for r in results] == [("3.2", None), ("3.2", "theorem:3.2")]
