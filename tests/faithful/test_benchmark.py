import importlib.util
import json
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "faithful_cost.py"


def test_cost_benchmark_stays_within_one_drafter_call(capsys):
    spec = importlib.util.spec_from_file_location("faithful_cost", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["total"]["drafter_calls_added_per_result"] <= 1
    assert {r["case"] for r in report["rows"]} == {
        "equivalent-drafts", "lt-vs-le", "nat-subtraction", "unneeded-hypothesis"}  # fmt: skip
    # every accepted candidate costs one axiom query on top of its check
    assert all(r["lean_axiom_queries"] >= 1 for r in report["rows"])
