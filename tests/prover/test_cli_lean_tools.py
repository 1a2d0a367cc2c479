"""`paperlint lean search` and `paperlint lean goals`, with RECORDED (hand-written) Lean answers."""

from __future__ import annotations

import json
from pathlib import Path

from paperlint.cli.root import run
from paperlint.lean.extraction import read_extraction
from paperlint.prover.index import DeclIndex

ROOT = Path(__file__).resolve().parents[2]
INDEX = ROOT / "fixtures" / "decl_index" / "extract.jsonl"
QUERY = "exponential is positive"


def _recording(tmp_path: Path, text: str, response: dict, header: str = "import Mathlib") -> Path:
    entry = {
        "kind": "command",
        "request": {"header": header, "accepted": [], "text": text},
        "response": response,
        "note": "hand-written",
    }
    path = tmp_path / "lean-probe.jsonl"
    path.write_text(json.dumps(entry, ensure_ascii=False) + "\n", encoding="utf-8")
    return tmp_path


def test_search_without_lean_says_its_hits_are_unconfirmed(capsys) -> None:
    assert run(["lean", "search", QUERY, "--index", str(INDEX), "--no-lean", "--limit", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "-- NOT confirmed with #check (no Lean)"
    assert out[1].startswith("Real.exp_pos : ")


def test_search_confirms_with_check_and_drops_unknown_names(tmp_path: Path, capsys) -> None:
    names = [h.name for h in DeclIndex(read_extraction(INDEX)).search(QUERY, limit=3)]
    messages = [
        {
            "severity": "info",
            "pos": {"line": 1, "column": 0},
            "data": f"@{names[0]} : ∀ (x : ℝ), 0 < rexp x",
        },
        {
            "severity": "error",
            "pos": {"line": 2, "column": 7},
            "data": f"Unknown constant `{names[1]}`",
        },
        {"severity": "info", "pos": {"line": 3, "column": 0}, "data": f"@{names[2]} : T"},
    ]
    text = "\n".join(f"#check @{n}" for n in names)
    replay = _recording(tmp_path, text, {"messages": messages})
    code = run(
        ["lean", "search", QUERY, "--index", str(INDEX), "--replay", str(replay), "--limit", "3"]
    )
    assert code == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{names[0]} : ∀ (x : ℝ), 0 < rexp x", f"{names[2]} : T"]


def test_search_without_an_index_names_the_fix(tmp_path: Path, capsys) -> None:
    assert run(["lean", "search", QUERY, "--index", str(tmp_path / "none.jsonl"), "--no-lean"]) == 2
    assert "paperlint setup" in capsys.readouterr().err


def test_goals_of_a_file(tmp_path: Path, capsys) -> None:
    body = "theorem t (x : ℝ) : 0 ≤ x ^ 2 := by\n  sorry"
    lean = tmp_path / "T.lean"
    lean.write_text("import Mathlib\n\n" + body + "\n", encoding="utf-8")
    sorry = {"pos": {"line": 2, "column": 2}, "goal": "x : ℝ\n⊢ 0 ≤ x ^ 2"}
    replay = _recording(tmp_path, body, {"sorries": [sorry]})
    assert run(["lean", "goals", str(lean), "--replay", str(replay)]) == 0
    assert capsys.readouterr().out == "goal 1 (line 2):\nx : ℝ\n⊢ 0 ≤ x ^ 2\n"


def test_goals_of_a_missing_file_is_a_usage_error(tmp_path: Path, capsys) -> None:
    assert run(["lean", "goals", str(tmp_path / "nope.lean")]) == 2
    assert "no such Lean file" in capsys.readouterr().err
