# ruff: noqa: E501
"""Per-obligation cost of the prove strategy: model turns, tool calls, prompt tokens, automation.

Runs offline on
  0. fixtures/tool-loop/ checked END TO END by the engine (`start_check … --replay`): per
     obligation, from the run's events, the model turns, tool calls and how it was closed, and
     the prompt tokens of every turn the engine's tool loop sent;
then `paperlint.prover.strategy.Prover` (automation ladder, then the tool loop) alone on
  1. the replayed example, fixtures/prover_replay/ (4 obligations, hand-written answers), and
  2. a synthetic 50-result paper: one obligation per result, cycling through the example's four
     kinds (automation / search-then-prove / library / budget-exhausted), each renamed.
Lean answers are the replay files (hand-written, illustrative), the model is the scripted
replay; so this measures the harness and the prompts, not a live model's skill. Prompt tokens
are characters / 4 of every message list sent (no tokenizer offline). The median prompt of the
first and last ten obligations shows whether prompts stay flat as the paper grows.

usage: python benchmarks/prover_loop.py [--results 50]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from paperlint.lean.extraction import read_extraction  # noqa: E402
from paperlint.lean.replay import ReplayVerifier  # noqa: E402
from paperlint.lean.verifier import LeanContext  # noqa: E402
from paperlint.prover.index import DeclIndex  # noqa: E402
from paperlint.prover.loop import LoopBudget, TurnLog  # noqa: E402
from paperlint.prover.model import Keep, ToolModel, ToolTurn, TurnKey  # noqa: E402
from paperlint.prover.strategy import ObligationTask, Prover  # noqa: E402
from tests.prover import build_prover_replay as fixture  # noqa: E402
from tests.prover.doubles import ScriptedToolModel  # noqa: E402


class Measuring:
    """A tool model, counting the characters of every prompt it is sent."""

    def __init__(self, inner: ToolModel) -> None:
        self.inner = inner
        self.replay = True
        self.prompt_chars: dict[str, list[int]] = {}

    def native(self, model: str) -> bool:
        return self.inner.native(model)

    def turn(
        self,
        model: str,
        messages: Sequence[Mapping[str, Any]],
        *,
        tools: Sequence[Mapping[str, Any]],
        key: TurnKey,
        keep: Keep,
    ) -> ToolTurn:
        size = sum(len(str(m.get("content") or "")) for m in messages) + len(json.dumps(tools))
        self.prompt_chars.setdefault(key.obligation, []).append(size)
        self.prompt_chars.setdefault(f"{key.obligation}@{key.result}", []).append(size)
        return self.inner.turn(model, messages, tools=tools, key=key, keep=keep)


def run(folder: Path, answers: list[dict[str, Any]], header: str) -> list[dict[str, Any]]:
    index = DeclIndex(read_extraction(ROOT / "fixtures" / "decl_index" / "extract.jsonl"))
    model = Measuring(ScriptedToolModel.load(folder / "turns.jsonl"))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        lean = ReplayVerifier(folder)  # its `lean.jsonl`: checks, axioms, probe commands
        prover = Prover(
            verifier=lean,
            probe=lean,
            model=model,
            model_name="paperlint-replay/prover",
            log=TurnLog(Path(tmp) / "turns.jsonl"),
            index=index,
            budget=LoopBudget(max_turns=3, max_tool_calls=24, max_wall_s=900.0),
        )
        later = [a["target"] for a in answers]
        for number, entry in enumerate(answers):
            result = (
                entry["obligation"].split(".", 1)[0]
                if "." in entry["obligation"]
                else entry["result"]
            )
            task = ObligationTask(
                result=result,
                obligation=entry["obligation"],
                attempt=1,
                skeleton=entry["skeleton"],
                target=entry["target"],
                step_text=entry["step"],
                context=LeanContext(header=header),
                hidden=frozenset(later[number:]),
            )
            outcome = prover.prove(task)
            sizes = model.prompt_chars.get(entry["obligation"], [])
            rows.append(
                {
                    "obligation": entry["obligation"],
                    "closed_by": outcome.closed_by.value if outcome.closed_by else "unfinished",
                    "model_turns": outcome.model_calls,
                    "tool_calls": outcome.loop.tool_calls if outcome.loop else 0,
                    "prompt_tokens": sum(sizes) // 4,
                    "first_prompt_tokens": (sizes[0] // 4) if sizes else 0,
                    "automation_rungs": len(outcome.automation.tried),
                }
            )
    return rows


def engine_run() -> list[dict[str, Any]]:
    """Check fixtures/tool-loop/ through the engine, measuring each prompt the loop sends."""
    import os

    import paperlint.engine.steps.toolloop as toolloop
    from paperlint.agents.runner import AgentRunner
    from paperlint.config import load_config
    from paperlint.engine.check import CheckRequest, start_check
    from paperlint.learning.userdata import ENV_VAR
    from paperlint.prover.model import AgentTurns

    fixture = ROOT / "fixtures" / "tool-loop"
    measured: list[Measuring] = []

    def measuring_turns(turns: AgentRunner) -> Measuring:
        measured.append(Measuring(AgentTurns(turns)))
        return measured[-1]

    toolloop.AgentTurns = measuring_turns  # type: ignore[assignment,misc]
    with tempfile.TemporaryDirectory() as tmp:
        os.environ[ENV_VAR] = str(Path(tmp) / "data")  # the run record stays out of $HOME
        request = CheckRequest(
            paper=fixture / "paper.tex",
            config=load_config(None, start=fixture).config,
            workdir=Path(tmp) / "ws",
            replay=fixture / "replay",
            report=False,
        )
        start_check(request)
        lines = (Path(tmp) / "ws" / "events.jsonl").read_text(encoding="utf-8").splitlines()
    toolloop.AgentTurns = AgentTurns  # type: ignore[misc]
    sizes: dict[str, list[int]] = {}
    for each in measured:  # one model per prove action
        for name, chars in each.prompt_chars.items():
            sizes.setdefault(name, []).extend(chars)
    rows = []
    for event in (json.loads(line) for line in lines):
        if event["type"] != "prover_finished":
            continue
        sent = sizes.get(event["obligation"] + "@" + event["result"], [])
        rows.append(
            {
                "obligation": f"{event['result']}/{event['obligation']}",
                "closed_by": event["closed_by"] or event["status"],
                "model_turns": event["model_turns"],
                "tool_calls": event["tool_calls"],
                "prompt_tokens": sum(sent) // 4,
                "first_prompt_tokens": (sent[0] // 4) if sent else 0,
            }
        )
    return rows


def report(title: str, rows: list[dict[str, Any]]) -> None:
    print(f"\n== {title}: {len(rows)} obligations")
    if len(rows) <= 8:
        for row in rows:
            print("  " + "  ".join(f"{k}={v}" for k, v in row.items()))
    closed = {
        k: sum(r["closed_by"] == k for r in rows)
        for k in ("automation", "search", "library", "model", "unfinished")
    }
    print(f"  endings: {closed}")
    for field in ("model_turns", "tool_calls", "prompt_tokens"):
        values = [r[field] for r in rows]
        print(
            f"  {field}: total {sum(values)}, median {statistics.median(values)}, max {max(values)}"
        )
    firsts = [r["first_prompt_tokens"] for r in rows if r["first_prompt_tokens"]]
    if len(firsts) >= 20:
        print(
            f"  median first prompt, first 10 vs last 10 model-using obligations: "
            f"{statistics.median(firsts[:10])} vs {statistics.median(firsts[-10:])} tokens"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=50)
    args = parser.parse_args()
    report("fixtures/tool-loop through the engine (replay; hand-written answers)", engine_run())
    key = json.loads((fixture.FOLDER / "answers.json").read_text(encoding="utf-8"))
    report(
        "replayed example (fixtures/prover_replay)",
        run(fixture.FOLDER, key["obligations"], key["header"]),
    )
    obligations = fixture.renamed(args.results)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        built = fixture.build(obligations)
        for name, rows in built.items():
            (folder / name).write_text(fixture.render(name, rows), encoding="utf-8")
        report(
            f"synthetic {args.results}-result paper",
            run(folder, built["answers.json"], fixture.HEADER),
        )


if __name__ == "__main__":
    main()
