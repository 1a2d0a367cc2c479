"""Small papers for the tests of a paper repository's gate (pre-commit, CI, --fail-on)."""

CLEAN = r"""\documentclass{article}
\newtheorem{lemma}{Lemma}
\begin{document}
\begin{lemma}\label{lem:a} $x \le x$. \end{lemma}
\begin{proof} Trivial. \end{proof}
Lemma~\ref{lem:a} is used.
\end{document}
"""
# the label defined again at line 7, column 12
DUPLICATE = CLEAN.replace("is used.", "is used.\n\\section{B}\\label{lem:a}")
UNDEFINED = CLEAN.replace("is used.", "is used, and so is \\ref{lem:gone}.")
UNCLOSED = CLEAN.replace(r"\begin{proof} Trivial. \end{proof}", r"\begin{proof} Trivial.")
# a `{` never closed (line 6, column 35; pdflatex 2022-11-01, with amsthm loaded: "File ended
# while scanning use of \emph"), a `}` closing nothing (line 6, column 27: "Too many }'s")
UNBRACED = CLEAN.replace("is used.", "is used in \\emph{this paper.")
EXTRA_BRACE = CLEAN.replace("is used.", "is used.}")
# `\label{lem:a` missing its `}` (line 4, column 15): "Paragraph ended before \label was
# complete" (pdflatex 2022-11-01); the lemma is still printed and numbered
LABEL_RUNAWAY = CLEAN.replace(
    r"\label{lem:a} $x \le x$. \end{lemma}", "\\label{lem:a $x \\le x$.\n\n\\end{lemma}"
)
# `\begin{proof` missing its `}` (line 5, column 1): LaTeX stops at the blank line ("Paragraph
# ended before \begin was complete", pdflatex 2022-11-01) and reads Lemma 2 after it
RUNAWAY = CLEAN.replace(r"\begin{proof} Trivial. \end{proof}", "\\begin{proof Trivial.\n").replace(
    "Lemma~\\ref{lem:a} is used.",
    "\\end{proof}\n\\begin{lemma}\\label{lem:b} $y \\le y$. \\end{lemma}\n"
    "Lemma~\\ref{lem:a} and Lemma~\\ref{lem:b} are used.",
)
