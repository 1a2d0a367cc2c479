"""Publishing conventions (issue 16), one fixture each: what preflight reports besides the
label numbers (those are checked against LaTeX's own .aux in test_fixtures.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperlint.preflight.inventory import build_inventory
from paperlint.preflight.model import Inventory

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "preflight"


def inventory(name: str, root: str | None = "paper.tex") -> Inventory:
    return build_inventory(FIXTURES / name, root=root)


def numbers(inv: Inventory) -> list[tuple[str, str | None]]:
    return [(r.title, r.number) for r in inv.results if r.restates is None]


def proof_of(inv: Inventory, result_id: str) -> str | None:
    result = inv.result(result_id)
    assert result is not None, result_id
    return result.proof.text if result.proof else None


def test_class_options_run_only_when_given() -> None:
    inv = inventory("class_options")
    assert numbers(inv) == [("Theorem", "1"), ("Lemma", "2"), ("Remark", "1"), ("Theorem", "3")]


def test_ntheorem_unnumbered_proof_is_a_proof_not_a_result() -> None:
    inv = inventory("ntheorem_proof")
    assert numbers(inv) == [("Theorem", "1"), ("Lemma", "2")]
    assert proof_of(inv, "thm:a") == "Proof of A."
    assert proof_of(inv, "lem:b") == "Proof of B."


def test_etoolbox_toggles_read_only_the_branch_taken() -> None:
    inv = inventory("etoolbox_toggles")
    assert [r.id for r in inv.results] == ["thm:long", "thm:final", "thm:draft"]
    assert not [d for d in inv.diagnostics if d.code == "duplicate-label"]


def test_counter_tricks() -> None:
    inv = inventory("counter_tricks")
    assert [(r.id, r.number) for r in inv.results] == [
        ("thm:one", "1"),
        ("rem:two", "2"),
        ("note:x", None),  # declared through the paper's own macro, unnumbered
        ("thm:three", "3"),
        ("thm:again", "2"),
        ("thm:restated", "1"),  # \numexpr\getrefnumber{thm:one}-1\relax
        ("thm:special", "A"),
        ("thm:five", "5"),  # \let\thetheorem\saved restored the arabic number
        ("obs:six", "6"),  # \let\c@obs\c@theorem
        ("fact:seven", "7"),  # \expandafter\let\csname c@fact\endcsname\c@theorem
    ]
    assert not [d for d in inv.diagnostics if d.code == "unsure-counter"]


def test_labels_in_displays_and_unnumbered_heads() -> None:
    inv = inventory("display_labels")
    assert inv.labels["disp:in-thm"] == "1.1"
    assert inv.labels["eq:nonumber"] == "1"
    assert inv.labels["claim:star"] == "1"
    assert inv.labels["fn:second"] == "2"  # the footnote's number


def test_proof_attachment() -> None:
    inv = inventory("proof_attachment")
    assert proof_of(inv, "def:rule") is None  # a bussproofs prooftree is no proof
    # the proof after a paragraph of prose is not the lemma's; the proofof names it instead
    assert proof_of(inv, "lem:helper") == "By the definition."
    assert proof_of(inv, "lem:second") == "Proof of the second lemma, across a figure only."
    assert proof_of(inv, "lem:third") is None  # "Proof of Theorem~9" names another result
    assert proof_of(inv, "thm:main") == "The proof of the main theorem, after its restatement."
    restated = [r for r in inv.results if r.restates is not None]
    original = inv.result("thm:main")
    assert original is not None
    assert [(r.restates, r.number, r.statement) for r in restated] == [
        ("thm:main", "1", original.statement)
    ]


def test_blueprint_marks_are_recorded_per_result() -> None:
    inv = inventory("blueprint_marks")
    marks = {r.id: (r.lean, r.leanok, r.mathlibok) for r in inv.results}
    assert marks == {
        "def:group": (["Group", "Monoid"], True, True),
        "lem:one": (["one_mul"], True, False),
        "thm:big": (["Big.theorem"], False, False),
    }
    proofs = {r.id: r.proof.leanok for r in inv.results if r.proof}
    assert proofs == {"lem:one": True, "thm:big": False}


def test_tcolorbox_theorem_forms() -> None:
    inv = inventory("tcb_forms")
    assert numbers(inv) == [("Theorem", "1.1"), ("Lemma", "1.2"), ("Theorem", None)]
    assert inv.labels["lem:second"] == "1.2"


def test_root_found_through_an_input_preamble() -> None:
    inv = inventory("input_preamble", root=None)
    assert inv.root == "paper.tex"
    assert numbers(inv) == [("Theorem", "1")]


@pytest.mark.parametrize("name", ["plain_tex", "amstex"])
def test_plain_tex_papers_are_read(name: str) -> None:
    inv = inventory(name, root=None)
    assert inv.root == "main.tex"
    found = [(r.title, r.number, r.note) for r in inv.results]
    if name == "plain_tex":
        assert found == [
            ("Theorem", "1", None),
            ("Lemma", "2", "Squeeze"),
            ("Corollary", "3", None),
        ]
        assert proof_of(inv, "theorem:1") == "Take the supremum."
        assert proof_of(inv, "lemma:2") is None  # background prose is not a proof
    else:
        assert found == [
            ("Theorem", "1.1", None),
            ("Lemma", "1.2", "Cauchy"),
            ("Proposition", "1.3", None),
        ]
        assert proof_of(inv, "theorem:1.1") == "Lagrange's theorem. \\qed"
        assert proof_of(inv, "lemma:1.2") == "Induction on the order. \\qed"


def test_accented_head_titles_become_unicode(tmp_path: Path) -> None:
    (tmp_path / "paper.tex").write_text(
        "\\documentclass{article}\\usepackage{amsthm}\n"
        "\\newtheorem{thm}{Th\\'eor\\`eme}\n"
        "\\begin{document}\\begin{thm}\\label{t}x\\end{thm}\\end{document}\n",
        encoding="utf-8",
    )
    inv = build_inventory(tmp_path, root="paper.tex")
    assert [(r.title, r.number) for r in inv.results] == [("Théorème", "1")]


# A class written the way svmult declares its environments (svmult itself is not in TeX
# Live; the corpus compiles it from a pinned snapshot): `\spn@wtheorem` chosen by the
# options, calling the internal forms behind `\spnewtheorem`, and `\spnewtheorem*{proof}`.
_SPRINGER_LIKE = r"""\ProvidesClass{spx}
\let\if@envcntsame\iffalse
\DeclareOption{envcountsame}{\let\if@envcntsame\iftrue}
\ProcessOptions
\LoadClass{article}
\spnewtheorem{theorem}{Theorem}{\bfseries}{\itshape}
\spnewtheorem*{proof}{Proof}{\itshape}{\rmfamily}
\if@envcntsame
  \def\spn@wtheorem#1#2#3#4{\@spothm{#1}[theorem]{#2}{#3}{#4}}
