import dataclasses
import json
import subprocess
import sys

import pytest

from paperlint.cli.root import run
from paperlint.lean import setup as lean_setup
from paperlint.lean.doctor import model_checks, provider_key
from paperlint.lean.pins import locate, read_pins


@pytest.fixture
def no_lean(no_lean, monkeypatch, tmp_path):
    # The shared no-Lean environment (tests/conftest.py), run from an empty folder.
    monkeypatch.chdir(tmp_path)
    return no_lean


def test_doctor_text_names_every_missing_lean_piece(no_lean, capsys):
    assert run(["doctor"]) != 0
    out = capsys.readouterr().out
    for piece in ("lean: lake", "toolchain installed", "REPL built", "lake-manifest.json"):
        assert f"[MISS] lean: {piece.removeprefix('lean: ')}" in out
    assert "elan toolchain install leanprover/lean4:v4.35.0" in out
    assert "not ready" in out


def test_doctor_json(no_lean, capsys):
    assert run(["doctor", "--format", "json"]) != 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False
    missing = {c["name"] for c in report["checks"] if c["required"] and not c["ok"]}
    assert {
        "lean: lake",
        "lean: toolchain installed",
        "lean: REPL built with the same toolchain",
    } <= missing
    assert all(c["fix"] for c in report["checks"] if not c["ok"])
    assert report["pins"]["repl_tag"] == "v1.3.19_lean-toolchain-v4.35.0"
    optional = [c for c in report["checks"] if not c["required"]]
    assert any("latexmk" in c["name"] for c in optional)


def test_api_keys_are_reported_by_presence_only(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-secret-value")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    checks = model_checks({"prover": ["anthropic/claude-x", "gpt-4o"], "gate": []})
    text = " ".join(c.line() for c in checks)
    assert "sk-secret-value" not in text
    assert [c.ok for c in checks] == [True, False]
    assert provider_key("ollama/llama3") is None
    assert not model_checks({})[0].ok


def test_setup_fails_fast_without_elan(no_lean, monkeypatch, capsys):
    which = lean_setup.shutil.which
    monkeypatch.setattr(
        lean_setup.shutil, "which", lambda name: None if name == "elan" else which(name)
    )
    assert run(["setup"]) != 0
    assert "elan" in capsys.readouterr().err


def test_setup_fails_fast_offline(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(lean_setup.shutil, "which", lambda name: "/usr/bin/elan")
    ran = []
    code = lean_setup.run_setup(
        locate(), network=lambda: False, runner=lambda step: ran.append(step) or 0
    )
    assert code != 0 and ran == []
    assert "no network" in capsys.readouterr().err


def test_setup_runs_the_pinned_steps_in_order(monkeypatch, tmp_path):
    monkeypatch.setattr(lean_setup.shutil, "which", lambda name: "/usr/bin/elan")
    paths = dataclasses.replace(locate(repl_dir=tmp_path / "repl"), cache=tmp_path / "cache")
    ran = []

    def runner(step):
        ran.append(step.cmd)
        if step.cmd[0] == "git" and str(tmp_path / "repl") in step.cmd:  # the REPL's clone
            (tmp_path / "repl").mkdir()
            (tmp_path / "repl" / "lean-toolchain").write_text(read_pins(paths.project).toolchain)
        return 0

    assert lean_setup.run_setup(paths, network=lambda: True, runner=runner) == 0
    assert ran[0] == ("elan", "toolchain", "install", "leanprover/lean4:v4.35.0")
    assert ran[1:4] == [("lake", "update"), ("lake", "exe", "cache", "get"), ("lake", "build")]
    # the trusted checker every verdict rests on (issue 25), right after the project
    assert ran[4] == ("lake", "build", "paperlint_checker")
    assert "v1.3.19_lean-toolchain-v4.35.0" in ran[5] and ran[6] == ("lake", "build")
    # then the declaration index, extracted once by our own Lean program (issue 13)
    assert ran[7][:2] == ("/usr/bin/elan", "env") and any("Extract" in part for part in ran[7])
    # no separate lean4checker clone: the checker replays through the kernel (issue 25)
    assert len(ran) == 8 and not any("lean4checker" in " ".join(c) for c in ran)


def test_lean_modules_do_not_import_lean_interact():
    code = (
        "import sys; import paperlint.lean.warm, paperlint.lean.replay, paperlint.lean.doctor,"
        " paperlint.lean.setup, paperlint.cli.setup_cmd; print('lean_interact' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
