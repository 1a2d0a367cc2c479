"""`paperlint preflight`: text and JSON output, -o, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paperlint.cli import root

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "preflight" / "shared_counter"


def test_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert root.run(["preflight", str(FIXTURE), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["schema"] == "paperlint.inventory/1"
    assert [r["number"] for r in data["results"]] == ["1", "2", None, "3"]


def test_text_table_and_output_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "inventory.json"
    assert root.run(["preflight", str(FIXTURE / "paper.tex"), "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "thm:main" in text and "paper.tex:10" in text
    assert json.loads(out.read_text(encoding="utf-8"))["root"] == "paper.tex"


def test_diagnostics_go_to_stderr_and_exit_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paper = tmp_path / "paper.tex"
    paper.write_text(
        "\\documentclass{article}\n\\begin{document}\n\\input{gone}\n\\end{document}\n",
        encoding="utf-8",
    )
    assert root.run(["preflight", str(paper)]) == 0
    assert "paper.tex:3:1: warning:" in capsys.readouterr().err


def test_input_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pdf = tmp_path / "paper.pdf"
    pdf.write_bytes(b"%PDF-1.4\n")
    assert root.run(["preflight", str(pdf)]) == 2
    assert "broken PDF" in capsys.readouterr().err
    assert root.run(["preflight", str(pdf), "--latex"]) == 2
    assert "--latex needs the TeX sources" in capsys.readouterr().err
    assert root.run(["preflight", str(tmp_path / "missing")]) == 2


def test_bad_format_is_a_usage_error() -> None:
    assert root.run(["preflight", str(FIXTURE), "--format", "xml"]) == 2


@pytest.mark.latex
def test_latex_option_takes_numbers_from_a_compile(capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    if shutil.which("latexmk") is None:
        pytest.skip("latexmk is not installed")
    folder = FIXTURE.parent / "setcounter"
    assert root.run(["preflight", str(folder), "--latex", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["number"] for r in data["results"]] == ["1.10", "1.8", "2"]
