"""Diagnostics print as `file:line:column: severity: message [code]`, the GNU form that Emacs,
Vim's quickfix, VS Code problem matchers and CI annotators parse; the column is 1-based and
points at the command that caused it."""

import json
import re
from pathlib import Path

import pytest

from paperlint.cli.root import run
from paperlint.diagnostics import gnu_line

GNU = re.compile(
    r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<severity>error|warning|info): "
    r"(?P<message>.+) \[(?P<code>[a-z-]+)\]$"
)

# Each problem on a known line and column (1-based), with its code.
PAPER = r"""\documentclass{article}
\begin{document}
\section{A}\label{sec:a}
   \input{/etc/hostname}
\begin{lemma}\label{lem:a}x\end{lemma}
Text \label{sec:a} again.
See Lemma~\ref{lem:a} and Lemma~\ref{lem:gone}.
    \input{missing-part}
\begin{thebibliography}{1}\bibitem{known} K.\end{thebibliography}
Cited \cite{known} and\cite{unknown}.
\end{document}
"""
EXPECTED = {
    ("error", "path-outside-project"): (4, 4),
    ("warning", "duplicate-label"): (6, 6),
    ("warning", "undefined-reference"): (7, 33),
    ("warning", "missing-input"): (8, 5),
    ("warning", "unresolved-citation"): (10, 23),
}


def test_preflight_diagnostics_carry_line_and_column(tmp_path, capsys, monkeypatch):
    paper = tmp_path / "paper.tex"
    paper.write_text(PAPER, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert run(["preflight", str(paper), "-q"]) == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if line]
    found = {}
    for line in lines:
        match = GNU.match(line)
        assert match, f"not GNU form: {line!r}"
        found[(match["severity"], match["code"])] = (int(match["line"]), int(match["col"]))
        assert match["file"] == "paper.tex"  # named from the current folder
    for key, where in EXPECTED.items():
        assert found.get(key) == where, (key, found)
    source = PAPER.splitlines()
    for line, col in EXPECTED.values():
        assert source[line - 1][col - 1] == "\\"  # the column is the command's backslash


def test_strict_preflight_exits_1_on_the_error_and_still_prints_gnu_lines(tmp_path, capsys):
    paper = tmp_path / "paper.tex"
    paper.write_text(PAPER, encoding="utf-8")
    assert run(["preflight", str(paper), "-q", "--strict"]) == 1
    assert "paper.tex:4:4: error: " in capsys.readouterr().err


def test_lean_scan_findings_are_gnu_lines_with_1_based_columns(tmp_path, capsys):
    lean = tmp_path / "A.lean"
    lean.write_text("theorem t : 1 = 1 := by\n  sorry\naxiom cheat : False\n", encoding="utf-8")
    assert run(["lean", "scan", str(lean)]) == 1
    lines = capsys.readouterr().out.splitlines()
    parsed = [GNU.match(line) for line in lines]
    assert all(parsed), lines
    by_code = {m["code"]: (int(m["line"]), int(m["col"]), m["severity"]) for m in parsed if m}
    assert by_code["sorry"] == (2, 3, "error")  # `sorry` starts at the third character
    assert by_code["axiom"][:1] == (3,) and by_code["axiom"][2] == "error"
    text = lean.read_text().splitlines()
    assert text[1][2:7] == "sorry"


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("a.tex", 3, 7, "error", "m", "c"), "a.tex:3:7: error: m [c]"),
        (("a.tex", 3, None, "warning", "m", "c"), "a.tex:3: warning: m [c]"),
        (("a.tex", None, 7, "info", "m", None), "a.tex: info: m"),  # no column without a line
    ],
)
def test_unknown_parts_are_left_out_never_guessed(args, expected):
    assert gnu_line(*args) == expected


def test_the_documented_problem_matcher_reads_our_lines(tmp_path, capsys):
    docs = (Path(__file__).resolve().parents[2] / "docs" / "ci.md").read_text()
    assert "file:line:column: severity: message [code]" in docs
    block = docs.split('{"problemMatcher"', 1)[1].split("```", 1)[0]
    pattern = json.loads('{"problemMatcher"' + block)["problemMatcher"][0]["pattern"][0]
    matcher = re.compile(pattern["regexp"])
    paper = tmp_path / "paper.tex"
    paper.write_text(PAPER, encoding="utf-8")
    run(["preflight", str(paper), "-q"])
    lines = capsys.readouterr().err.splitlines()
    hits = [m for m in map(matcher.match, lines) if m]
    assert len(hits) == len([line for line in lines if ": info: " not in line]) >= len(EXPECTED)
    first = next(m for m in hits if m.group(pattern["code"]) == "path-outside-project")
    assert (first.group(pattern["line"]), first.group(pattern["column"])) == ("4", "4")
