"""A gated statement Lean refutes from its own hypotheses is blocked, with the reason recorded."""

import json

from paperlint.config import load_config
from paperlint.engine.check import CheckRequest, start_check
from paperlint.lean.replay import ReplayVerifier
from paperlint.lean.verifier import LeanCheck, Outcome, Verifier
from tests.engine.conftest import example


class VacuousFor(Verifier):
    """Wraps the replay verifier; answers `accepted` to the probe of one statement."""

    def __init__(self, inner, name):
        self.inner, self.name = inner, name
        self.is_replay = inner.is_replay

    def check(self, context, candidate, *, timeout_s):
        if f"{self.name}_vacuous" in candidate:
            return LeanCheck(outcome=Outcome.ACCEPTED, replay=True)
        return self.inner.check(context, candidate, timeout_s=timeout_s)

    def print_axioms(self, context, names, *, timeout_s):
        return self.inner.print_axioms(context, names, timeout_s=timeout_s)

    def final_check(self, file, names, *, timeout_s):
        return self.inner.final_check(file, names, timeout_s=timeout_s)

    def trusted_check(self, job, *, timeout_s):
        return self.inner.trusted_check(job, timeout_s=timeout_s)

    def close(self):
        self.inner.close()


def test_a_vacuous_statement_is_blocked_at_the_gate(tmp_path):
    config = tmp_path / "paperlint.toml"
    config.write_text("[budget]\ndraft_rounds = 1\n")
    fixture = example("proportions")
    workdir = tmp_path / "ws"
    verifier = VacuousFor(ReplayVerifier(fixture / "replay"), "lem_odds_pos")
    request = CheckRequest(
        paper=fixture / "paper.tex",
        config=load_config(config, start=tmp_path).config,
        workdir=workdir,
        replay=fixture / "replay",
        verifier=verifier,
    )
    start_check(request)
    results = {r["id"]: r for r in json.loads((workdir / "results.json").read_text())["results"]}
    blocked = results["lem:odds-pos"]
    assert blocked["verdict"] == "unfinished"
    assert blocked["unfinished"]["reason"] == "statement_not_approved"
    assert "vacuous statement" in blocked["unfinished"]["detail"]
    gate = json.loads((workdir / "audits" / "lem_odds-pos" / "gate-1.json").read_text())
    assert gate["decision"] == "BLOCK" and gate["statement_fingerprint"] is None
    assert (workdir / "audits" / "lem_odds-pos" / "vacuity-1.json").is_file()
    # the other results are not affected
    assert results["prop:product"]["verdict"] == "verified_conditional"
