"""SARIF for code scanning: paths for papers in subfolders, PDFs, and GitHub's own validator."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from paperlint.reports.load import load_workspace
from paperlint.reports.sarif import render_sarif
from tests.reports.workspace_factory import build_workspace


def _multitool() -> str | None:
    """Microsoft's SARIF Multitool (npm @microsoft/sarif-multitool-linux), if installed."""
    if env := os.environ.get("SARIF_MULTITOOL"):
        return env
    for name in ("Sarif.Multitool", "sarif-multitool-linux", "sarif"):
        if found := shutil.which(name):
            return found
    return None


def _subfolder_workspace(tmp_path: Path) -> Path:
    """The paper `repo/papers/ours/main.tex`, checked as the folder `repo/papers`."""
    ws = build_workspace(tmp_path)
    inventory = json.loads((ws / "inventory.json").read_text())
    inventory["root"] = "ours/main.tex"
    for result in inventory["results"]:
        result["span"]["file"] = "ours/" + result["span"]["file"]
    for diagnostic in inventory["diagnostics"]:
        diagnostic["file"] = "ours/" + diagnostic["file"]
    (ws / "inventory.json").write_text(json.dumps(inventory))
    results = json.loads((ws / "results.json").read_text())
    for result in results["results"]:
        if result.get("issue"):
            result["issue"]["location"]["file"] = "ours/" + result["issue"]["location"]["file"]
    (ws / "results.json").write_text(json.dumps(results))
    toml = (ws / "paperlint.toml").read_text()
    papers = tmp_path / "repo" / "papers"
    (ws / "paperlint.toml").write_text(f'[run]\npaper = "{papers}"\n\n' + toml)
    return ws


def test_a_paper_in_a_subfolder_points_at_its_files_from_the_root_files_folder(tmp_path):
    sarif = render_sarif(load_workspace(_subfolder_workspace(tmp_path)))
    run = sarif["runs"][0]
    base = run["originalUriBaseIds"]["PAPERROOT"]["uri"]
    assert base == (tmp_path / "repo" / "papers" / "ours").as_uri() + "/"
    uris = {
        r["ruleId"]: r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in run["results"]
    }
    assert uris == {
        "ERROR": "sections/main.tex",
        "PAPER_ARGUMENT_GAP": "sections/main.tex",
        "unfinished": "main.tex",
        "preflight/unterminated-environment": "main.tex",
        "preflight/duplicate-label": "main.tex",
        "preflight/undefined-reference": "sections/intro.tex",
        "preflight/includeonly": "main.tex",
    }


def test_a_pdf_gets_pages_not_lines(tmp_path):
    ws = build_workspace(tmp_path)
    inventory = json.loads((ws / "inventory.json").read_text())
    inventory["source_kind"] = "pdf"
    inventory["root"] = "paper.pdf"
    for result in inventory["results"]:
        result["span"]["page"] = 3
    (ws / "inventory.json").write_text(json.dumps(inventory))
    run = render_sarif(load_workspace(ws))["runs"][0]
    for result in run["results"]:
        assert "region" not in result["locations"][0]["physicalLocation"]
    assert run["results"][0]["properties"]["page"] == 3


@pytest.mark.skipif(
    _multitool() is None,
    reason="SARIF Multitool absent (npm install @microsoft/sarif-multitool-linux; "
    "put Sarif.Multitool on PATH or set SARIF_MULTITOOL)",
)
@pytest.mark.parametrize("layout", ["example", "synthetic", "subfolder"])
def test_github_rules_report_no_error_and_no_warning(tmp_path, layout, request):
    if layout == "example":  # the README's example, as `paperlint check` wrote it
        log = request.getfixturevalue("example") / "report" / "report.sarif"
    else:
        ws = build_workspace(tmp_path) if layout == "synthetic" else _subfolder_workspace(tmp_path)
        log = tmp_path / "report.sarif"
        log.write_text(json.dumps(render_sarif(load_workspace(ws)), indent=2))
    out = tmp_path / "validation.sarif"
    command = [_multitool(), "validate", "--rule-kind", "Sarif;Ghas", str(log), "-o", str(out)]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    found = json.loads(out.read_text())["runs"][0]["results"]
    assert [(r["ruleId"], r["message"]) for r in found] == []
    assert "error" not in proc.stdout.lower().replace("0 error", "")


def test_every_rule_links_to_its_own_section_of_the_sarif_docs(tmp_path):
    """Each rule's helpUri is the repository's docs/sarif.md at a heading that exists there
    (GitHub's anchor of `### name`), never a placeholder page or a dead anchor."""
    import re

    from paperlint.project import repository_url
    from paperlint.reports.sarif import HELP_PATH

    docs = (Path(__file__).resolve().parents[2] / "docs" / "sarif.md").read_text()
    anchors = {h.strip().lower().replace(" ", "-") for h in re.findall(r"^#+ (.+)$", docs, re.M)}
    sarif = render_sarif(load_workspace(_subfolder_workspace(tmp_path)))
    rules = sarif["runs"][0]["tool"]["driver"]["rules"]
    assert rules
    prefix = f"{repository_url()}{HELP_PATH}#"
    for rule in rules:
        assert rule["helpUri"].startswith(prefix), rule["id"]
        assert rule["helpUri"].removeprefix(prefix) in anchors, rule["id"]
