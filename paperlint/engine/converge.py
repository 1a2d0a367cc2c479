"""The final convergence review (issue #19): the shell's last phase of a check.

When every result has a verdict, two reviewers — the gate's model and the auditor's model, which
must differ — each read the whole frozen graph (`agents` task `convergence`) and flag what they
disagree with, statements the gate passed included. A flag from either counts; the flagged
results and everything downstream of them (`learning.convergence.regate_set`) go through the
statement gate again: a flagged result is re-drafted with the flag as the drafter's feedback, a
dependent is re-gated on its kept draft (its context changed), and the run loop runs again.

State, in `convergence.json` (written atomically): the two reviews, the combined flags, the
results re-gated and `applied`. The file is written before the records are rewound and marked
applied after, so a crash in between re-applies the same rewind on `resume` and never asks the
reviewers twice. A review that cannot run (the two models are the same, a reviewer's own answer
stays invalid) is recorded as `not_run` with its reason and changes no verdict. A review the
provider or the budget stopped is `pending`: the check ends unfinished (exit 4) and `resume`
asks again. Every reviewer request is charged before it is sent, as any other.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from paperlint.agents.faults import BudgetSpent, ModelUnavailableError
from paperlint.agents.inputs import ConvergenceInputs, ReviewedResult
from paperlint.agents.outputs import ConvergenceOutput
from paperlint.agents.runner import AgentCall
from paperlint.digraph import Digraph
from paperlint.domain import Role
from paperlint.engine.context import EngineContext
from paperlint.errors import ModelError
from paperlint.learning.convergence import combine
from paperlint.records.convergence import Combined, ConvergenceReview, ConvergenceState
from paperlint.records.results import ResultRecord, Results
from paperlint.records.slots import draft_of, fingerprint_of

PAPER: Final = "paper"  # the `result` a paper-wide call is recorded under
REVIEWERS: Final = (Role.GATE, Role.AUDITOR)


def review_inputs(ctx: EngineContext, results: Results) -> ConvergenceInputs:
    """The frozen graph as the reviewers read it, in document order (pure)."""
    by_id = {r.id: r for r in results.results}
    shown = []
    for paper in ctx.inventory.results:
        record = by_id.get(paper.id)
        if record is None:
            continue
        shown.append(
            ReviewedResult(
                id=paper.id,
                kind=paper.kind,
                number=paper.number,
                statement=paper.statement,
                lean=_gated_statement(record),
                verdict=record.verdict.value if record.verdict else None,
                conditions=[f"{c.name} : {c.lean_type} ({c.kind})" for c in record.conditions],
                issue=(f"{record.issue.class_}: {record.issue.summary}" if record.issue else None),
            )
        )
    return ConvergenceInputs(results=shown)


def _gated_statement(record: ResultRecord) -> str | None:
    draft = draft_of(record.work)
    return draft.statement if draft is not None and fingerprint_of(record.work) else None


def ready(results: Results) -> bool:
    """Every verdict-bearing result has a settled verdict: a result a later run may pick up
    again (budget, interrupted, no Lean, no model) holds the review back."""
    from paperlint.engine.settled import is_open

    return all(
        r.verdict is not None and not is_open(r) for r in results.results if r.verdict_bearing
    )


def review(
    ctx: EngineContext,
    results: Results,
    graph_nodes: list[str],
    combine_with: Callable[..., Combined],
    *,
    answered: Sequence[ConvergenceReview] = (),
    keep: Callable[[ConvergenceState], None] = lambda state: None,
) -> ConvergenceState:
    """Ask the two reviewers; the state to record (effects: up to two model calls).

    A review already `answered` (recorded before a crash) is not asked again; each new one is
    handed to `keep` as soon as it is in, so a crash between the two calls repeats neither."""
    models = [ctx.settings.models.get(role.value) for role in REVIEWERS]
    if not all(models) or models[0] == models[1]:
        why = "the gate's and the auditor's models must both be set and differ"
        return ConvergenceState(status="not_run", reason=why)
    inputs = review_inputs(ctx, results).model_dump(mode="json")
    reviews = list(answered)
    for attempt, (role, model) in enumerate(zip(REVIEWERS, models, strict=True), start=1):
        if attempt <= len(reviews):
            continue
        # No action's start charged the review: every one of its requests is charged as sent.
        call = AgentCall("convergence", role.value, PAPER, None, attempt, inputs, charged=False)
        try:
            answer = ctx.turns.call(call, model=str(model)).output
        except (ModelUnavailableError, BudgetSpent) as exc:
            # the provider or the budget, not the reviewer: `resume` asks again
            why = f"{role.value} reviewer: {exc}"
            return ConvergenceState(status="pending", reason=why, reviews=reviews)
        except ModelError as exc:
            return ConvergenceState(status="not_run", reason=f"{role.value} reviewer: {exc}")
        assert isinstance(answer, ConvergenceOutput)
        reviews.append(
            ConvergenceReview(model=str(model), reviewed=graph_nodes, flags=list(answer.flags))
        )
        keep(ConvergenceState(status="asking", reviews=reviews))
    try:
        combined = combine_with(reviews[0], reviews[1])
    except ValueError as exc:  # a flag on an unknown result: the review is not usable
        return ConvergenceState(status="not_run", reason=str(exc), reviews=reviews)
    return ConvergenceState(status="done", reviews=reviews, combined=combined)


def combiner(graph: Digraph) -> Callable[[ConvergenceReview, ConvergenceReview], Combined]:
    return lambda first, second: combine(first, second, graph)
