"""The sandboxed latexmk runner: pure parts always, a real compile only with TeX installed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from paperlint.errors import InputError
from paperlint.preflight import latexrun
from paperlint.preflight.latexrun import (
    CompileStatus,
    choose_engine,
    compile_project,
    copy_project,
    error_lines,
    latexmk_command,
    safe_env,
)

needs_latexmk = pytest.mark.skipif(shutil.which("latexmk") is None, reason="latexmk not installed")

PAPER = r"""\documentclass{article}
\usepackage{amsmath,amsthm,hyperref,cleveref}
\newtheorem{theorem}{Theorem}[section]
\newtheorem{lemma}[theorem]{Lemma}
\begin{document}
\immediate\write18{touch %(pwned)s}
\section{Intro}
\input{sec/body}
\begin{equation}\label{eq:t} c \tag{$\star$} \end{equation}
\end{document}
"""
BODY = r"""\begin{theorem}[Main]\label{thm:main} x \end{theorem}
\begin{lemma}\label{lem:a} y \begin{equation}\label{eq:a} a=b \end{equation}\end{lemma}
"""


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_missing_latexmk_is_an_input_error_with_install_hint(monkeypatch):
    monkeypatch.setattr(latexrun.shutil, "which", lambda name: None)
    with pytest.raises(InputError) as caught:
        compile_project(Path("."), "main.tex")
    assert "latexmk" in str(caught.value)
    assert caught.value.hint is not None and "drop --latex" in caught.value.hint


@needs_latexmk
def test_missing_root_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="main.tex is not in the project folder"):
        compile_project(tmp_path, "main.tex")


def test_engine_is_xelatex_only_for_fontspec_unicode_math_or_magic_comment():
    assert choose_engine([r"\usepackage{amsmath}"]) == "pdflatex"
    assert choose_engine([r"\usepackage[math-style=ISO]{unicode-math}"]) == "xelatex"
    assert choose_engine([r"\usepackage{amsmath,fontspec}"]) == "xelatex"
    assert choose_engine([r"% \usepackage{fontspec}"]) == "pdflatex"
    assert choose_engine(["% !TEX program = xelatex\n"]) == "xelatex"
    assert choose_engine(["$pdf_mode = 5;\n"]) == "xelatex"  # a latexmkrc, read not run
    assert choose_engine(["$pdflatex = 'xelatex %O %S';\n"]) == "xelatex"
    assert choose_engine(["# $pdf_mode = 5;\n$pdf_mode = 1;\n"]) == "pdflatex"


def test_command_never_halts_never_shell_escapes_and_reads_no_rc_file():
    cmd = latexmk_command("latexmk", "main.tex", "pdflatex")
    assert "-no-shell-escape" in cmd and "-norc" in cmd and "-f" in cmd
    assert "-usepretex=\\PassOptionsToPackage{draft}{graphicx}" in cmd
    assert "-halt-on-error" not in cmd and not any(c[1:] == "shell-escape" for c in cmd)
    env = safe_env()
    assert env["shell_escape"] == "f" and env["openout_any"] == "p"


def test_copy_skips_links_that_leave_the_project(tmp_path):
    outside = tmp_path / "secret.txt"
    outside.write_text("secret")
    project = tmp_path / "paper"
    (project / "sec").mkdir(parents=True)
    (project / "main.tex").write_text("x")
    (project / "sec" / "a.tex").write_text("y")
    (project / "leak.tex").symlink_to(outside)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "fonts.sty").write_text(r"\RequirePackage{fontspec}")
    (project / "linked").symlink_to(tmp_path / "elsewhere")
    (project / "inside.tex").symlink_to(project / "main.tex")
    (project / ".git").mkdir()
    (project / ".git" / "HEAD").write_text("ref")
    for stale in ("main.aux", "main.fdb_latexmk", "main.log", "main.synctex.gz"):
        (project / stale).write_text("old")
    (project / "main.bbl").write_text("kept")
    copy_project(project, tmp_path / "copy")
    copied = sorted(_snapshot(tmp_path / "copy"))
    assert copied == ["inside.tex", "main.bbl", "main.tex", "sec/a.tex"]
    assert latexrun._project_texts(project) == ["x", "x", "y"]  # the linked .sty is not read


@pytest.mark.latex
@needs_latexmk
def test_real_compile_reads_labels_from_a_scratch_copy_without_shell_escape(tmp_path):
    project = tmp_path / "paper"
    (project / "sec").mkdir(parents=True)
    pwned = tmp_path / "PWNED"
    (project / "main.tex").write_text(PAPER % {"pwned": pwned})
    (project / "sec" / "body.tex").write_text(BODY)
    before = _snapshot(project)

    result = compile_project(project, "main.tex", timeout=120)

    assert result.status is CompileStatus.OK, result.log_tail
    assert result.aux.numbers() == {
        "thm:main": "1.1",
        "lem:a": "1.2",
        "eq:a": "1",
        "eq:t": r"$\star $",
    }
    assert result.aux.labels["lem:a"].cref_type == "lemma"
    assert _snapshot(project) == before  # nothing written in the user's folder
    assert not pwned.exists()  # \write18 did not run
    assert "pdflatex" in result.compiled_with


@pytest.mark.latex
@needs_latexmk
def test_real_compile_with_a_fatal_error_still_returns_a_clear_status(tmp_path):
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\\begin{document}\\section{A}\\label{s}\\input{missing}"
        "\\end{document}\n"
    )
    result = compile_project(tmp_path, "main.tex", timeout=120)
    assert result.status in (CompileStatus.ERRORS, CompileStatus.NO_AUX)
    assert "missing" in result.log_tail


def test_error_lines_come_from_the_whole_log_in_order_once():
    log = (
        "This is pdfTeX\n./main.tex:3: Undefined control sequence.\n"
        "! LaTeX Error: File `x.sty' not found.\nmore\n"
        "./main.tex:3: Undefined control sequence.\n" + "filler\n" * 100
    )
    assert error_lines(log) == (
        "./main.tex:3: Undefined control sequence.",
        "! LaTeX Error: File `x.sty' not found.",
    )


@pytest.mark.latex
@needs_latexmk
def test_real_compile_runs_no_latexmkrc(tmp_path):
    project = tmp_path / "paper"
    project.mkdir()
    ran = tmp_path / "RC_RAN"
    for rc in ("latexmkrc", ".latexmkrc"):
        (project / rc).write_text(f'system("touch {ran}");\n')
    (project / "main.tex").write_text(
        "\\documentclass{article}\\usepackage{graphicx}\\begin{document}\\section{A}\\label{s}"
        "\\includegraphics{figure-not-shipped.pdf}x\\end{document}\n"
    )
    result = compile_project(project, "main.tex", timeout=120)
    assert result.aux.numbers() == {"s": "1"}
    assert not ran.exists()


@pytest.mark.latex
@needs_latexmk
def test_real_compile_cannot_write_outside_the_scratch_copy(tmp_path):
    escaped = tmp_path / "escaped.txt"
    (tmp_path / "paper").mkdir()
    (tmp_path / "paper" / "main.tex").write_text(
        "\\documentclass{article}\\newwrite\\f\n"
        f"\\immediate\\openout\\f={escaped}\\immediate\\write\\f{{x}}\\immediate\\closeout\\f\n"
        "\\begin{document}x\\end{document}\n"
    )
    result = compile_project(tmp_path / "paper", "main.tex", timeout=120)
    assert not escaped.exists()
    assert result.status is not CompileStatus.OK


@pytest.mark.latex
@needs_latexmk
def test_real_compile_that_never_ends_is_killed_at_the_timeout(tmp_path):
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\\begin{document}\\def\\loop{\\loop}\\loop\\end{document}\n"
    )
    result = compile_project(tmp_path, "main.tex", timeout=3)
    assert result.status is CompileStatus.TIMEOUT
    assert result.seconds < 30
    assert "timed out" in result.summary()


@pytest.mark.latex
@needs_latexmk
def test_real_compile_follows_include_aux_files_in_subfolders(tmp_path):
    (tmp_path / "chapters").mkdir()
    (tmp_path / "main.tex").write_text(
        "\\documentclass{book}\\usepackage{amsthm}\\newtheorem{theorem}{Theorem}[chapter]\n"
        "\\begin{document}\\include{chapters/one}\\include{chapters/two}\\end{document}\n"
    )
    (tmp_path / "chapters" / "one.tex").write_text(
        "\\chapter{One}\\begin{theorem}\\label{thm:one}x\\end{theorem}\n"
    )
    (tmp_path / "chapters" / "two.tex").write_text(
        "\\chapter{Two}\\begin{theorem}\\label{thm:two}y\\end{theorem}\n"
    )
    result = compile_project(tmp_path, "main.tex", timeout=120)
    assert result.aux.files == ("main.aux", "chapters/one.aux", "chapters/two.aux")
    assert result.aux.numbers() == {"thm:one": "1.1", "thm:two": "2.1"}
    assert result.aux.labels["thm:two"].aux_file == "chapters/two.aux"
