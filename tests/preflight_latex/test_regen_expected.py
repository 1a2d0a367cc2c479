"""scripts/regen_expected.py writes only expected/latex.json, stably."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "regen_expected.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("regen_expected", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_root_is_paper_tex_then_main_tex(tmp_path):
    regen = _load()
    assert regen.find_root(tmp_path) is None
    (tmp_path / "main.tex").write_text("x")
    assert regen.find_root(tmp_path) == "main.tex"
    (tmp_path / "paper.tex").write_text("x")
    assert regen.find_root(tmp_path) == "paper.tex"


@pytest.mark.latex
@pytest.mark.skipif(shutil.which("latexmk") is None, reason="latexmk not installed")
def test_real_compile_writes_only_expected_latex_json_and_rewrites_it_unchanged(tmp_path):
    regen = _load()
    (tmp_path / "paper.tex").write_text(
        "\\documentclass{article}\\usepackage{amsthm}\\newtheorem{lemma}{Lemma}\n"
        "\\begin{document}\\begin{lemma}\\label{lem:b}x\\end{lemma}"
        "\\begin{lemma}\\label{lem:a}y\\end{lemma}\\end{document}\n"
    )
    first = regen.regenerate(tmp_path)
    assert "written, 2 labels" in first
    written = (tmp_path / "expected" / "latex.json").read_text()
    record = json.loads(written)
    assert record["labels"] == {"lem:a": "2", "lem:b": "1"}
    assert record["root"] == "paper.tex" and record["compiled_with"].startswith("latexmk")
    assert list(record) == sorted(record) and list(record["labels"]) == ["lem:a", "lem:b"]
    assert sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*")) == [
        "expected",
        "expected/latex.json",
        "paper.tex",
    ]
    assert "unchanged" in regen.regenerate(tmp_path)
