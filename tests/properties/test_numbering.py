"""Preflight numbers results as LaTeX does, whatever sits between them.

Comments (holding `\\begin{theorem}` or `\\iffalse`), blank lines, spaces and `\\iffalse … \\fi`
blocks (holding whole theorem environments) are inserted at random between N results; the
numbers must be those of a plain model of LaTeX's counters: environments declared on a
shared counter (`\\newtheorem{lemma}[theorem]{Lemma}`) number 1..N between them, the others
count on their own.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from paperlint.preflight.inventory import build_inventory

SHARED = ("theorem", "lemma", "proposition")  # lemma and proposition use theorem's counter
OWN = ("conjecture",)  # a counter of its own
PREAMBLE = (
    "\\documentclass{article}\n"
    "\\newtheorem{theorem}{Theorem}\n"
    "\\newtheorem{lemma}[theorem]{Lemma}\n"
    "\\newtheorem{proposition}[theorem]{Proposition}\n"
    "\\newtheorem{conjecture}{Conjecture}\n"
    "\\begin{document}\n"
)
FILLERS = [
    "\n",
    "\n\n",
    "   ",
    "% a comment\n",
    "% \\begin{theorem} commented out \\end{theorem}\n",
    "%\\iffalse\n",
    "\\iffalse\n\\begin{theorem}hidden\\end{theorem}\n\\fi\n",
    "\\iffalse \\begin{lemma}x\\end{lemma} \\begin{conjecture}y\\end{conjecture} \\fi ",
    "\\iffalse\n% \\fi in a comment does not close it\n\\begin{lemma}z\\end{lemma}\n\\fi\n",
    "Some text between results.\n",
]
fillers = st.lists(st.sampled_from(FILLERS), max_size=4).map("".join)
# Each example writes a paper and runs the whole preflight: fewer examples than the lexer's.
FEWER = settings(max_examples=40)
papers = st.lists(st.tuples(fillers, st.sampled_from(SHARED + OWN)), min_size=1, max_size=8)


def numbers_of(body: str) -> list[tuple[str, str | None]]:
    with tempfile.TemporaryDirectory(prefix="paperlint-prop-") as tmp:
        paper = Path(tmp) / "paper.tex"
        paper.write_text(PREAMBLE + body + "\\end{document}\n", encoding="utf-8")
        inventory = build_inventory(paper)
    return [(r.env, r.number) for r in inventory.results]


def expected(envs: list[str]) -> list[tuple[str, str]]:
    counts: dict[str, int] = {}
    out = []
    for env in envs:
        counter = "theorem" if env in SHARED else env
        counts[counter] = counts.get(counter, 0) + 1
        out.append((env, str(counts[counter])))
    return out


def render(paper: list[tuple[str, str]], *, with_fillers: bool) -> str:
    parts = []
    for i, (filler, env) in enumerate(paper):
        if with_fillers:
            parts.append(filler)
        parts.append(f"\\begin{{{env}}}\\label{{r{i}}}Statement {i}.\\end{{{env}}}\n")
    return "".join(parts)


@FEWER
@given(papers)
def test_fillers_between_results_never_change_numbers(paper: list[tuple[str, str]]) -> None:
    envs = [env for _, env in paper]
    assert numbers_of(render(paper, with_fillers=True)) == expected(envs)
    assert numbers_of(render(paper, with_fillers=False)) == expected(envs)


@FEWER
@given(st.lists(st.sampled_from(SHARED), min_size=1, max_size=12), fillers)
def test_n_results_on_a_shared_counter_number_1_to_n(envs: list[str], filler: str) -> None:
    body = "".join(f"{filler}\\begin{{{env}}}S.\\end{{{env}}}\n" for env in envs)
    assert [number for _, number in numbers_of(body)] == [str(i) for i in range(1, len(envs) + 1)]
