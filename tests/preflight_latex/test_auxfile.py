"""The .aux reader on hand-written snippets of every line type in docs/latex-notes.md §14.1."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperlint.preflight.auxfile import normalise_number, parse_aux, parse_aux_text

HYPERREF_PREAMBLE = r"""\relax
\providecommand\hyper@newdestlabel[2]{}
\providecommand\HyperFirstAtBeginDocument{\AtBeginDocument}
\HyperFirstAtBeginDocument{\ifx\hyper@anchor\@undefined
\global\let\oldnewlabel\newlabel
\gdef\newlabel#1#2{\newlabelxx{#1}#2}
\gdef\newlabelxx#1#2#3#4#5#6{\oldnewlabel{#1}{{#2}{#3}}}
\AtEndDocument{\ifx\hyper@anchor\@undefined
\let\newlabel\oldnewlabel
\fi}
\fi}
\global\let\hyper@last\relax
\gdef\HyperFirstAtBeginDocument#1{#1}
"""


def test_hyperref_five_fields_after_the_preamble_block():
    aux = parse_aux_text(
        HYPERREF_PREAMBLE + r"\newlabel{thm:main}{{1.1}{1}{Main}{theorem.1.1}{}}" + "\n"
    )
    assert list(aux.labels) == ["thm:main"]
    label = aux.labels["thm:main"]
    assert (label.number, label.page, label.title, label.anchor) == (
        "1.1",
        "1",
        "Main",
        "theorem.1.1",
    )


def test_without_hyperref_two_fields():
    aux = parse_aux_text("\\relax\n\\newlabel{thm:a}{{1.1}{1}}\n")
    label = aux.labels["thm:a"]
    assert (label.number, label.page, label.anchor, label.title) == ("1.1", "1", None, None)


def test_cleveref_companion_is_paired_not_a_label():
    aux = parse_aux_text(
        r"\newlabel{lem:a}{{1.2}{1}{}{theorem.1.2}{}}"
        "\n"
        r"\newlabel{lem:a@cref}{{[theorem][2][1]1.2}{[1][1][]1}}"
        "\n"
    )
    assert list(aux.labels) == ["lem:a"]
    label = aux.labels["lem:a"]
    assert (label.cref_type, label.cref_value, label.cref_prefix) == ("theorem", "2", "1")


def test_ntheorem_braces_inside_number_are_dropped():
    aux = parse_aux_text(r"\newlabel{thm:1}{{1.{1}}{1}{First}{theorem.1.1}{}}")
    assert aux.labels["thm:1"].number == "1.1"
    assert aux.labels["thm:1"].raw == "1.{1}"


def test_tag_keeps_math_as_written():
    aux = parse_aux_text(r"\newlabel{eq:tag}{{{$\star $}}{1}{Intro}{AMS.1}{}}")
    assert aux.labels["eq:tag"].number == r"$\star $"


def test_thmtools_dummy_counter_gives_empty_number():
    aux = parse_aux_text(r"\newlabel{rem:star}{{}{1}{}{thmt@dummyctr.dummy.5}{}}")
    assert aux.labels["rem:star"].number == ""


def test_redefined_the_counter_and_subfigure_labels():
    aux = parse_aux_text(
        r"\newlabel{lem:gk}{{GK}{2}{}{lemma.B.1}{}}"
        "\n"
        r"\newlabel{sub@fig:x}{{(a)}{3}{Subfigure 1(a)\relax }{subfigure.1.1}{}}"
    )
    assert aux.labels["lem:gk"].number == "GK"
    assert aux.labels["sub@fig:x"].title == r"Subfigure 1(a)\relax "


def test_tocindent_thanks_and_thmtools_internals_are_skipped():
    aux = parse_aux_text(
        r"\newlabel{tocindent1}{66.11127pt}"
        "\n"
        r"\newlabel{tocindent2}{0pt}"
        "\n"
        r"\thanksnewlabel{e1@email}{{first@somewhere.com}{1}}"
        "\n"
        r"\newlabel{thmt@@restthm@data}{{\def \theequation {1}}{1}{Sub}{fact.1.1.1}{}}"
        "\n"
        r"\newlabel{eq:1}{{1}{1}}"
    )
    assert list(aux.labels) == ["eq:1"]


def test_other_lines_carry_no_labels():
    aux = parse_aux_text(
        r"""\citation{knuth}
