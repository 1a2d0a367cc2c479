"""Paper TeX made safe to hand to a TeX interpreter that reads files (plasTeX, LaTeX).

The blueprint export copies the paper's statements and proofs into files that plasTeX (or the
user's LaTeX) interprets. plasTeX runs `\\input`, `\\lstinputlisting` and `\\externaldocument`
(which unpickles a file) on whatever path it is given, so paper text is untrusted input to it.
Rather than name the dangerous commands, every control word must be on an allowlist: the
mathematical symbols latex2mathml knows (plain characters), a reviewed set of structure and
text commands, and the paper's own macros (whose bodies pass the same check). Any other control
word loses its backslash and shows as plain text; `\\begin`/`\\end` of an environment not on the
environment allowlist likewise; TeX's `^^` character notation (which can spell a backslash) is
broken up.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import Final

from paperlint.reports.texmath import RAW, argument_end, escape_source


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Structure, font and reference commands that only typeset (reviewed by hand; no file, catcode,
# definition, shell or package command belongs here).
COMMANDS: Final = _names(
    """
    frac dfrac tfrac cfrac binom dbinom tbinom sqrt left right middle big Big bigg Bigg bigl
    bigr Bigl Bigr biggl biggr Biggl Biggr bigm Bigm biggm Biggm mathbb mathbf mathcal
    mathfrak mathscr mathrm mathit mathsf mathtt mathnormal mathds boldsymbol bm operatorname
    operatornamewithlimits text textrm textbf textit textsc texttt textsf textup textnormal
    textmd emph mbox ensuremath hat widehat tilde widetilde bar overline underline vec dot
    ddot dddot check breve acute grave mathring overbrace underbrace overset underset stackrel
    substack overrightarrow overleftarrow xrightarrow xleftarrow limits nolimits displaystyle
    textstyle scriptstyle scriptscriptstyle quad qquad enspace thinspace not mod bmod pmod pod
    lim liminf limsup sup inf max min log ln lg exp sin cos tan cot sec csc sinh cosh tanh
    coth arcsin arccos arctan det dim ker deg gcd arg Pr hom argmax argmin ldots cdots dots
    dotsc dotsb dotsm vdots ddots phantom hphantom vphantom smash hline tag notag nonumber
    label ref eqref cref Cref autoref pageref cite citep citet footnote item par noindent
    newline linebreak medskip smallskip bigskip tiny scriptsize footnotesize small normalsize
    large Large LARGE huge Huge rm it bf sf tt cal textbackslash paperlintraw
    """
)

ENVIRONMENTS: Final = _names(
    """
    equation equation* align align* aligned alignat alignat* gather gather* gathered multline
    multline* split cases dcases matrix pmatrix bmatrix Bmatrix vmatrix Vmatrix smallmatrix
    array subarray itemize enumerate description center quote quotation eqnarray eqnarray*
    displaymath flalign flalign*
    """
)

# One left-to-right pass: `\\begin{env}`/`\\end{env}`, a control word, or a control symbol (which
# consumes its character, so the `\\input` of `\\\\input` is text after a line break, as in TeX).
_TOKEN = re.compile(r"\\(begin|end)\s*\{([^{}]*)\}|\\([A-Za-z@]+)|\\.", re.DOTALL)


@cache
def _symbols() -> frozenset[str]:
    # latex2mathml's table of Unicode math symbols: each name typesets one character.
    from latex2mathml.symbols_parser import SYMBOLS

    return frozenset(name[1:] for name in SYMBOLS if re.fullmatch(r"\\[A-Za-z]+", name))


def allowed_commands(extra: Iterable[str] = ()) -> frozenset[str]:
    """Every control word (without its backslash) that may reach the interpreter."""
    return COMMANDS | _symbols() | {name.lstrip("\\") for name in extra}


def make_safe(
    text: str, *, commands: frozenset[str], environments: frozenset[str] = ENVIRONMENTS
) -> str:
    """`text` with every control word and environment off the allowlists made plain text: an
    unknown command, with the `[..]`/`{..}` groups right after it, becomes `\\paperlintraw{…}`
    of its source with every special character escaped (shown as TeX, in monospace: RAW)."""
    text = text.replace("^^", "^{}^")
    out: list[str] = []
    pos = 0
    for m in _TOKEN.finditer(text):
        if m.start() < pos:
            continue
        if m.group(1) is not None:  # \begin{env} / \end{env}
            kept = m.group(0) if m.group(2).strip() in environments else m.group(0)[1:]
            end = m.end()
        elif m.group(3) is not None and m.group(3) not in commands:  # an unknown control word
            end = argument_end(text, m.end())
            kept = f"\\{RAW}{{{escape_source(text[m.start() : end])}}}"
        else:  # an allowed control word, or a control symbol (\, \{ \$ \\ only typeset)
            kept, end = m.group(0), m.end()
        out += [text[pos : m.start()], kept]
        pos = end
    out.append(text[pos:])
    return "".join(out)
