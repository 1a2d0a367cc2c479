"""Reconciling an inventory with LaTeX's numbers, with the compile stubbed (no TeX needed)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from paperlint.errors import InputError
from paperlint.preflight.auxfile import AuxData, parse_aux_text
from paperlint.preflight.latexcheck import apply_latex, reconcile, same_number
from paperlint.preflight.latexrun import CompileResult, CompileStatus
from paperlint.preflight.model import EquationInfo, Inventory, Result, Span

AUX = r"""\relax
\newlabel{sec:intro}{{1}{1}{Intro}{section.1}{}}
\newlabel{thm:main}{{1.1}{1}{Main}{theorem.1.1}{}}
\newlabel{thm:main@cref}{{[theorem][1][1]1.1}{[1][1][]1}}
\newlabel{lem:a}{{1.3}{1}{}{theorem.1.3}{}}
\newlabel{eq:a}{{2}{1}{}{equation.2}{}}
\newlabel{eq:b}{{3}{1}{}{equation.3}{}}
\newlabel{rem:s}{{1}{1}{}{section.1}{}}
\newlabel{cor:only}{{1.4}{2}{}{theorem.1.4}{}}
\newlabel{fig:x}{{1}{2}{A figure}{figure.1}{}}
\newlabel{dup}{{1}{1}}
\newlabel{dup}{{2}{1}}
"""


def _result(rid: str, env: str, number: str | None, line: int) -> Result:
    return Result(
        id=rid,
        env=env,
        kind="lemma" if env == "lemma" else "theorem",
        title=env.capitalize(),
        number=number,
        labels=[rid],
        statement="...",
        span=Span(file="sec/intro.tex", start_line=line, end_line=line + 2),
    )


def _inventory() -> Inventory:
    return Inventory(
        root="main.tex",
        results=[
            _result("thm:main", "theorem", "1.1", 10),
            _result("lem:a", "lemma", "1.2", 20),
            _result("rem:s", "remark", None, 30),
            _result("lem:dead", "lemma", "9.9", 40),
        ],
        equations={
            "eq:a": EquationInfo(number="2", result="lem:a"),
            "eq:b": EquationInfo(number="1.3", result=None),
        },
    )


def _compiled(aux: AuxData, status: CompileStatus = CompileStatus.OK) -> CompileResult:
    return CompileResult(
        status=status,
        aux=aux,
        engine="pdflatex",
        compiled_with="latexmk 4.79 / pdflatex",
        returncode=0 if status is CompileStatus.OK else 12,
        seconds=1.0,
        log_tail="./main.tex:7: Undefined control sequence.\nOutput written",
    )


def _codes(inv: Inventory) -> list[tuple[str, str, int | None]]:
    return [(d.code, d.file, d.line) for d in inv.diagnostics]


def test_stubbed_compile_latex_number_wins_with_a_mismatch_warning():
    out = reconcile(_inventory(), _compiled(parse_aux_text(AUX)))
    lem = out.result("lem:a")
    assert lem is not None
    assert (lem.number, lem.number_source) == ("1.3", "latex")
    [warning] = [d for d in out.diagnostics if d.code == "number-mismatch" and "lem:a" in d.message]
    assert (warning.severity, warning.file, warning.line) == ("warning", "sec/intro.tex", 20)
    assert "1.2" in warning.message and "1.3" in warning.message


def test_stubbed_compile_agreeing_number_is_marked_latex_without_warning():
    out = reconcile(_inventory(), _compiled(parse_aux_text(AUX)))
    thm = out.result("thm:main")
    assert thm is not None and (thm.number, thm.number_source) == ("1.1", "latex")
    assert not any("thm:main" in d.message for d in out.diagnostics)


def test_stubbed_compile_unnumbered_result_keeps_no_number():
    out = reconcile(_inventory(), _compiled(parse_aux_text(AUX)))
    rem = out.result("rem:s")
    assert rem is not None and rem.number is None and rem.number_source == "emulated"
    assert ("label-in-unnumbered", "sec/intro.tex", 30) in _codes(out)


def test_stubbed_compile_equation_numbers_follow_latex():
    out = reconcile(_inventory(), _compiled(parse_aux_text(AUX)))
    assert out.equations["eq:a"].number == "2"
    assert out.equations["eq:b"].number == "3"
    [warning] = [d for d in out.diagnostics if "eq:b" in d.message]
    assert (warning.code, warning.file, warning.line) == ("number-mismatch", "main.tex", None)


def test_stubbed_compile_labels_known_to_one_side_only_are_reported():
    out = reconcile(_inventory(), _compiled(parse_aux_text(AUX)))
    codes = _codes(out)
    assert ("label-not-in-latex", "sec/intro.tex", 40) in codes
    assert ("latex-unchecked", "sec/intro.tex", 40) in codes
    assert [c for c in codes if c[0] == "latex-unchecked"] == [
        ("latex-unchecked", "sec/intro.tex", 40)
    ]
    only = [d.message for d in out.diagnostics if d.code == "latex-only-label"]
    assert any("cor:only" in m for m in only)
    assert not any("fig:x" in m or "sec:intro" in m for m in only)
    assert any(d.code == "duplicate-label" and "`dup`" in d.message for d in out.diagnostics)


def test_stubbed_compile_errors_are_reported_but_numbers_still_used():
    out = reconcile(_inventory(), _compiled(parse_aux_text(AUX), CompileStatus.ERRORS))
    [note] = [d for d in out.diagnostics if d.code == "latex-compile"]
    assert note.severity == "warning" and "Undefined control sequence" in note.message
    lem = out.result("lem:a")
    assert lem is not None and lem.number == "1.3"


def test_stubbed_compile_without_aux_leaves_inventory_and_says_so():
    inv = _inventory()
    out = reconcile(inv, _compiled(AuxData(missing=("main.aux",)), CompileStatus.NO_AUX))
    assert out.results == inv.results
    assert [d.severity for d in out.diagnostics] == ["error"]


def test_apply_latex_with_injected_compile_gets_project_and_root():
    calls: list[tuple[Path, str]] = []

    def fake(folder: Path, root: str, edit) -> CompileResult:
        calls.append((folder, root))
        return _compiled(parse_aux_text(AUX))

    out = apply_latex(_inventory(), Path("/paper"), compile=fake)
    assert calls == [(Path("/paper"), "main.tex")]
    assert out.result("lem:a") is not None


def test_stubbed_compile_unlabelled_result_is_numbered_through_its_probe(tmp_path):
    inv = _inventory()
    unlabelled = _result("x", "theorem", "1.5", 2).model_copy(update={"labels": [], "id": "t"})
    inv = inv.model_copy(update={"results": [*inv.results, unlabelled]})
    (tmp_path / "sec").mkdir()
    (tmp_path / "sec" / "intro.tex").write_text("x\n\\begin{theorem}\nBody\n\\end{theorem}\n")
    seen: list[str] = []

    def fake(folder: Path, root: str, edit) -> CompileResult:
        edit(tmp_path)  # the real runner passes its scratch copy
        seen.append((tmp_path / "sec" / "intro.tex").read_text())
        return _compiled(parse_aux_text(AUX + "\\newlabel{paperlint-probe-4}{{1.6}{2}}\n"))

    out = apply_latex(inv, tmp_path, compile=fake)
    assert seen == ["x\n\\begin{theorem}\\label{paperlint-probe-4}\nBody\n\\end{theorem}\n"]
    t = out.result("t")
    assert t is not None and (t.number, t.number_source) == ("1.6", "latex")
    assert any("unlabelled" in d.message and d.line == 2 for d in out.diagnostics)
    assert not any("paperlint-probe" in d.message for d in out.diagnostics)


def test_same_number_ignores_spacing_and_braces():
    assert same_number("1.{1}", "1.1")
    assert same_number(r"$\star$", r"$\star $")
    assert not same_number("1.2", "1.3")
    assert same_number(None, "")


@pytest.mark.latex
@pytest.mark.skipif(shutil.which("latexmk") is None, reason="latexmk not installed")
def test_real_compile_numbers_an_unlabelled_result_and_leaves_the_source_alone(tmp_path):
    paper = (
        "\\documentclass{article}\\usepackage{amsthm}\n"
        "\\newtheorem{theorem}{Theorem}[section]\n"
        "\\begin{document}\\section{A}\\section{B}\n"
        "\\begin{theorem}\n[Named] x\\end{theorem}\n"
        "\\begin{theorem}\\label{thm:b} y\\end{theorem}\n"
        "\\end{document}\n"
    )
    (tmp_path / "main.tex").write_text(paper)
    span = Span(file="main.tex", start_line=4, end_line=5)
    inv = Inventory(
        root="main.tex",
        results=[
            _result("t", "theorem", "1.1", 4).model_copy(update={"labels": [], "span": span}),
            _result("thm:b", "theorem", "2.2", 6).model_copy(
                update={"span": Span(file="main.tex", start_line=6, end_line=6)}
            ),
        ],
    )
    out = apply_latex(inv, tmp_path)
    assert [(r.number, r.number_source) for r in out.results] == [
        ("2.1", "latex"),
        ("2.2", "latex"),
    ]
    assert [d.code for d in out.diagnostics] == ["number-mismatch"]
    assert (tmp_path / "main.tex").read_text() == paper
    assert sorted(p.name for p in tmp_path.iterdir()) == ["main.tex"]


def test_pdf_inventory_is_refused_with_a_hint():
    inv = _inventory().model_copy(update={"source_kind": "pdf", "root": "paper.pdf"})
    with pytest.raises(InputError) as caught:
        apply_latex(inv, Path("/paper"), compile=lambda *a: pytest.fail("compiled"))
    assert caught.value.hint is not None and "drop --latex" in caught.value.hint


def test_stubbed_compile_without_hyperref_untyped_labels_make_one_summary():
    aux = parse_aux_text(
        "\\newlabel{thm:main}{{1.1}{1}}\n\\newlabel{sec:a}{{I}{1}}\n\\newlabel{fig:b}{{2}{1}}\n"
    )
    inv = _inventory().model_copy(update={"results": _inventory().results[:1], "equations": {}})
    out = reconcile(inv, _compiled(aux))
    [note] = [d for d in out.diagnostics if d.code == "latex-only-label"]
    assert note.severity == "info"
    assert "2 labels" in note.message and "sec:a, fig:b" in note.message