\bibstyle{plainnat}
\bibdata{refs}
\@writefile{toc}{\contentsline {section}{\numberline{1}Intro}{1}{section.1}\protected@file@percent}
\@writefile{thm}{\contentsline {lemma}{{Lemma}{2.{1}}{}}{3}{theorem.2.1}}
\@setckpt{chap2}{\setcounter{page}{4}\setcounter{theorem}{1}}
\gdef \@abspage@last{2}
"""
    )
    assert aux.labels == {}


def test_bibcite_plain_alpha_and_natbib():
    aux = parse_aux_text(
        r"""\bibcite{knuth}{1}
\bibcite{lamport}{Lam94}
\bibcite{BauschkeC2011}{{1}{2011}{{Bauschke and Combettes}}{{}}}
"""
    )
    assert aux.bibcites == {"knuth": "1", "lamport": "Lam94", "BauschkeC2011": "1"}


def test_input_is_followed_recursively_in_order():
    files = {
        "main.aux": "\\newlabel{a}{{1}{1}}\n\\@input{ch1.aux}\n\\newlabel{c}{{3}{1}}\n",
        "ch1.aux": "\\newlabel{b}{{2}{1}}\n\\@input{sub/ch2.aux}\n\\@input{gone.aux}\n",
        "sub/ch2.aux": "\\newlabel{b2}{{2.1}{1}}\n",
    }
    aux = parse_aux("main.aux", read=files.get)
    assert list(aux.labels) == ["a", "b", "b2", "c"]
    assert aux.files == ("main.aux", "ch1.aux", "sub/ch2.aux")
    assert aux.missing == ("gone.aux",)
    assert aux.labels["c"].aux_file == "main.aux"
    assert aux.labels["b2"].aux_file == "sub/ch2.aux"


def test_input_cycle_stops():
    files = {"main.aux": "\\@input{main.aux}\n\\newlabel{a}{{1}{1}}\n"}
    aux = parse_aux("main.aux", read=files.get)
    assert aux.labels["a"].number == "1"
    assert aux.duplicates == ()


def test_multiply_defined_label_last_wins_and_is_reported():
    aux = parse_aux_text("\\newlabel{x}{{1}{1}}\n\\newlabel{x}{{2}{1}}\n\\newlabel{y}{{3}{1}}\n")
    assert aux.labels["x"].number == "2"
    assert [(d.key, d.numbers) for d in aux.duplicates] == [("x", ("1", "2"))]


def test_titles_with_braces_newlines_and_escaped_braces():
    aux = parse_aux_text(
        "\\newlabel{t}{{2.3}{4}{Bound on $\\{x\\}$ and {nested {deep}}\nline two}{lemma.2.3}{}}\n"
        "\\newlabel{u}{{2.4}{4}{}{lemma.2.4}{}}\n"
    )
    assert aux.labels["t"].anchor == "lemma.2.3"
    assert aux.labels["u"].number == "2.4"


def test_normalise_number_unwraps_formatting_and_drops_relax():
    assert normalise_number(r"\textup{(ii)}") == "(ii)"
    assert normalise_number(r"\textbf{A}.\mbox{3}") == "A.3"
    assert normalise_number(r"\relax \ignorespaces 4\protect") == "4"
    assert normalise_number(r"\mbox IV-B") == "IV-B"
    assert normalise_number(r"{$\mathcal{A}$}") == r"$\mathcal{A}$"


@pytest.mark.parametrize(
    ("raw", "number"),
    [
        # memoir 3.7.19 writes every label through \M@TitleReference{number}{title}
        (r"\M@TitleReference {1.1}{Main result}", "1.1"),
        (r"\M@TitleReference {A.1.1}{{Nested} title $x$}", "A.1.1"),
        (r"\M@TitleReference {\textup {(a)}}{Item}", "(a)"),
        # \fnsymbol's footnote numbers as pdflatex wrote them (2026-12-04), as preflight
        # prints them
        (r"\TextOrMath  {\textasteriskcentered }{*}", "*"),
        (r"\TextOrMath  {\textdagger }{\dagger }", "†"),
        (r"\TextOrMath  {\textdaggerdbl }{\ddagger }", "‡"),
        (r"\TextOrMath  {\textsection }{\mathsection }", "§"),
        (r"\TextOrMath  {\textparagraph }{\mathparagraph }", "¶"),
        (r"\TextOrMath  {\textbardbl }{\|}", "‖"),
        (r"\TextOrMath  {\textasteriskcentered \textasteriskcentered }{**}", "**"),
        (r"\M@TitleReference", ""),  # cut short: no groups, nothing printed
    ],
)
def test_normalise_number_keeps_the_first_of_two_groups(raw: str, number: str) -> None:
    assert normalise_number(raw) == number


def test_main_aux_may_be_a_path():
    aux = parse_aux(Path("main.aux"), read={"main.aux": "\\newlabel{a}{{1}{1}}"}.get)
    assert aux.numbers() == {"a": "1"}
