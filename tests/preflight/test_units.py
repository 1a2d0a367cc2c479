"""The small pure pieces: scanning, counters, pre-pass, references, citations, macros."""

from __future__ import annotations

import pytest

from paperlint.preflight import citations, macros, prepass, references, texscan
from paperlint.preflight.counters import Counters, format_value
from paperlint.preflight.declarations import kind_of
from paperlint.preflight.equations import split_rows


def test_optional_argument_ends_at_first_bracket_outside_braces() -> None:
    assert texscan.read_optional("[Bernstein [Thm 2]] x", 0) == ("Bernstein [Thm 2", 18)
    assert texscan.read_optional("[{Bernstein [Thm 2]}]", 0) == ("{Bernstein [Thm 2]}", 21)
    assert texscan.read_optional("\n[Title]", 0) == ("Title", 8)
    assert texscan.read_optional("\n\n[Title]", 0) is None  # a paragraph break stops LaTeX


@pytest.mark.parametrize(
    ("value", "style", "printed"),
    [
        (4, "roman", "iv"),
        (14, "Roman", "XIV"),
        (2, "alph", "b"),
        (28, "Alph", "AB"),
        (3, "arabic", "3"),
    ],
)
def test_format_value(value: int, style: str, printed: str) -> None:
    assert format_value(value, style) == printed


def test_counter_resets_and_templates() -> None:
    counters = Counters()
    counters.new("section")
    counters.new("theorem", "section", "\\thesection.\\arabic{theorem}")
    counters.step("section")
    counters.step("theorem")
    counters.step("theorem")
    assert counters.render("theorem") == "1.2"
    counters.set("section", 0)  # \setcounter resets nothing
    assert counters.values["theorem"] == 2
    counters.the["section"] = "\\Alph{section}"
    counters.step("section")
    counters.step("theorem")
    assert counters.render("theorem") == "A.1"
    counters.the["theorem"] = "H\\arabic{theorem}"
    assert counters.render("theorem") == "H1"


def test_prepass_keeps_lines_and_escaped_percent() -> None:
    text = "a % gone\nb \\% kept\n\\iffalse\nhidden\n\\fi\nc"
    cleaned = prepass.clean(text)
    assert cleaned.count("\n") == text.count("\n")
    assert "gone" not in cleaned and "\\% kept" in cleaned and "hidden" not in cleaned


def test_prepass_else_branch_of_iffalse_stays() -> None:
    cleaned = prepass.clean("\\iffalse A \\else B \\fi")
    assert "A" not in cleaned and "B" in cleaned


def test_reference_key_lists() -> None:
    text = "\\cref{a, b} \\crefrange{c}{d} \\hyperref[e]{x} \\eqref{f} \\autoref{lem: g}"
    assert references.reference_keys(text) == ["a", "b", "c", "d", "e", "f", "lem: g"]
    assert references.plain_mentions("Lemma~2.3 and Theorem A.1") == [
        ("lemma", "2.3"),
        ("theorem", "A.1"),
    ]


def test_citation_notes() -> None:
    text = "\\citep[see][p.~3]{a,b} \\cite[Thm.~2]{c} \\textcite{d}"
    assert citations.citations_in(text) == [
        ("a", "p.~3"),
        ("b", "p.~3"),
        ("c", "Thm.~2"),
        ("d", None),
    ]


def test_a_cite_of_a_macro_parameter_is_not_an_unresolved_key(tmp_path) -> None:
    from paperlint.preflight.inventory import build_inventory

    (tmp_path / "b.bib").write_text("@article{a, title={T}, year={2000}}\n", encoding="utf-8")
    (tmp_path / "p.tex").write_text(
        "\\documentclass{article}\n"
        "\\newcommand {\\Ref}[1] {Reference~\\cite{#1}}\n"
        "\\def\\Refs#1#2{\\citep{#1,#2}}\n"
        "\\begin{document}\n\\Ref{a} \\cite{a,missing}\n\\bibliography{b}\n\\end{document}\n",
        encoding="utf-8",
    )
    found = build_inventory(tmp_path, root="p.tex").diagnostics
    messages = [d.message for d in found if d.code == "unresolved-citation"]
    assert messages == ["citation key 'missing' not in the bibliography"]


def test_macro_parsers() -> None:
    macro, end = macros.parse_newcommand("{\\E}[1][x]{\\mathbb{E}[#1]} rest", 0)
    assert macro is not None and (macro.name, macro.arity, macro.definition) == (
        "\\E",
        1,
        "\\mathbb{E}[#1]",
    )
    defined, _ = macros.parse_def("\\foo#1#2{#1+#2}", 0)
    assert defined is not None and (defined.name, defined.arity) == ("\\foo", 2)
    env, _ = macros.parse_newenvironment("{mythm}[1][]{\\begin{theorem}[#1]}{\\end{theorem}}", 0)
    assert env is not None and (env.arity, env.default, env.end) == (1, "", "\\end{theorem}")


