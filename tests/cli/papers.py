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
