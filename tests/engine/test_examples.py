"""Each example fixture's replay reproduces its answer key and exits with the code it implies."""

import json

import pytest

from tests.engine.conftest import EXAMPLES, example, verdicts


def expected_exit(key: dict) -> int:
    found = {v["verdict"] for v in key.values()}
    if "issue" in found:
        return 1
    if "unfinished" in found:
        return 4
    return 0


@pytest.mark.parametrize("name", EXAMPLES)
def test_replay_reproduces_the_answer_key(name, finished_runs):
    workdir, code = finished_runs[name]
    key = json.loads((example(name) / "answer-key.json").read_text())
    # an answer key may carry notes beside the verdict and class (fixtures/convergence does)
    assert verdicts(workdir) == {
        rid: {"verdict": want["verdict"], "class": want["class"]} for rid, want in key.items()
    }
    assert code == expected_exit(key)


@pytest.mark.parametrize("name", EXAMPLES)
def test_replay_is_labelled_as_a_replay(name, finished_runs):
    workdir, _ = finished_runs[name]
    results = json.loads((workdir / "results.json").read_text())
    assert results["replay"] is True
    assert set(results["replay_parts"]) == {"model", "lean"}
    events = [json.loads(line) for line in (workdir / "events.jsonl").read_text().splitlines()]
    assert all(e["replay"] for e in events if e["type"] in ("model_call", "lean_check"))


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_verdict_rests_on_files_in_the_workspace(name, finished_runs):
    workdir, _ = finished_runs[name]
    results = json.loads((workdir / "results.json").read_text())
    for record in results["results"]:
        for path in record["evidence"]["hashes"]:
            assert (workdir / path).is_file(), path
        if record["verdict"] in ("verified_unconditional", "verified_conditional"):
            assert record["evidence"]["axioms"] == ["propext", "Classical.choice", "Quot.sound"]
            assert (workdir / record["evidence"]["lean_file"]).is_file()
        if record["verdict"] == "issue":
            issue = record["issue"]
            source = (workdir / "source" / issue["location"]["file"]).read_text()
            assert issue["location"]["quote"] in source
            assert issue["evidence"]["confirmed_by"] != issue["evidence"]["raised_by"]
            if issue["class"] == "ERROR":
                assert (workdir / issue["evidence"]["counterexample"]).is_file()