def test_kinds() -> None:
    assert kind_of("thm", "Theorem") == "theorem"
    assert kind_of("assump", "Assumption") == "assumption"
    assert kind_of("mylemma", "Key Lemma") == "lemma"
    assert kind_of("xyz", "Widget") == "other"


def test_align_rows_ignore_nested_blocks() -> None:
    body = "a \\\\ \\begin{split} b \\\\ c \\end{split} \\\\[2pt] d \\\\"
    assert len(split_rows(body)) == 3


def test_reference_wrapping_macros_are_references(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from paperlint.preflight.inventory import build_inventory

    (tmp_path / "paper.tex").write_text(
        "\\documentclass{article}\n\\usepackage{amsthm}\n\\newtheorem{lemma}{Lemma}\n"
        "\\newcommand{\\lemref}[1]{Lemma~\\ref{#1}}\n\\begin{document}\n"
        "\\begin{lemma}\\label{a}A.\\end{lemma}\n"
        "\\begin{lemma}\\label{b}By \\lemref{a}.\\end{lemma}\n"
        "\\begin{proof}[Proof of \\lemref{a}]\nDone.\n\\end{proof}\n\\end{document}\n",
        encoding="utf-8",
    )
    first, second = build_inventory(tmp_path / "paper.tex").results
    assert second.uses == ["a"]
    assert first.proof is not None and first.proof.attached_by == "reference"


@pytest.mark.parametrize(
    "named",
    [
        "\\let\\if@nobreak\\iffalse",
        "\\let\\if@nobreak = \\iffalse",
        "\\newif\\iffalse",
        "\\def\\iffalse",
    ],
)
def test_prepass_conditional_that_is_named_or_assigned_opens_no_branch(named: str) -> None:
    text = (
        f"\\def\\r{{{named}\\relax}}\\begin{{theorem}}A\\end{{theorem}}\\iffalse hidden\\fi shown"
    )
    out = prepass.blank_false_conditionals(text)
    assert "\\begin{theorem}A\\end{theorem}" in out
    assert "hidden" not in out and "shown" in out
    assert len(out) == len(text)


@pytest.mark.parametrize(
    ("body", "rows"),
    [
        ("a \\\\ b", 2),
        ("a \\intertext{t} b", 2),
        ("a \\\\ \\intertext{t} b", 2),
        ("\\shortintertext{t} a \\\\ b", 2),
    ],
)
def test_intertext_ends_an_unfinished_row(body: str, rows: int) -> None:
    assert len(split_rows(body)) == rows


def test_skip_branch_counts_loops_and_ignores_named_and_argument_conditionals() -> None:
    from paperlint.preflight.conditionals import skip_branch

    body = (
        "\\newif\\iffoo \\let\\ifbar\\iftrue \\ifcsundef{x}{a}{b}"
        "\\loop\\advance\\n1 \\ifnum\\n<3\\repeat hidden\\fi shown"
    )
    end, at_else = skip_branch(body, 0, stop_at_else=True)
    assert body[end:] == " shown" and not at_else


@pytest.mark.parametrize(
    ("latex", "text"),
    [
        ("Th\\'eor\\`eme", "Théorème"),
        ("\\textsc{Lemma}", "Lemma"),
        ("{\\bf Theorem 1.2} (Hahn)", "Theorem 1.2 (Hahn)"),
        ("Lemme d'\\'Erd\\H{o}s", "Lemme d'Érdős"),
        ("plain", "plain"),
    ],
)
def test_latex_to_text(latex: str, text: str) -> None:
    from paperlint.preflight.plaintext import latex_to_text

    assert latex_to_text(latex) == text


@pytest.mark.parametrize("hostile", ["\\begin{", "}{", "\\verb", "$x", "\\\\" * 50])
def test_latex_to_text_never_raises(hostile: str) -> None:
    from paperlint.preflight.plaintext import latex_to_text

    assert isinstance(latex_to_text(hostile), str)


def test_working_records_compare_and_print_as_dataclasses_do() -> None:
    from paperlint.preflight.walkstate import Frame, Owner

    owner = Owner("2.1", "result", 3)
    assert owner == Owner("2.1", "result", 3) and owner != Owner("2.1")
    assert owner != Frame("x", 0, owner) and Owner("1") != ("1", "other", None)
    assert repr(owner) == "Owner(number='2.1', kind='result', result=3)"
    with pytest.raises(TypeError):
        hash(owner)  # mutable: never a dict key by accident
    with pytest.raises(AttributeError):
        owner.numbr = "typo"  # type: ignore[attr-defined]  # slotted: a typo is an error
