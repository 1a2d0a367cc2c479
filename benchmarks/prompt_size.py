"""Prompt size must stay flat as papers grow: median prover prompt at 10 vs 200 results.

Builds synthetic papers (a chain of lemmas, each using the one before), writes a scripted
transcript for them, and runs `check` offline: the model is the scripted replay provider and
Lean answers come from the rule-based authoring verifier of `scripts/author_lean_replay.py`.
Prints, per size: model calls and prompt characters per result, and the median prompt size per
task. Tokens are estimated as characters / 4 (the replay has no tokenizer).

usage: python benchmarks/prompt_size.py [--sizes 10 200]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from author_lean_replay import AuthoringVerifier  # noqa: E402
from fixture_author import Transcript, audit_pass, fidelity, gate_pass  # noqa: E402

from paperlint.agents import scripted  # noqa: E402
from paperlint.config import Config  # noqa: E402
from paperlint.engine.check import CheckRequest, start_check  # noqa: E402


def paper(n: int) -> str:
    parts = [
        "\\documentclass{article}\\usepackage{amsmath,amsthm}",
        "\\newtheorem{lemma}{Lemma}[section]\\begin{document}\\section{Chain}",
    ]
    for k in range(1, n + 1):
        uses = f" Compare Lemma~\\ref{{lem:k{k - 1}}}." if k > 1 else ""
        again = f" As in Lemma~\\ref{{lem:k{k - 1}}}." if k > 1 else ""
        parts.append(
            f"\\begin{{lemma}}\\label{{lem:k{k}}}For every real $x$, $x - {k} \\le x + {k}$.{uses}"
            f"\\end{{lemma}}\\begin{{proof}}Since ${k} \\ge 0$, subtracting and adding {k} "
            f"keeps the order.{again}"
            "\\end{proof}"
        )
    parts.append("\\end{document}")
    return "\n".join(parts)


def transcript(n: int) -> Transcript:
    t = Transcript()
    for k in range(1, n + 1):
        rid, name = f"lem:k{k}", f"lem_k{k}"
        statement = f"theorem {name} (x : ℝ) : x - {k} ≤ x + {k} := by"
        t.add(
            "architect",
            "architect",
            rid,
            {
                "steps": [
                    {
                        "id": "s1",
                        "text": f"{k} ≥ 0",
                        "justification": "numerals",
                        "uses": [],
                        "citations": [],
                    }
                ],
                "cited_inputs": [],
                "asserted_facts": [],
            },
        )
        t.add(
            "drafter",
            "drafter",
            rid,
            {
                "lean_name": name,
                "statement": statement + "\n  sorry",
                "definitions": [],
                "fidelity": fidelity(conclusion="x - k ≤ x + k"),
                "conditions": [],
                "obligations": [],
                "ambiguity": None,
            },
        )
        t.add("gate", "gate", rid, gate_pass())
        t.add(
            "prover",
            "prover",
            rid,
            {"lean": statement + "\n  linarith", "notes": ""},
            obligation="main",
        )
        t.add("auditor", "auditor", rid, audit_pass("follows the paper"))
    return t


def measure(n: int) -> dict[str, Any]:
    sizes: dict[str, list[int]] = defaultdict(list)
    original = scripted.ScriptedClient.complete

    def complete(self: Any, model: str, messages: Any, *, metadata: Any) -> Any:
        task = metadata[scripted.METADATA_KEY]["task"]
        sizes[task].append(sum(len(m["content"]) for m in messages))
        return original(self, model, messages, metadata=metadata)

    scripted.ScriptedClient.complete = complete  # type: ignore[method-assign]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "paper.tex").write_text(paper(n))
        replay = folder / "replay"
        replay.mkdir()
        transcript(n).write(replay / "transcript.jsonl")
        verifier = AuthoringVerifier(replay / "lean.jsonl", {})

        summary = start_check(
            CheckRequest(
                paper=folder / "paper.tex",
                config=Config(),
                workdir=folder / "ws",
                replay=replay,
                verifier=verifier,
                report=False,
            )
        )
    scripted.ScriptedClient.complete = original  # type: ignore[method-assign]
    calls = sum(len(v) for v in sizes.values())
    chars = sum(sum(v) for v in sizes.values())
    return {
        "results": n,
        "verdicts": summary.counts,
        "calls_per_result": calls / n,
        "prompt_chars_per_result": chars / n,
        "est_tokens_per_result": chars / n / 4,
        "median_chars": {task: statistics.median(v) for task, v in sorted(sizes.items())},
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 200])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [measure(n) for n in args.sizes]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    for row in rows:
        print(f"{row['results']} results: verdicts {row['verdicts']}")
        print(
            f"  model calls per result: {row['calls_per_result']:.2f}; "
            f"prompt chars per result: {row['prompt_chars_per_result']:.0f} "
            f"(~{row['est_tokens_per_result']:.0f} tokens)"
        )
        for task, median in row["median_chars"].items():
            print(f"  median {task:<13} prompt: {median:>7.0f} chars")
    small, large = rows[0]["median_chars"]["prover"], rows[-1]["median_chars"]["prover"]
    change = (large - small) / small * 100
    print(
        f"median prover prompt: {small:.0f} -> {large:.0f} chars ({change:+.1f}%); "
        f"{'flat (< 20%)' if abs(change) < 20 else 'NOT flat'}"
    )


if __name__ == "__main__":
    main()
