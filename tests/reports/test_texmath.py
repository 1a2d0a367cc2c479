"""TeX -> MathML for the HTML report: macros expanded, math converted, hostile TeX defused."""

import random
import re
from xml.etree import ElementTree

import pytest

from paperlint.preflight.model import Macro
from paperlint.reports.texhtml import statement_html
from paperlint.reports.texmath import MAX_EXPANDED, expand_macros, paper_title, split_math

MEAN = [
    Macro(name="\\mean", definition="m"),
    Macro(name="\\norm", definition="\\lVert #1\\rVert", arity=1),
]


def test_the_papers_macros_are_expanded_before_conversion():
    assert expand_macros("$\\mean(a,b)$", MEAN) == "$m(a,b)$"
    assert expand_macros("\\norm{x+y}", MEAN) == "\\lVert x+y\\rVert"
    # `\meanx` is another command: not expanded
    assert expand_macros("\\meanx", MEAN) == "\\meanx"
    html = statement_html("their mean is $\\mean(a,b) = (a+b)/2$.", macros=MEAN)
    assert "<math" in html and "<mi>m</mi>" in html and "\\mean" not in html


def test_a_macro_bomb_is_cut_not_followed():
    bomb = [Macro(name="\\a", definition="\\a\\a")]
    assert len(expand_macros("\\a", bomb)) <= MAX_EXPANDED


@pytest.mark.parametrize(
    ("tex", "kinds"),
    [
        ("a $x$ b", [(False, False), (True, False), (False, False)]),
        ("$$x$$", [(True, True)]),
        ("\\[x\\] and \\(y\\)", [(True, True), (False, False), (True, False)]),
        ("\\begin{align*}a&=b\\end{align*}", [(True, True)]),
        ("costs \\$5 and $x", [(False, False)]),  # an escaped and an unclosed dollar: prose
    ],
)
def test_split_math_finds_every_delimiter(tex, kinds):
    assert [(r.math, r.display) for r in split_math(tex)] == kinds


def test_display_math_keeps_the_papers_equation_number():
    html = statement_html(
        "\\begin{equation}\\label{eq:a} x = 1 \\end{equation}", equations={"eq:a": "3.2"}
    )
    assert 'display="block"' in html and '<span class="eqno">(3.2)</span>' in html


def test_references_link_to_results_and_unknown_ones_are_marked():
    targets = {"lem:a": ("#r-lem-a", "2.1")}
    html = statement_html("By Lemma~\\ref{lem:a} and \\ref{nope}.", resolve=targets.get)
    assert '<a href="#r-lem-a">2.1</a>' in html
    assert 'class="unresolved"' in html and "??nope" in html


def test_prose_commands_become_markup_and_bookkeeping_disappears():
    html = statement_html(
        "\\label{x}\\uses{y}\\lean{Foo.bar}\\leanok \\emph{Hence} \\cite[Thm 1]{k} holds."
    )
    assert "<em>Hence</em>" in html and "[k, Thm 1]" in html
    assert "Foo.bar" not in html and "label" not in html and "leanok" not in html


@pytest.mark.parametrize(
    "tex",
    [
        "$\\text{<script>alert(1)</script>}$",
        "$\\href{javascript:alert(1)}{x}$",
        "$x<img src=x onerror=alert(1)>$",
        "<script>alert(1)</script> $x$",
        "$\\unknowncommand{x}$",
        "$\\frac{$",
    ],
)
def test_hostile_or_broken_tex_never_reaches_the_page_as_markup(tex):
    html = statement_html(tex)
    assert (
        "<script" not in html and "<img" not in html and "javascript:" not in html.split("title")[0]
    )
    ElementTree.fromstring(f"<div>{html.replace('<br>', '<br/>')}</div>")  # well-formed


def test_a_formula_that_cannot_be_converted_is_shown_as_its_escaped_source():
    html = statement_html("$x^{<}_$ and $y$")
    assert '<code class="tex" title="shown as TeX">x^{&lt;}_</code>' in html
    assert "<mi>y</mi>" in html  # the next formula is still rendered


ALPHABET = "$\\{}[]<>&\"'_^ abcx=+-/\n%~"
FUZZ = ["".join(random.Random(seed).choices(ALPHABET, k=seed % 60)) for seed in range(200)]


@pytest.mark.parametrize("tex", FUZZ)
def test_any_text_gives_well_formed_html_with_only_allowed_tags(tex):
    html = statement_html(tex)
    tree = ElementTree.fromstring(f"<div>{html.replace('<br>', '<br/>')}</div>")
    allowed = {"div", "p", "br", "em", "strong", "span", "code", "a"} | {
        "math", "mrow", "mi", "mn", "mo", "mtext", "msup", "msub", "msubsup", "mfrac",
        "msqrt", "mroot", "mover", "munder", "munderover", "mspace", "mtable", "mtr", "mtd",
        "mstyle", "merror", "mpadded", "mphantom",
    }  # fmt: skip
    for node in tree.iter():
        assert re.sub(r"^\{[^}]*\}", "", node.tag) in allowed
        assert not any(
            k.startswith("on") or k == "href" and not node.attrib[k].startswith("#")
            for k in node.attrib
        )


