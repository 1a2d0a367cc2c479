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
        make=lambda p, rec: WarmVerifier(
            WarmSettings(paths=p), backend=FakeBackend(), recorder=rec
        ),
    )
    assert set(found) >= {"checks", "probes", "timeout_path", "final", "pins", "memory"}
    assert set(found["memory"]) >= {"peak_rss_mb_during_import", "suggested_memory_mb"}
    assert found["final"]["ok"]["outcome"] == "unavailable"  # no lake here
    kinds = [json.loads(line)["kind"] for line in (out / "lean.jsonl").read_text().splitlines()]
    assert "check" in kinds and "axioms" in kinds and "final" in kinds
    probes = (out / "probes.jsonl").read_text().splitlines()
    assert len(probes) == len(firstrun.PROBES) + len(firstrun.DECLARATION_PROBES)
    assert json.loads(probes[-1])["label"] == "declarations"


def test_the_peak_of_a_changing_memory_figure_is_kept():
    import time

    figures = iter([100.0, 900.0, 300.0])
    last = [100.0]

    def read():
        last[0] = next(figures, last[0])
        return last[0]

    with firstrun.PeakMemory(read, every_s=0.01) as peak:
        time.sleep(0.2)
    assert peak.peak_mb == 900.0
    advice = firstrun.memory_advice(peak.peak_mb)
    assert advice["suggested_memory_mb"] == 2048
