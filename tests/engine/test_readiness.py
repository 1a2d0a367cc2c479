"""Property: for any working state, at most one registered step is ready, so the registry's
order never decides between two steps (and `plan` returning every ready action, one per
result, is well defined)."""

from hypothesis import given
from hypothesis import strategies as st

from paperlint.agents.outputs import (
    ArchitectOutput,
    DraftOutput,
    IssueRuling,
    ProofStep,
    ReviewOutput,
)
from paperlint.engine.plan import Policy, next_action
from paperlint.engine.steps import REGISTRY
from paperlint.records.results import ResultRecord
from paperlint.records.work import (
    CounterexampleCheck,
    FinalAudit,
    Obligation,
    Suspicion,
)
from tests.engine.test_plan import FIDELITY
from tests.workstate import work_of

POLICY = Policy(prover_ladder=("cheap", "strong"), draft_rounds=2)
PLAN = ArchitectOutput(steps=[ProofStep(id="s1", text="t")])
FINAL = FinalAudit(file="f.lean", clean=True, axioms=[], axioms_ok=True, record="r.json")


def _draft(ambiguity: str | None) -> DraftOutput:
    return DraftOutput(
        lean_name="t",
        statement="theorem t : True := by\n  sorry",
        fidelity=FIDELITY,
        ambiguity=ambiguity,
    )


def _ruling(is_issue: bool, error: bool) -> IssueRuling:
    return IssueRuling(is_issue=is_issue, issue_class="ERROR" if error else "PAPER_ARGUMENT_GAP")


works = st.builds(
    work_of,
    plan=st.none() | st.just(PLAN),
    draft=st.none() | st.builds(_draft, st.none() | st.just("x may be real")),
    draft_rounds=st.integers(0, 3),
    draft_feedback=st.none() | st.just("sent back"),
    fingerprint=st.none() | st.just("sha256:f"),
    obligations=st.lists(
        st.builds(
            Obligation,
            id=st.sampled_from(["s1", "s2", "main"]),
            skeleton=st.just("theorem x : True := sorry"),
            status=st.sampled_from(["open", "proved", "failed"]),
            attempts=st.integers(0, 5),
        ),
        max_size=3,
    ),
    suspicion=st.none() | st.just(Suspicion(obligation="s1", reason="r")),
    ruling=st.none() | st.builds(_ruling, st.booleans(), st.booleans()),
    checked_counterexample=st.none()
    | st.builds(
        CounterexampleCheck, file=st.just("c.lean"), accepted=st.booleans(), axioms_ok=st.booleans()
    ),
    review=st.none() | st.just(ReviewOutput(confirms=True, explanation="e")),
    final=st.none() | st.just(FINAL),
)
records = st.builds(
    lambda kind, bearing, work: ResultRecord(
        id="r", number="1", kind=kind, verdict_bearing=bearing
    ).with_work(work),
    st.sampled_from(["lemma", "theorem", "definition", "assumption"]),
    st.booleans(),
    works,
)


@given(records)
def test_at_most_one_step_is_ready(record):
    ready = [kind for kind, step in REGISTRY.items() if step.ready(record, POLICY) is not None]
    assert len(ready) <= 1, ready


@given(records)
def test_next_action_is_the_ready_step_and_names_this_result(record):
    action = next_action(record, POLICY)
    ready = [s.ready(record, POLICY) for s in REGISTRY.values()]
    ready = [a for a in ready if a is not None]
    if not record.verdict_bearing and record.kind not in ("definition", "assumption"):
        assert action is None
    else:
        assert action == (ready[0] if ready else None)
    assert action is None or action.result == "r"
