"""Shared pieces of the loop tests: a SIMULATED REPL scripted for one obligation, scripted turns."""

from __future__ import annotations

from pathlib import Path

from paperlint.lean.extraction import read_extraction
from paperlint.lean.messages import axiom_query
from paperlint.lean.verifier import LeanContext
from paperlint.prover.index import DeclIndex
from paperlint.prover.loop import LoopBudget
from paperlint.prover.model import ToolTurn, TurnKey
from paperlint.prover.protocol import ToolCall
from paperlint.prover.tools import Workbench
from tests.prover.simrepl import HEADER, SimulatedRepl, axioms_ok, checks, msg, warm

ROOT = Path(__file__).resolve().parents[2]
CTX = LeanContext(header=HEADER)
TARGET = "mean_le_max"
SKELETON = "theorem mean_le_max (a b : ℝ) : a ≤ max a b := by\n  sorry"
GOAL = "a b : ℝ\n⊢ a ≤ max a b"
GOOD = "theorem mean_le_max (a b : ℝ) : a ≤ max a b := le_max_left a b"
GUESS = "theorem mean_le_max (a b : ℝ) : a ≤ max a b := max_le_left a b"
QUERY = "max of two reals is at least the left one"
BASE = TurnKey("prover", "lem:max", "s1", 1, 0)
INDEX = DeclIndex(read_extraction(ROOT / "fixtures" / "decl_index" / "extract.jsonl"))


def repl_for_obligation() -> SimulatedRepl:
    repl = SimulatedRepl()
    repl.script(GOOD, {})
    repl.script(axiom_query([TARGET]), axioms_ok(TARGET))
    unknown = {"messages": [msg(1, 49, "Unknown identifier `max_le_left`", end=(1, 60))]}
    repl.script(GUESS, unknown)
    repl.script(GUESS, unknown, all_tactics=True)
    names = [h.name for h in INDEX.search(QUERY, limit=8, hidden=frozenset({TARGET}))]
    repl.script(
        "\n".join(f"#check @{n}" for n in names), checks(*[(n, f"type of {n}") for n in names])
    )
    statement = "example (a b : ℝ) : a ≤ max a b := by\n  "
    repl.script(
        statement + "exact?", {"messages": [msg(2, 2, "Try this: exact le_max_left a b", "info")]}
    )
    repl.script(statement + "apply?", {"messages": [msg(2, 2, "apply? found nothing")]})
    repl.script(statement + "rw?", {"messages": [msg(2, 2, "rw? found nothing")]})
    return repl


def bench(tmp_path: Path, repl: SimulatedRepl) -> Workbench:
    verifier = warm(tmp_path, repl)
    return Workbench(verifier=verifier, probe=verifier, context=CTX, target=TARGET, index=INDEX)


def call(name: str, n: int, **arguments) -> ToolCall:
    return ToolCall(id=f"call_{n}", name=name, arguments=arguments)


def turn(*calls: ToolCall, text: str = "", tokens: int = 1000) -> ToolTurn:
    return ToolTurn(text=text, calls=calls, tokens_in=tokens, tokens_out=50)


SEARCH_THEN_PROVE = {
    BASE._replace(turn=1): turn(call("search", 1, query=QUERY)),
    BASE._replace(turn=2): turn(call("check", 2, lean=GUESS)),
    BASE._replace(turn=3): turn(call("check", 3, lean=GOOD)),
}
LIBRARY = {
    BASE._replace(turn=1): turn(call("library", 1, goal=GOAL)),
    BASE._replace(turn=2): turn(call("check", 2, lean=GOOD)),
}
STUCK = {
    BASE._replace(turn=n): turn(call("check", n, lean=GUESS if n == 1 else GUESS + f" -- {n}"))
    for n in range(1, 10)
}


def budget_of(**changes: float) -> LoopBudget:
    """The loop budget of a default config (`[prover]`), with `changes`."""
    return LoopBudget(**{"max_turns": 8, "max_tool_calls": 24, "max_wall_s": 900.0, **changes})
