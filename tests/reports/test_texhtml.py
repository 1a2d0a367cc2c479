"""Statements of real papers read like the paper (#28): each case is a construct met in the
shared corpus (besov, jmlr-orff, tdrp, hyperbolic-clustering, moivre-laplace, conclique)."""

import re
from xml.etree import ElementTree

import pytest

from paperlint.preflight.model import Macro
from paperlint.reports.texhtml import drop_notes, roman, statement_html
from paperlint.reports.texmath import convert_math, expand_macros


def _well_formed(html: str) -> ElementTree.Element:
    return ElementTree.fromstring(f"<div>{html.replace('<br>', '<br/>')}</div>")


def _shown_as_tex(html: str) -> list[str]:
    return re.findall(r'class="tex-macro"[^>]*>([^<]*)<', html)


def test_an_unknown_macro_is_shown_alone_and_the_rest_of_its_formula_is_rendered():
    html = statement_html(r"There is $\Cr{co}(t,q,b) \le \Cl[gen]{c}_1$.")
    assert '<code class="tex"' not in html  # no formula shown whole as TeX
    assert _shown_as_tex(html) == [r"\Cr{co}", r"\Cl[gen]{c}"]
    assert "<mi>t</mi>" in html and "<mo>≤</mo>" in html and "<mn>1</mn>" in html
    _well_formed(html)


def test_an_unknown_macros_source_is_escaped_in_the_formula():
    html = statement_html(r"$\evil{<script>}{&}$")
    assert "<script" not in html and _shown_as_tex(html) == [r"\evil{&lt;script&gt;}{&amp;}"]
    _well_formed(html)


def test_a_display_environment_with_a_blank_line_inside_stays_one_formula():
    tex = "we have\n\\begin{align}\na &= b\\nonumber\\\\\n   \n&= c.\n\\end{align}\nDone."
    html = statement_html(tex)
    assert html.count('<span class="display">') == 1 and "<mtable" in html
    assert "\\begin" not in html and "&amp;" not in html


@pytest.mark.parametrize(
    ("tex", "expected", "absent"),
    [
        (r"{\bf Hence} it holds", "<strong>Hence</strong> it holds", r"\bf"),
        (r"{\it note} and {\em this}", "<em>note</em> and <em>this</em>", r"\it"),
        (r"\bf Bold from here", "Bold from here", r"\bf"),
        (r"x\refstepcounter{change}y\stepcounter{a}z", "xyz", "change"),
        (r"a\setcounter{equation}{3}\addtocounter{b}{1}b", "ab", "equation"),
        (r"a\todo[inline,color=blue]{fix $x$ first}b", "ab", "fix"),
        (r"a\todoc{We need $C=I$.}b", "ab", "need"),
        (r"a\vspace*{2pt}\small b\hfill c", "a b c", "pt"),
        (r"\textcolor{red}{warm} day", "warm day", "red"),
        (r"the \acs{RKHS} of \acl{OVK}", "the RKHS of OVK", "acs"),
        (r"see\footnote{Lemma $x$.} here", '<span class="footnote">(Lemma <math', "footnote{"),
        (r"\let\thefootnote\relax\footnote{} Text", "Text", "let"),
        (r"where \ensuremath{\alpha} is", "<mi>α</mi>", "ensuremath"),
    ],
)
def test_font_layout_and_note_commands_are_mapped_or_dropped(tex, expected, absent):
    html = statement_html(tex)
    assert expected in html.replace("\u00a0", " ").replace("  ", " "), html
    assert absent not in html, html
    assert _shown_as_tex(html) == []
    _well_formed(html)


def test_an_item_keeps_its_label_with_its_math_rendered():
    html = statement_html(r"\begin{itemize}\item[A.] one \item[${\alpha}$.] two \item three")
    labels = re.findall(r'<span class="item">(.*?)</span>', html)
    assert labels[0] == "A." and "<mi>α</mi>" in labels[1] and labels[2] == "•"


@pytest.mark.parametrize(
    ("opening", "labels"),
    [
        (r"\begin{enumerate}", ["1.", "2.", "3."]),
        (r"\begin{enumerate}[label=(\alph*)]", ["(a)", "(b)", "(c)"]),
        (r"\begin{enumerate}[label=\roman*)]", ["i)", "ii)", "iii)"]),
        (r"\begin{enumerate}[(A)]", ["(A)", "(B)", "(C)"]),
        (r"\begin{enumerate}[i.]", ["i.", "ii.", "iii."]),
    ],
)
def test_enumerate_numbers_its_items_as_latex_does(opening, labels):
    html = statement_html(opening + r"\item x \item y \item z \end{enumerate}")
    assert re.findall(r'<span class="item">(.*?)</span>', html) == labels


