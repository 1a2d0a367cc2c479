import json

import pytest

from paperlint.cli.root import run
from tests.reports.workspace_factory import build_workspace


@pytest.fixture
def ws(tmp_path):
    return build_workspace(tmp_path)


def test_report_format_sarif_prints_to_stdout(ws, capsys):
    assert run(["report", str(ws), "--format", "sarif"]) == 0
    sarif = json.loads(capsys.readouterr().out)
    assert sarif["version"] == "2.1.0"
    # two issues, ONE note for the two unfinished results (they are not findings), and the
    # synthetic paper's four preflight diagnostics
    rules = [r["ruleId"] for r in sarif["runs"][0]["results"]]
    assert len(rules) == 3 + 4 and sum(rule.startswith("preflight/") for rule in rules) == 4


def test_report_format_with_output_writes_that_file(ws, tmp_path, capsys):
    target = tmp_path / "out" / "r.json"
    assert run(["report", str(ws), "--format", "json", "-o", str(target)]) == 0
    assert json.loads(target.read_text())["schema"] == "paperlint.report/1"
    assert capsys.readouterr().out == ""


def test_report_without_format_writes_every_output_into_report_folder(ws, capsys):
    assert run(["report", str(ws)]) == 0
    printed = capsys.readouterr().out.split()
    assert len(printed) == 8
    assert (ws / "report" / "report.html").is_file()
    assert (ws / "report" / "worksheet.md").is_file()


def test_report_blueprint_format(ws, capsys):
    assert run(["report", str(ws), "--format", "blueprint"]) == 0
    assert "\\lean{Paper.lemma_2_1}\\leanok" in capsys.readouterr().out


def test_report_on_a_folder_that_is_not_a_workspace_is_a_usage_error(tmp_path, capsys):
    assert run(["report", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "not a paperlint workspace" in err and "results.json" in err


def test_report_rejects_an_unknown_format(ws, capsys):
    assert run(["report", str(ws), "--format", "pdf"]) == 2
    err = capsys.readouterr().err
    assert "unknown report format 'pdf'" in err and "blueprint" in err
