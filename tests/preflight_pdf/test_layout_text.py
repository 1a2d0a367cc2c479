"""Reading order, furniture removal, text repair and citations on synthetic records."""

from __future__ import annotations

from paperlint.preflight.model import BibEntry
from paperlint.preflight.pdf.citations import find_citations
from paperlint.preflight.pdf.layout import reading_order
from paperlint.preflight.pdf.text import count_cids, join_lines, normalise

from .synthetic import line, page, paragraph


def _texts(*pages):
    return [(r.line.page, r.number, r.text) for r in reading_order(pages)]


def test_two_columns_are_read_left_column_first():
    title = line(740, "A title that spans both columns of the page", x0=100, x1=500)
    left = paragraph(700, 4, "left column text", x0=72, x1=300)
    right = paragraph(700, 4, "right column text", x0=312, x1=540)
    texts = [t for _, _, t in _texts(page(title, *right, *left))]
    assert texts == [title.text] + ["left column text"] * 4 + ["right column text"] * 4


def test_one_column_page_reads_top_down_and_rows_left_to_right():
    equation = line(650, "x = y", x0=250, x1=300)
    number = line(650, "(3.1)", x0=520, x1=540)
    lines = [*paragraph(700, 2, "text above"), number, equation]
    assert [t for _, _, t in _texts(page(*lines))] == ["text above"] * 2 + ["x = y", "(3.1)"]


def test_running_heads_and_page_numbers_are_removed():
    pages = []
    for n in (1, 2, 3):
        head = line(760, "SHORT TITLE OF THE PAPER", x0=200, x1=400, page=n)
        folio = line(60, str(n), x0=300, x1=306, page=n)
        body = paragraph(700, 3, f"body of page {n}", page=n)
        pages.append(page(head, *body, folio, number=n))
    texts = _texts(*pages)
    assert [t for _, _, t in texts] == [f"body of page {n}" for n in (1, 2, 3) for _ in range(3)]
    # line numbers count within each page, furniture excluded
    assert [num for _, num, _ in texts] == [1, 2, 3] * 3


def test_a_title_on_one_page_is_not_furniture():
    title = line(760, "On the convergence of things", x0=200, x1=400)
    assert _texts(page(title, *paragraph(700, 2)))[0][2] == title.text


def test_ligatures_and_hyphenation_are_repaired():
    assert normalise("Deﬁne the diﬀerence; eﬃcient") == "Define the difference; efficient"
    assert join_lines(["the samples are in-", "dependent and Lipschitz-", "Continuous"]) == (
        "the samples are independent and Lipschitz-Continuous"
    )


def test_cid_glyphs_are_counted():
    assert count_cids("sum (cid:80) over (cid:12) terms") == 2


BIB = [
    BibEntry(key="3", text="C. Three."),
    BibEntry(key="7", text="G. Seven."),
    BibEntry(key="12", text="L. Twelve."),
    BibEntry(key="AB19", text="A. Alpha and B. Beta. 2019."),
    BibEntry(key="Robbins1951", text="H. Robbins and S. Monro. A method. 1951."),
    BibEntry(key="Borkar2008", text="V. S. Borkar. Stochastic Approximation. 2008."),
    BibEntry(key="Smith2019", text="J. Smith, K. Jones and L. Brown. Paper. 2019."),
]


def _keys(text):
    return [(c.key, c.note) for c in find_citations(text, BIB, "statement")]


def test_numeric_and_alpha_citations():
    assert _keys("see [12] and [3, 7]") == [("12", None), ("3", None), ("7", None)]
    assert _keys("by [3, Theorem 2]") == [("3", "Theorem 2")]
    assert _keys("as in [AB19]") == [("AB19", None)]


def test_intervals_are_not_citations():
    assert _keys("for x in [0, 1] and [1, 2]") == []


def test_author_year_citations():
    assert _keys("shown by Borkar (2008) and (Robbins and Monro, 1951)") == [
        ("Borkar2008", None),
        ("Robbins1951", None),
    ]
    assert _keys("Smith et al. (2019) prove it") == [("Smith2019", None)]


def test_t1_slots_of_an_unmapped_bitmap_font_are_repaired():
    from paperlint.preflight.pdf.extract import _char_text

    # pdfTeX's Type 3 bitmap fonts (T1 text without cm-super) have no ToUnicode map
    assert _char_text("(cid:28)", "unknown") == "fi"
    assert _char_text("(cid:21)", "SFRM1000") == "\u2013"
    assert _char_text("(cid:28)", "CMMI10") == "(cid:28)"  # a math font's slot is not a ligature
    assert _char_text("(cid:99)", "unknown") == "(cid:99)"
