"""Probe labels go where LaTeX would still read the optional argument first."""

from __future__ import annotations

import pytest

from paperlint.preflight.probes import LabelProbe, insert_probes


def _probe(line: int, env: str = "theorem", key: str = "p") -> LabelProbe:
    return LabelProbe(key=key, file="main.tex", line=line, env=env)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("\\begin{theorem}\nx", "\\begin{theorem}\\label{p}\nx"),
        ("\\begin{theorem}[Note]\nx", "\\begin{theorem}[Note]\\label{p}\nx"),
        # one newline and spaces may come before `[`
        ("\\begin{theorem}\n  [Note] x", "\\begin{theorem}\n  [Note]\\label{p} x"),
        # a blank line stops the search for `[`
        ("\\begin{theorem}\n\n[a,b] x", "\\begin{theorem}\\label{p}\n\n[a,b] x"),
        # the argument ends at the first `]` outside braces
        ("\\begin{theorem}[{A [1]}] x", "\\begin{theorem}[{A [1]}]\\label{p} x"),
        ("\\begin{theorem}[A [1]] x", "\\begin{theorem}[A [1]\\label{p}] x"),
        ("\\begin{theorem}% c\n[N] x", "\\begin{theorem}% c\n[N]\\label{p} x"),
    ],
)
def test_label_goes_after_the_optional_argument(text, expected):
    out, placed = insert_probes(text, [_probe(1)])
    assert out == expected
    assert placed == [_probe(1)]


def test_restatable_gets_the_label_after_its_arguments():
    text = "a\n\\begin{restatable}[Note]{lemma}{first}\nbody\n"
    out, _ = insert_probes(text, [_probe(2, env="lemma")])
    assert out == "a\n\\begin{restatable}[Note]{lemma}{first}\\label{p}\nbody\n"


def test_nothing_is_added_where_the_begin_is_not_on_that_line():
    text = "x\n\\begin{lemma}\n"
    assert insert_probes(text, [_probe(1, env="lemma"), _probe(9)]) == (text, [])


def test_several_probes_in_one_file_keep_their_lines():
    text = "\\begin{theorem}a\\end{theorem}\n\\begin{lemma}[L]b\\end{lemma}\n"
    out, placed = insert_probes(text, [_probe(1, key="p1"), _probe(2, "lemma", key="p2")])
    assert out == (
        "\\begin{theorem}\\label{p1}a\\end{theorem}\n\\begin{lemma}[L]\\label{p2}b\\end{lemma}\n"
    )
    assert len(placed) == 2
