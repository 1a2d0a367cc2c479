import json

from paperlint.lean import firstrun
from paperlint.lean.pins import LeanPaths
from paperlint.lean.warm import WarmSettings, WarmVerifier
from tests.lean_edge.test_warm import FakeBackend


def test_firstrun_refuses_without_lean(no_lean, tmp_path, capsys):
    assert firstrun.main(["--out", str(tmp_path / "out")]) == 1
    assert "Lean is not set up" in capsys.readouterr().err


def test_firstrun_flow_with_a_fake_repl(tmp_path):
    project = tmp_path / "p"
    project.mkdir()
    (project / "lean-toolchain").write_text("leanprover/lean4:v4.35.0\n")
    paths = LeanPaths(project=project, cache=tmp_path, repl_dir=tmp_path / "r", lake="no-lake")
    out = tmp_path / "out"
    out.mkdir()
    found = firstrun.run_firstrun(
        paths,
        out,
        timeout_s=5,
        make=lambda p: WarmVerifier(WarmSettings(paths=p), backend=FakeBackend()),
    )
    assert set(found) >= {"checks", "probes", "timeout_path", "final", "pins"}
    assert found["final"]["ok"]["outcome"] == "unavailable"  # no lake here
    kinds = [json.loads(line)["kind"] for line in (out / "lean.jsonl").read_text().splitlines()]
    assert "check" in kinds and "axioms" in kinds and "final" in kinds
    assert len((out / "probes.jsonl").read_text().splitlines()) == len(firstrun.PROBES)