def test_nested_enumerates_count_apart():
    tex = r"\begin{enumerate}\item a \begin{enumerate}\item b \item c\end{enumerate}\item d"
    labels = re.findall(r'<span class="item">(.*?)</span>', statement_html(tex))
    assert labels == ["1.", "(a)", "(b)", "2."]


def test_roman_numerals():
    assert [roman(n) for n in (1, 4, 9, 14, 40, 90, 400, 1994)] == [
        "i",
        "iv",
        "ix",
        "xiv",
        "xl",
        "xc",
        "cd",
        "mcmxciv",
    ]


def test_notes_are_removed_with_the_math_inside_them():
    assert drop_notes(r"a \todo{see $\int$ and \begin{align}x\end{align}} b") == "a  b"
    assert drop_notes(r"\todoc[inline]{x}\todo{y}z") == "z"


# ----------------------------------------------------------------------------- macros


def test_a_let_cycle_is_left_unexpanded_instead_of_blowing_up():
    macros = [
        Macro(name=r"\oldnorm", definition=r"\norm"),
        Macro(name=r"\norm", definition=r"\@ifstar{\oldnorm}{\oldnorm*}"),
        Macro(name=r"\R", definition=r"\mathbb{R}"),
    ]
    out = expand_macros(r"$\norm{x} \in \R$", macros)
    assert out == r"$\norm{x} \in \mathbb{R}$"
    html = statement_html(r"$\norm{x} \in \R$", macros=macros)
    assert _shown_as_tex(html) == [r"\norm{x}"] and "<mi>ℝ</mi>" in html


def test_ifstar_takes_its_first_branch_before_a_star():
    macros = [Macro(name=r"\abs", definition=r"\@ifstar{\lvert}{\vert}")]
    assert expand_macros(r"\abs* x \abs y", macros) == r"\lvert x \vert y"


def test_a_parameter_after_a_control_word_does_not_glue_into_it():
    macros = [Macro(name=r"\ip", definition=r"\langle#1\rangle", arity=1)]
    assert expand_macros(r"\ip{He_i}", macros) == r"\langle He_i\rangle"


def test_mathpalette_typesets_its_argument():
    macros = [Macro(name=r"\T", definition=r"{\mathpalette\raiseT{\scriptstyle\intercal}}")]
    html = statement_html(r"$w\T x$", macros=macros)
    assert "⊺" in html and _shown_as_tex(html) == []


def test_a_macro_whose_optional_argument_is_unrecorded_is_not_fed_the_formulas_end():
    # `\newcommand*{\x}[1][k]{x_{#1}}`: the inventory keeps the arity, not the default
    macros = [Macro(name=r"\x", definition="x_{#1}", arity=1)]
    assert expand_macros(r"$\x$ and \x\begin{align}", macros) == r"$\x$ and \x\begin{align}"


@pytest.mark.parametrize(
    ("tex", "contains"),
    [
        (r"c \xrightarrow[n\to\infty]{\mathbb{P}} \gamma", ["<munder>", "<mover>", "ℙ", "∞"]),
        (r"x \xrightarrow{n \rightarrow\infty} 0", ["<mover>", "∞"]),
        (r"\operatorname*{arg\,max}_{k} f", ["<msub><mo>"]),
        (r"\operatorname{arg\,max}\limits_{k} f", ["<munder><mo>"]),
        (r"\text{if \textbf{both} hold}", ["<mtext>if\u00a0both\u00a0hold</mtext>"]),
        (r"\small \hdots \ensuremath{x} \nicefrac{1}{2}", ["…", "<mfrac>"]),
        (r"\stackrel{\makebox[0pt]{\mbox{\normalfont\tiny\sffamily def}}}{=}", ["def"]),
    ],
)
def test_commands_latex2mathml_lacks_are_rewritten_to_ones_it_knows(tex, contains):
    converted = convert_math(tex, display=False)
    assert converted is not None and converted.shown_as_tex == ()
    for piece in contains:
        assert piece in converted.mathml, converted.mathml
