"""The vacuity probe against a fake verifier (stubbed Lean): it accepts a `False` proof by
`linarith` only when the binders order two terms both ways, and `↔ True` only for a
definition whose body is `True`."""

from paperlint.lean.compose import parse_declaration
from paperlint.lean.verifier import LeanCheck, LeanContext, Outcome
from paperlint.validate.leanfile import binders_of, contradictions
from paperlint.validate.vacuity import (
    PROBE_TACTICS,
    probe_draft,
    run_vacuity_probe,
    vacuity_candidates,
)

CONTEXT = LeanContext(header="import Mathlib")
VACUOUS = "theorem foo (x : ℝ) (h1 : x < 0) (h2 : 0 < x) : x = 1729 := by\n  sorry"
HONEST = "theorem foo (x : ℝ) (h1 : 0 < x) : 0 < x ^ 2 := by\n  sorry"
TRUE_DEF = "def IsNice (x : ℝ) : Prop := True"
REAL_DEF = "def IsNice (x : ℝ) : Prop := 0 < x"


class FakeVerifier:
    """Stands in for Lean; records every candidate it was asked about."""

    is_replay = True

    def __init__(self, *, definitions=(), timeout_first=0):
        self.asked = []
        self.definitions = {parse_declaration(d).name: d for d in definitions}
        self.timeout_first = timeout_first

    def check(self, context, candidate, *, timeout_s):
        self.asked.append(candidate)
        if len(self.asked) <= self.timeout_first:
            return LeanCheck(outcome=Outcome.TIMEOUT)
        return LeanCheck(outcome=Outcome.ACCEPTED if self._holds(candidate) else Outcome.REJECTED)

    def _holds(self, candidate):
        if candidate.startswith("example"):
            name = candidate.rsplit("[", 1)[1].rstrip("]")
            body = self.definitions.get(name, "")
            return body.rstrip().endswith(":= True")
        return candidate.endswith("linarith") and bool(contradictions(binders_of(candidate)))

    def print_axioms(self, context, names, *, timeout_s):
        raise AssertionError("the probe does not ask for axioms")

    def final_check(self, file, names, *, timeout_s):
        raise AssertionError("the probe does not build files")

    def close(self):
        pass


def test_candidates_state_false_from_the_statements_binders():
    candidates = vacuity_candidates(VACUOUS, "foo")
    assert candidates[0].startswith("theorem foo_vacuous (x : ℝ) (h1 : x < 0) (h2 : 0 < x) : False")
    assert {c.rsplit("\n  ", 1)[1] for c in candidates[: len(PROBE_TACTICS)]} == set(PROBE_TACTICS)
    assert (
        "theorem foo_vacuous (x : ℝ) (h1 : x < 0) (h2 : 0 < x) : False := by\n  exact absurd h1 h2"
        in candidates
    )


def test_no_binders_means_no_false_candidates():
    assert vacuity_candidates("theorem foo : (1 : ℕ) < 2 := by\n  sorry", "foo") == []


def test_definition_checks_only_for_prop_valued_definitions():
    checks = vacuity_candidates(HONEST, "foo", definitions=[TRUE_DEF, "def m (a : ℝ) : ℝ := a"])
    trivial = [c for c in checks if c.startswith("example")]
    assert trivial == ["example (x : ℝ) : IsNice x ↔ True := by\n  simp [IsNice]"]


def test_probe_finds_contradictory_hypotheses():
    verifier = FakeVerifier()
    result = run_vacuity_probe(verifier, CONTEXT, VACUOUS, "foo", timeout_s=5)
    assert result.vacuous
    assert result.witness is not None and result.witness.endswith("linarith")
    assert result.checked == 2  # simp_all refused, linarith accepted, then it stops
    assert "vacuous statement" in result.reason()


def test_probe_passes_an_honest_statement_after_trying_every_candidate():
    verifier = FakeVerifier()
    result = run_vacuity_probe(verifier, CONTEXT, HONEST, "foo", timeout_s=5)
    assert not result.vacuous and result.witness is None and result.reason() is None
    assert result.checked == len(verifier.asked) == len(vacuity_candidates(HONEST, "foo"))


def test_probe_finds_a_definition_that_is_true():
    verifier = FakeVerifier(definitions=[TRUE_DEF])
    result = run_vacuity_probe(
        verifier, CONTEXT, HONEST, "foo", timeout_s=5, definitions=[TRUE_DEF]
    )
    assert result.vacuous and result.witness.startswith("example (x : ℝ) : IsNice x ↔ True")


def test_probe_does_not_flag_a_meaningful_definition():
    verifier = FakeVerifier(definitions=[REAL_DEF])
    result = run_vacuity_probe(
        verifier, CONTEXT, HONEST, "foo", timeout_s=5, definitions=[REAL_DEF]
    )
    assert not result.vacuous


def test_timeouts_are_not_counted_as_checked():
    verifier = FakeVerifier(timeout_first=1)
    result = run_vacuity_probe(verifier, CONTEXT, VACUOUS, "foo", timeout_s=5)
    assert result.vacuous and result.checked == 1


def _draft(statement, definitions=()):
    from paperlint.agents.outputs import DraftOutput, FidelityFields

    fields = FidelityFields(
        object_class="",
        quantifier_order="",
        parameter_domains="",
        codomain="",
        hypotheses="",
        conclusion="",
    )
    return DraftOutput(
        lean_name="foo", statement=statement, definitions=list(definitions), fidelity=fields
    )


def test_engine_hook_blocks_a_vacuous_draft():
    result = probe_draft(FakeVerifier(), CONTEXT, _draft(VACUOUS), timeout_s=5)
    assert result.vacuous and result.reason().startswith("vacuous statement")


def test_engine_hook_probes_a_gated_definition_for_triviality():
    verifier = FakeVerifier(definitions=[TRUE_DEF])
    result = probe_draft(verifier, CONTEXT, _draft(TRUE_DEF), timeout_s=5, statement_only=True)
    assert result.vacuous and verifier.asked == [result.witness]


def test_no_lean_answer_is_never_vacuous():
    class Silent(FakeVerifier):
        def check(self, context, candidate, *, timeout_s):
            return LeanCheck(outcome=Outcome.UNAVAILABLE)

    result = probe_draft(Silent(), CONTEXT, _draft(VACUOUS), timeout_s=5)
    assert not result.vacuous and result.checked == 0
