# ruff: noqa: E501  (fixture rows read better unwrapped)
"""Write fixtures/prover_replay/: HAND-WRITTEN, ILLUSTRATIVE Lean answers and model turns.

None of these was recorded from Lean or from a model. Four obligations of one small result,
each exercising one ending of the prove strategy (automation ladder, then tool loop):

- `s_auto`: closed by `positivity` on the ladder, zero model calls;
- `s_search`: the model searches, guesses a wrong name once, then uses the hit it found;
- `s_library`: the model asks `library` and uses the `exact?` suggestion;
- `s_budget`: the model never gets it; the loop ends unfinished when its 3 turns are spent.

Files: `lean.jsonl` (ReplayVerifier: the checks, the axiom queries and the tools' probe
commands), `turns.jsonl` (tests/prover/doubles.ScriptedToolModel), `answers.json` (the answer
key). Run:

    python -m tests.prover.build_prover_replay

`test_fixtures_are_up_to_date` fails when the committed folder drifts from this script.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from paperlint.lean.extraction import read_extraction
from paperlint.lean.verifier import LeanContext
from paperlint.prover.automation import LADDER, plan
from paperlint.prover.index import DeclIndex
from paperlint.prover.prompt import PREMISES, premise_query

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "fixtures" / "prover_replay"
NOTE = "hand-written (illustrative; not recorded from Lean or a model)"
HEADER = "import Mathlib\nset_option maxHeartbeats 400000\nset_option autoImplicit false"
CONTEXT = LeanContext(header=HEADER)
RESULT = "lem:bounds"
INDEX = DeclIndex(read_extraction(ROOT / "fixtures" / "decl_index" / "extract.jsonl"))


def _msg(line: int, col: int, data: str, severity: str = "error") -> dict[str, Any]:
    return {"severity": severity, "pos": {"line": line, "column": col}, "data": data}


OBLIGATIONS: list[dict[str, Any]] = [
    {
        "obligation": "s_auto",
        "target": "bounds_s_auto",
        "skeleton": "theorem bounds_s_auto (x : ℝ) : 0 < x ^ 2 + 1 := by\n  sorry",
        "step": "x² + 1 is positive.",
        "closes_with": "positivity",
        "expect": {"closed_by": "automation", "model_calls": 0, "status": "accepted"},
    },
    {
        "obligation": "s_search",
        "target": "bounds_s_search",
        "skeleton": "theorem bounds_s_search (a b : ℝ) : a ≤ max a b := by\n  sorry",
        "step": "The maximum is at least its left argument.",
        "query": "max of two reals is at least the left one",
        "guess": "theorem bounds_s_search (a b : ℝ) : a ≤ max a b := max_le_left a b",
        "proof": "theorem bounds_s_search (a b : ℝ) : a ≤ max a b := le_max_left a b",
        "expect": {"closed_by": "search", "model_calls": 3, "status": "accepted"},
    },
    {
        "obligation": "s_library",
        "target": "bounds_s_library",
        "skeleton": "theorem bounds_s_library (x : ℝ) : x + 1 ≤ Real.exp x := by\n  sorry",
        "step": "Since 1 + x ≤ eˣ for every real x.",
        "goal": "x : ℝ\n⊢ x + 1 ≤ Real.exp x",
        "suggestion": "exact Real.add_one_le_exp x",
        "proof": "theorem bounds_s_library (x : ℝ) : x + 1 ≤ Real.exp x := by\n  exact Real.add_one_le_exp x",
        "expect": {"closed_by": "library", "model_calls": 2, "status": "accepted"},
    },
    {
        "obligation": "s_budget",
        "target": "bounds_s_budget",
        "skeleton": "theorem bounds_s_budget (n : ℕ) (hn : 2 ≤ n) : n < 2 ^ n := by\n  sorry",
        "step": "By induction on n.",
        "expect": {"closed_by": None, "model_calls": 3, "status": "unfinished"},
    },
]


def _check(candidate: str, response: dict[str, Any]) -> dict[str, Any]:
    request = {"header": HEADER, "accepted": [], "candidate": candidate}
    # Every REPL answer carries an env (an answer without one is the REPL's error shape).
    return {"kind": "check", "request": request, "response": {"env": 1, **response}, "note": NOTE}


def _axioms(target: str, candidate: str) -> dict[str, Any]:
    request = {"header": HEADER, "accepted": [candidate], "names": [target]}
    data = f"'{target}' depends on axioms: [propext, Classical.choice, Quot.sound]"
    return {
        "kind": "axioms",
        "request": request,
        "response": {"env": 3, "messages": [_msg(1, 0, data, "info")]},
        "note": NOTE,
    }


def _probe(text: str, response: dict[str, Any], *, all_tactics: bool = False) -> dict[str, Any]:
    request = {"header": HEADER, "accepted": [], "text": text, "all_tactics": all_tactics}
    return {"kind": "command", "request": request, "response": {"env": 2, **response}, "note": NOTE}


def _confirm(query: str, limit: int, hidden: frozenset[str]) -> dict[str, Any]:
    names = [h.name for h in INDEX.search(query, limit=limit, hidden=hidden)]
    messages = [
        _msg(n, 0, f"@{name} : {INDEX.get(name).type}", "info")  # type: ignore[union-attr]
        for n, name in enumerate(names, start=1)
    ]
    return _probe("\n".join(f"#check @{n}" for n in names), {"messages": messages})


def _turn(obligation: str, turn: int, name: str, **arguments: Any) -> dict[str, Any]:
    result = RESULT if "." not in obligation else obligation.split(".", 1)[0]
    key = {"role": "prover", "result": result, "obligation": obligation, "attempt": 1, "turn": turn}
    call = {"id": f"call_{turn}", "name": name, "arguments": arguments}
    return {
        "key": key,
        "reply": {"text": "", "calls": [call], "tokens_in": 900 + 100 * turn, "tokens_out": 60},
        "note": NOTE,
    }


def renamed(count: int) -> list[dict[str, Any]]:
    """`count` obligations cycling through the four kinds, each of its own result `rK`:
    the synthetic paper of benchmarks/prover_loop.py."""
    out = []
    for k in range(count):
        ob = OBLIGATIONS[k % len(OBLIGATIONS)]
        old, new = ob["target"], f"r{k}_{ob['obligation']}"
        out.append(
            {
                key: (value.replace(old, new) if isinstance(value, str) else value)
                for key, value in ob.items()
            }
            | {"target": new, "obligation": f"r{k}.{ob['obligation']}", "kind": ob["obligation"]}
        )
    return out


def build(obligations: list[dict[str, Any]] = OBLIGATIONS) -> dict[str, list[dict[str, Any]]]:
    lean: list[dict[str, Any]] = []
    probe: list[dict[str, Any]] = []
    turns: list[dict[str, Any]] = []
    for ob in obligations:
        target, name = ob["target"], ob["obligation"]
        kind = ob.get("kind", name)
        hidden = frozenset({target})
        for rung in plan(ob["skeleton"], LADDER):
            if rung.tactic == ob.get("closes_with"):
                lean += [_check(rung.candidate, {}), _axioms(target, rung.candidate)]
                break
            failed = {"messages": [_msg(2, 2, f"{rung.tactic} failed to prove the goal")]}
            lean.append(_check(rung.candidate, failed))
        if ob.get("closes_with"):
            continue
        probe.append(_confirm(premise_query(ob["skeleton"], ob["step"]), PREMISES, hidden))
        if kind == "s_search":
            probe.append(_confirm(ob["query"], 8, hidden))
            unknown = {"messages": [_msg(1, 52, "Unknown identifier `max_le_left`")]}
            lean.append(_check(ob["guess"], unknown))
            probe.append(_probe(ob["guess"], unknown, all_tactics=True))
            lean += [_check(ob["proof"], {}), _axioms(target, ob["proof"])]
            turns += [
                _turn(name, 1, "search", query=ob["query"]),
                _turn(name, 2, "check", lean=ob["guess"]),
                _turn(name, 3, "check", lean=ob["proof"]),
            ]
        elif kind == "s_library":
            statement = "example (x : ℝ) : x + 1 ≤ Real.exp x := by\n  "
            probe += [
                _probe(
                    statement + "exact?",
                    {"messages": [_msg(2, 2, f"Try this: {ob['suggestion']}", "info")]},
                ),
                _probe(
                    statement + "apply?",
                    {"messages": [_msg(2, 2, "apply? could not close the goal")]},
                ),
                _probe(
                    statement + "rw?", {"messages": [_msg(2, 2, "rw? could not rewrite the goal")]}
                ),
            ]
            lean += [_check(ob["proof"], {}), _axioms(target, ob["proof"])]
            turns += [
                _turn(name, 1, "library", goal=ob["goal"]),
                _turn(name, 2, "check", lean=ob["proof"]),
            ]
        else:
            for turn in (1, 2, 3):
                tactic = (
                    "omega",
                    "simp",
                    "induction n with\n  | zero => simp\n  | succ n ih => omega",
                )[turn - 1]
                candidate = ob["skeleton"].replace("sorry", tactic)
                failed = {"messages": [_msg(2, 2, f"{tactic.split()[0]} failed")]}
                lean.append(_check(candidate, failed))
                probe.append(_probe(candidate, failed, all_tactics=True))
                turns.append(_turn(name, turn, "check", lean=candidate))
    answers = [
        {
            "result": RESULT,
            "obligation": ob["obligation"],
            "target": ob["target"],
            "skeleton": ob["skeleton"],
            "step": ob["step"],
            "expect": ob["expect"],
        }
        for ob in obligations
    ]
    return {
        "lean.jsonl": lean + probe,
        "turns.jsonl": turns,
        "answers.json": answers,
    }


def render(name: str, rows: list[dict[str, Any]]) -> str:
    if name.endswith(".json"):
        return (
            json.dumps(
                {"note": NOTE, "header": HEADER, "obligations": rows}, ensure_ascii=False, indent=2
            )
            + "\n"
        )
    return "".join(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n" for row in rows)


def main() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name, rows in build().items():
        (FOLDER / name).write_text(render(name, rows), encoding="utf-8")
    print(f"wrote {FOLDER}")


if __name__ == "__main__":
    main()
