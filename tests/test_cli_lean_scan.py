import json
from pathlib import Path

from paperlint.cli.root import run

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "lean"


def test_clean_files_exit_0_and_print_nothing(capsys):
    files = [str(p) for p in sorted((FIXTURES / "clean").glob("*.lean"))]
    assert run(["lean", "scan", *files]) == 0
    assert capsys.readouterr().out == ""


def test_blocking_finding_exits_1_with_file_line_col_rule(capsys):
    # GNU form (issue #17): 1-based column (Lean's col 8 is column 9), severity, rule last
    path = FIXTURES / "adversarial" / "sorry_after_nested_comment.lean"
    assert run(["lean", "scan", str(path)]) == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert out == [f"{path}:7:9: error: `sorry` leaves a proof obligation open [sorry]"]


def test_json_format_lists_findings(capsys):
    path = FIXTURES / "adversarial" / "hidden_axiom.lean"
    assert run(["lean", "scan", "--format", "json", str(path)]) == 1
    data = json.loads(capsys.readouterr().out)
    assert [(d["rule"], d["line"], d["blocking"]) for d in data] == [("axiom", 7, True)]
    assert set(data[0]) == {"file", "line", "col", "rule", "message", "blocking"}


def test_json_of_clean_file_is_an_empty_list(capsys):
    path = FIXTURES / "clean" / "basic_algebra.lean"
    assert run(["lean", "scan", "--format", "json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_advisories_alone_exit_0(tmp_path, capsys):
    path = tmp_path / "A.lean"
    path.write_text("local instance : Inhabited Nat := ⟨1⟩\n")
    assert run(["lean", "scan", str(path)]) == 0
    assert "local-instance" in capsys.readouterr().out


def test_hints_add_unused_hypothesis_advisories(capsys):
    path = FIXTURES / "clean" / "probability_style.lean"
    assert run(["lean", "scan", "--hints", str(path)]) == 0
    assert "unused-hypothesis" in capsys.readouterr().out


def test_imported_local_file_is_scanned_under_the_project_root(tmp_path, capsys):
    (tmp_path / "Paper").mkdir()
    (tmp_path / "Paper" / "Hidden.lean").write_text("axiom cheat : False\n")
    main = tmp_path / "Main.lean"
    main.write_text("import Paper.Hidden\ntheorem t : False := cheat\n")
    assert run(["lean", "scan", "--project-root", str(tmp_path), str(main)]) == 1
    assert "Hidden.lean:1:1: error: " in capsys.readouterr().out


def test_missing_file_exits_2(tmp_path, capsys):
    assert run(["lean", "scan", str(tmp_path / "nope.lean")]) == 2
    assert "no such Lean file" in capsys.readouterr().err


def test_bad_format_is_a_usage_error(tmp_path):
    path = tmp_path / "A.lean"
    path.write_text("theorem t : True := trivial\n")
    assert run(["lean", "scan", "--format", "xml", str(path)]) == 2


def test_import_root_is_guessed_from_the_module_path(tmp_path, capsys):
    paper = tmp_path / "Paper"
    paper.mkdir()
    (paper / "Hidden.lean").write_text("axiom cheat : False\n")
    main = paper / "Main.lean"
    main.write_text("import Mathlib.Tactic\nimport Paper.Hidden\ntheorem t : False := cheat\n")
    assert run(["lean", "scan", str(main)]) == 1
    assert "Hidden.lean:1:1: error: " in capsys.readouterr().out


def test_skeleton_option_checks_the_candidate_against_the_gate(capsys):
    case = FIXTURES / "skeleton" / "true_substituted"
    argv = ["lean", "scan", "--skeleton", str(case / "skeleton.lean"), str(case / "candidate.lean")]
    assert run(argv) == 1
    assert "statement-changed" in capsys.readouterr().out
    clean = FIXTURES / "skeleton" / "clean_fill"
    argv = [
        "lean",
        "scan",
        "--skeleton",
        str(clean / "skeleton.lean"),
        str(clean / "candidate.lean"),
    ]
    assert run(argv) == 0


def test_missing_skeleton_exits_2(tmp_path):
    path = tmp_path / "A.lean"
    path.write_text("theorem t : True := trivial\n")
    assert run(["lean", "scan", "--skeleton", str(tmp_path / "none.lean"), str(path)]) == 2