def test_the_papers_title_is_read_from_title():
    source = "%\\title{Not this}\n\\title[Short]{Means of \\emph{two}\\thanks{x} numbers}"
    assert paper_title(source) == "Means of two numbers"
    assert paper_title("\\begin{document}x") is None


# What real papers define (jmlr-orff, moivre-laplace, pfr of the shared corpus): read by
# preflight from the paper's own text, then rendered as the report renders a statement.
_PREAMBLE = r"""\documentclass{article}
\usepackage{amsthm,mathtools,braket,breqn}
\newtheorem{theorem}{Theorem}
\newcommand*{\x}[1][k]{x_{#1}}
\newcommand*{\bb}[2][n]{b_{#1}\left({#2}\right)}
\DeclarePairedDelimiter\inner{\langle}{\rangle}
\DeclarePairedDelimiterX{\given}[2]{(}{)}{#1 \delimsize\vert #2}
\DeclarePairedDelimiter\norm{\lVert}{\rVert}
\let\oldnorm\norm
\def\norm{\@ifstar{\oldnorm}{\oldnorm*}}
\NewDocumentCommand{\pick}{s o m}{\IfBooleanTF{#1}{S}{N}\IfNoValueTF{#2}{-}{#2}#3}
\ExplSyntaxOn
\NewDocumentCommand{\uses}{m}{\clist_map_inline:nn{#1}{\vphantom{\ref{##1}}}\ignorespaces}
\ExplSyntaxOff
"""


def _rendered(tmp_path, statement: str) -> tuple[str, list[Macro]]:
    from paperlint.preflight.inventory import build_inventory

    body = f"\\begin{{document}}\n\\begin{{theorem}}\\label{{t}}{statement}\\end{{theorem}}\n"
    (tmp_path / "paper.tex").write_text(_PREAMBLE + body + "\\end{document}\n", encoding="utf-8")
    inventory = build_inventory(tmp_path / "paper.tex")
    (result,) = inventory.results
    return statement_html(result.statement, macros=inventory.macros), inventory.macros


@pytest.mark.parametrize(
    ("statement", "expanded"),
    [
        # an optional first argument: its default when absent, the given one otherwise
        (r"$\x$ and $\x[j]$", ["<msub><mi>x</mi><mrow><mi>k</mi>", "<mi>j</mi>"]),
        (r"$\bb{y}$", ["<msub><mi>b</mi><mrow><mi>n</mi>", "<mi>y</mi>"]),
        # mathtools' paired delimiters, with a star, a size, and the X form's body
        (r"$\inner{a,b}$ $\inner*{c}$ $\inner[\big]{d}$", ["⟨", "⟩", "<mi>c</mi>", "<mi>d</mi>"]),
        (r"$\given{A}{B}$", ["<mi>A</mi>", "<mi>B</mi>", "|"]),
        # `\let` keeps the copy the paper made before redefining the original
        (r"$\norm{v}$", ["‖", "<mi>v</mi>"]),
        # xparse: a star and an absent optional argument take their branches
        (r"$\pick*{z}$ $\pick[q]{w}$", ["<mi>S</mi>", "<mi>z</mi>", "<mi>N</mi>", "<mi>q</mi>"]),
        # braket's set builder, breqn's dmath and \condition
        (r"$\Set{x | x > 0}$", ["{", "|", "}"]),
        (
            r"\begin{dmath}a = b \condition{for all $b$}\end{dmath}",
            ["<mi>a</mi>", "<mtext>for\xa0all\xa0b</mtext>"],
        ),
    ],
)
def test_the_macros_real_papers_define_are_rendered_not_shown_as_tex(tmp_path, statement, expanded):
    html, _ = _rendered(tmp_path, statement)
    assert 'class="tex' not in html, html
    for part in expanded:
        assert part in html, (part, html)


def test_a_blueprint_macro_the_paper_defines_in_expl3_is_still_dropped(tmp_path):
    html, macros = _rendered(tmp_path, r"\uses{lem:a} Every $x$ is fine.")
    assert any(m.name == "\\uses" for m in macros)  # preflight records the paper's definition
    assert "clist" not in html and "vphantom" not in html and "lem:a" not in html
    assert "Every" in html


def test_the_inventory_records_the_shape_of_each_parameter(tmp_path):
    _, macros = _rendered(tmp_path, "x")
    found = {m.name: m for m in macros}
    assert [(p.kind, p.default) for p in found["\\x"].params] == [("o", "k")]
    assert [p.kind for p in found["\\inner"].params] == ["s", "o", "m"]
    assert found["\\inner"].definition == "\\left\\langle #3\\right\\rangle"
    assert found["\\given"].definition == "\\left( #3 \\vert #4\\right)"
    # the copy `\let` made, not a name pointing back at the redefined macro
    assert found["\\oldnorm"].definition == "\\left\\lVert #3\\right\\rVert"
    assert [(p.kind, p.default) for p in found["\\bb"].params] == [("o", "n"), ("m", None)]
    # plain mandatory arguments keep the old compact record: the arity alone
    assert found["\\uses"].arity == 1 and found["\\uses"].params == []
