"""The engine's prove step tries the automation ladder before the model (issue #13, phase B).

The step's `run` is called with a duck-typed context: a SIMULATED REPL behind the real
WarmVerifier, a workspace stand-in that only places files, an `ask` that fails the test if the
model is reached when automation closes the obligation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import BaseModel

from paperlint.engine.actions import Action, ActionKind
from paperlint.engine.steps import prove
from paperlint.lean.messages import axiom_query
from paperlint.lean.verifier import LeanContext
from paperlint.prover.automation import LADDER
from paperlint.records.work import Obligation
from tests.engine.conftest import settings as derived_settings
from tests.prover.simrepl import HEADER, SimulatedRepl, axioms_ok, msg, warm

SKELETON = "theorem sq_s1 (x : ℝ) : 0 < x ^ 2 + 1 := by\n  sorry"
STATEMENT = "theorem sq_s1 (x : ℝ) : 0 < x ^ 2 + 1"


class _Prompt(BaseModel):
    pass


@dataclass
class _Ws:
    root: Path

    def audit_dir(self, result: str) -> Path:
        return self.root / "audits" / result

    def rel(self, path: Path) -> str:
        return str(path.relative_to(self.root))


@dataclass
class _Ctx:
    ws: _Ws
    verifier: Any
    settings: Any
    events: list[dict] = field(default_factory=list)

    def emit(self, event: dict) -> None:
        self.events.append(event.as_event())

    def ask(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the model was asked although automation closed the obligation")


def _given(attempt: int = 1) -> prove.ProveInputs:
    action = Action(kind=ActionKind.PROVE, result="lem:sq", obligation="s1", attempt=attempt)
    ob = Obligation(id="s1", skeleton=SKELETON)
    return prove.ProveInputs(action, _Prompt(), ob, LeanContext(header=HEADER))  # type: ignore[arg-type]


def _ctx(tmp_path: Path, repl: SimulatedRepl) -> _Ctx:
    settings = derived_settings(
        header="",
        models={"prover": "scripted"},
        lean_timeout_s=5.0,
        automation_first=True,
        automation_timeout_s=5.0,
    )
    return _Ctx(ws=_Ws(tmp_path), verifier=warm(tmp_path, repl), settings=settings)


def test_an_obligation_closed_by_automation_costs_no_model_call(tmp_path: Path) -> None:
    repl = SimulatedRepl()
    for tactic in LADDER[:6]:
        repl.script(f"{STATEMENT} := by\n  {tactic}", {"messages": [msg(2, 2, "failed")]})
    repl.script(f"{STATEMENT} := by\n  positivity", {})
    repl.script(axiom_query(["sq_s1"]), axioms_ok("sq_s1"))
    ctx = _ctx(tmp_path, repl)
    outcome = prove.run(ctx, SimpleNamespace(id="lem:sq"), _given())  # type: ignore[arg-type]
    assert outcome.check.accepted and outcome.accepted_text.endswith("positivity")
    assert outcome.prover.notes == "closed by automation: `positivity`"
    assert (tmp_path / outcome.check.file).read_text().endswith("positivity")
    assert [e["kind"] for e in ctx.events] == ["automation:positivity"]


def test_nothing_closes_and_the_model_is_asked(tmp_path: Path) -> None:
    ctx = _ctx(tmp_path, SimulatedRepl())  # every rung: no answer -> rejected
    with pytest.raises(AssertionError, match="the model was asked"):
        prove.run(ctx, SimpleNamespace(id="lem:sq"), _given())  # type: ignore[arg-type]
    assert ctx.events == []  # no closing rung, no automation event


def test_later_attempts_skip_the_ladder(tmp_path: Path) -> None:
    repl = SimulatedRepl()
    ctx = _ctx(tmp_path, repl)
    with pytest.raises(AssertionError, match="the model was asked"):
        prove.run(ctx, SimpleNamespace(id="lem:sq"), _given(attempt=2))  # type: ignore[arg-type]
    assert repl.calls == []
