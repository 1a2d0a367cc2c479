"""docs/github-workflow.yml, the GitHub Actions recipe for a paper's repository (#28): it is a
valid workflow that uploads SARIF, and its paperlint commands, run as the runner would run
them on a scratch paper repository without a model key or Lean, fail the preflight on a
duplicate label and still write a SARIF log that carries the diagnostic."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.papers import DUPLICATE

yaml = pytest.importorskip("yaml", reason="PyYAML is not installed (pre-commit brings it)")

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / "docs" / "github-workflow.yml"


def _workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text())


def _steps() -> list[dict]:
    (job,) = _workflow()["jobs"].values()
    return job["steps"]


def test_the_workflow_uploads_the_reports_sarif_with_the_permission_it_needs():
    workflow = _workflow()
    assert workflow["permissions"]["security-events"] == "write"
    steps = _steps()
    upload = next(s for s in steps if str(s.get("uses", "")).startswith("github/codeql-action/"))
    report = next(s for s in steps if "--format sarif" in s.get("run", ""))
    assert upload["with"]["sarif_file"] in report["run"] and upload["if"] == "always()"
    preflight = next(s for s in steps if "paperlint preflight" in s.get("run", ""))
    assert "--fail-on warning" in preflight["run"]


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_its_commands_gate_a_paper_and_write_sarif_offline(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / ".git").mkdir()
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env |= {k: str(v) for k, v in _workflow()["env"].items()}
    env["PATH"] = f"{Path(sys.executable).parent}:{env['PATH']}"
    env["PAPERLINT_DATA_DIR"] = str(tmp_path / "data")  # no user's run record or library
    (repo / env["PAPER"]).write_text(DUPLICATE)
    codes = {}
    for step in _steps():
        script = step.get("run", "")
        if (
            "paperlint" not in script
            or "pip install" in script
            or step.get("if", "").startswith("${{ vars.")
        ):
            continue
        done = subprocess.run(
            ["bash", "-e", "-c", script],
            cwd=repo,
            env={**env, **step.get("env", {})},
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        command = re.search(r"paperlint (\w+)", script)
        assert command is not None
        codes[command.group(1)] = (done.returncode, done.stdout + done.stderr)
    assert codes["preflight"][0] == 1
    assert "main.tex:7:12: warning: label 'lem:a' multiply defined" in codes["preflight"][1]
    assert codes["check"][0] == 0, codes["check"][1]  # unfinished (exit 4) is accepted
    assert codes["report"][0] == 0, codes["report"][1]
    sarif = json.loads((repo / "paperlint.sarif").read_text())
    rules = {r["ruleId"]: r for r in sarif["runs"][0]["results"]}
    assert "unfinished" in rules  # no model: nothing concluded, nothing held against the paper
    located = rules["preflight/duplicate-label"]["locations"][0]["physicalLocation"]
    assert located["artifactLocation"]["uri"] == "main.tex"
    assert located["region"] == {"startLine": 7, "startColumn": 12}
