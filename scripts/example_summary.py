#!/usr/bin/env python3
"""The last line of `./dev example`: what the check concluded, against the answer key.

    python scripts/example_summary.py WORKDIR FIXTURE

Reads WORKDIR/results.json and FIXTURE/answer-key.json and prints one plain sentence: the
verdicts, and whether each is the one the key expects (a verdict and, for an issue, its
class). Exit 0 when every keyed result matches, 1 when one does not (each is named).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

WORDS = {
    "verified_unconditional": "verified unconditionally",
    "verified_conditional": "verified conditionally",
    "issue": "with an issue recorded",
    "unfinished": "unfinished",
    None: "with no verdict yet",
}


def summary(results: dict[str, Any], key: dict[str, Any]) -> tuple[str, list[str]]:
    """The sentence, and the keyed results whose verdict differs (`id: expected, got`)."""
    found = {}
    for record in results["results"]:
        issue = record.get("issue") or {}
        found[record["id"]] = (record.get("verdict"), issue.get("class"))
    bearing = [r["id"] for r in results["results"] if r.get("verdict_bearing", True)]
    counts = Counter(found[rid][0] for rid in bearing)
    said = ", ".join(f"{counts[v]} {WORDS[v]}" for v in WORDS if counts[v])
    wrong = []
    for rid, want in key.items():
        got = found.get(rid, (None, None))
        if (got[0], got[1]) != (want["verdict"], want.get("class")):
            wrong.append(f"{rid}: expected {want['verdict']} {want.get('class') or ''}".rstrip())
    return f"{len(bearing)} results checked, {said or 'none with a verdict'}", wrong


def main(argv: list[str]) -> int:
    workdir, fixture = Path(argv[0]), Path(argv[1])
    results = json.loads((workdir / "results.json").read_text(encoding="utf-8"))
    key = json.loads((fixture / "answer-key.json").read_text(encoding="utf-8"))
    sentence, wrong = summary(results, key)
    report = workdir / "report" / "report.html"
    if wrong:
        print(f"The example's verdicts differ from its answer key ({'; '.join(wrong)}).")
        print(f"{sentence}. Report: {report}")
        return 1
    print(f"The example ran as its answer key says: {sentence}. Report: {report}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