\else
  \def\spn@wtheorem#1#2#3#4{\@spynthm{#1}{#2}{#3}{#4}}
\fi
\spn@wtheorem{lemma}{Lemma}{\bfseries}{\itshape}
\spn@wtheorem{remark}{Remark}{\itshape}{\rmfamily}
"""


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ("", [("Theorem", "1"), ("Lemma", "1"), ("Remark", "1"), ("Lemma", "2")]),
        ("envcountsame", [("Theorem", "1"), ("Lemma", "2"), ("Remark", "3"), ("Lemma", "4")]),
    ],
)
def test_springer_internal_declarations_and_their_proof(
    tmp_path: Path, options: str, expected: list[tuple[str, str]]
) -> None:
    (tmp_path / "spx.cls").write_text(_SPRINGER_LIKE)
    (tmp_path / "paper.tex").write_text(
        f"\\documentclass[{options}]{{spx}}\n\\begin{{document}}\n"
        "\\begin{theorem}\\label{thm:a} A.\\end{theorem}\n"
        "\\begin{proof} Proof of A.\\end{proof}\n"
        "\\begin{lemma}\\label{lem:b} B.\\end{lemma}\n"
        "\\begin{remark}\\label{rem:c} C.\\end{remark}\n"
        "\\begin{lemma}\\label{lem:d} D.\\end{lemma}\n\\end{document}\n"
    )
    inv = build_inventory(tmp_path, root="paper.tex")
    assert numbers(inv) == expected
    assert proof_of(inv, "thm:a") == "Proof of A."
    assert not any(d.code == "undeclared-environment" for d in inv.diagnostics)
