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


def test_cost_through_the_engine_is_one_added_drafter_call_per_result():
    spec = importlib.util.spec_from_file_location("faithful_cost", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    engine = module.measure_engine()  # fixtures/faithfulness, replayed
    assert engine["replay"] is True
    assert (engine["results"], engine["second_drafter_calls"]) == (5, 5)
    assert engine["first_drafter_calls"] == 6  # lem:square-diff is redrafted once
    assert engine["drafter_calls_added_per_result"] == 1.0
    parts = engine["faithfulness_lean_checks"]
    assert parts["equivalence"] > 0 and parts["probe"] > 0 and parts["minimal"] == 4
