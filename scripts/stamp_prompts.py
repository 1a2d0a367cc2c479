"""Stamp the prompt hashes into the fixtures' hand-authored transcripts.

A replayed answer is served only for the question it was recorded for (docs/design.md §6): an
entry's `inputs_sha256` (a tool-loop turn's `prompt_sha256`) must equal the prompt asked. A
hand-authored entry starts without hashes; this script runs the flow each replay folder is
made for (a check, or a check of version 1, a revision and a resume), on a copy of the folder
with its hashes cleared, and writes the hashes that run asked into the fixture's transcript.

Run it after authoring a transcript (each `fixtures/*/replay/author.py` does), and after a
deliberate change of what prompts hold (a new template input, a reworded Lean message): the
fixtures then answer the new questions. A change that was not meant shows as replay misses in
the tests, before anyone re-stamps.

usage: python scripts/stamp_prompts.py [REPLAY_DIR ...]   (default: every fixture)
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "fixtures"
V1 = FIXTURES / "sample-variance"


@dataclass(frozen=True)
class Flow:
    """How a replay folder is used: checked directly (`paper`), or served to the `resume`
    after revising a check of `base` (with its replay) to `paper`; `before` runs first (in
    the flow's own user data folder)."""

    replay: Path
    paper: Path
    base: Path | None = None
    before: Callable[[Path], None] | None = None
    options: tuple[str, ...] = ()  # of the check (`--until planned` asks other questions)


def _promoted_lemma(tmp: Path) -> None:
    """The library-reuse story: a lemma of the example's check, promoted into the library."""
    from paperlint.cli.root import run

    ws = tmp / "example"
    run(
        ["check", str(V1 / "paper.tex"), "--replay", str(V1 / "replay"), "--workdir", str(ws), "-q"]
    )
    run(["library", "promote", str(ws), "lem_mean_max_s1", "--yes"])


def flows() -> list[Flow]:
    found = [
        Flow(key.parent / "replay", key.parent / "paper.tex")
        for key in sorted(FIXTURES.glob("*/answer-key.json"))
    ]
    # planned only: an architect asked before its dependency's definition is drafted
    found.append(Flow(V1 / "replay", V1 / "paper.tex", options=("--until", "planned")))
    reuse = FIXTURES / "library-reuse"
    found.append(Flow(reuse / "replay", reuse / "paper.tex", before=_promoted_lemma))
    v2 = FIXTURES / "sample-variance-v2"
    found.append(Flow(v2 / "replay-full", v2 / "paper.tex"))
    # no answer key (that would add it to the parametrized fixture tests): listed by hand
    unlabelled = FIXTURES / "unlabelled-renumbered"
    found.append(Flow(unlabelled / "replay", unlabelled / "paper.tex"))
    # its second revision: version 1 checked with `replay/`, revised to `revised-proof.tex`
    found.append(
        Flow(unlabelled / "replay-proof", unlabelled / "revised-proof.tex", base=unlabelled)
    )
    # a result whose proof (not statement) refers to a lemma, and a revision renaming that
    # lemma's label: version 1 checked with `replay/`, then revised to `renamed.tex`
    proof_user = FIXTURES / "proof-user"
    found.append(Flow(proof_user / "replay", proof_user / "paper.tex"))
    found.append(Flow(proof_user / "replay-renamed", proof_user / "renamed.tex", base=proof_user))
    for revised in sorted(FIXTURES.glob("sample-variance-*/replay/author.py")):
        folder = revised.parent.parent
        if not (folder / "answer-key.json").exists():
            found.append(Flow(folder / "replay", folder / "paper.tex", base=V1))
    return found


def cleared_copy(replay: Path, target: Path) -> Path:
    """`replay` copied to `target` with its answers' hashes removed (`unstamped`)."""
    from paperlint.agents.transcript import unstamped

    shutil.copytree(replay, target)
    transcript = target / "transcript.jsonl"
    rows = [json.loads(line) for line in transcript.read_text(encoding="utf-8").splitlines()]
    body = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in unstamped(rows))
    transcript.write_text(body, encoding="utf-8")
    return target


def _run(argv: list[str]) -> None:
    from paperlint.cli.root import run

    code = run(argv)
    if code not in (0, 1, 4):  # a verdict; anything else is a failed flow
        raise SystemExit(f"`paperlint {' '.join(argv)}` exited {code}")


def events_asked(flow: Flow, tmp: Path) -> list[dict[str, Any]]:
    """The `model_call` events the flow's run of this replay folder wrote."""
    replay = cleared_copy(flow.replay, tmp / "replay")
    ws = tmp / "ws"
    if flow.before is not None:
        flow.before(tmp)
    if flow.base is None:
        argv = ["check", str(flow.paper), "--replay", str(replay), "--workdir", str(ws), "-q"]
        _run([*argv, *flow.options])
    else:
        base = ["check", str(flow.base / "paper.tex"), "--replay", str(flow.base / "replay")]
        _run([*base, "--workdir", str(ws), "-q"])
        _run(["revise", str(ws), str(flow.paper), "--replay", str(replay)])
        _run(["resume", str(ws), "-q"])
    events = list(_events(ws / "events.jsonl"))
    if flow.base is not None:  # only what the resume asked, after the revision
        starts = [i for i, e in enumerate(events) if e.get("type") == "revision"]
        events = events[starts[-1] + 1 :] if starts else []
    return [e for e in events if e.get("type") == "model_call"]


def _events(path: Path) -> Iterator[dict[str, Any]]:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            yield json.loads(line)


def stamp(replay: Path, uses: Sequence[Flow]) -> tuple[int, int]:
    """Stamp one folder from every flow that uses it; (entries changed, entries never asked)."""
    from paperlint.agents.transcript import Transcript, stamp_prompt_hashes

    events: list[dict[str, Any]] = []
    for flow in uses:
        with tempfile.TemporaryDirectory(prefix="paperlint-stamp-") as name:
            tmp = Path(name)
            os.environ["PAPERLINT_DATA_DIR"] = str(tmp / "data")  # no user's record or library
            os.environ["PAPERLINT_CONFIG_DIR"] = str(tmp / "config")  # nor the user's config
            events += events_asked(flow, tmp)
    path = replay / "transcript.jsonl"
    before = len(Transcript.load(path))
    changed = stamp_prompt_hashes(path, events)
    after = Transcript.load(path).entries()
    if len(after) > before:
        added = len(after) - before
        print(f"{path.relative_to(REPO)}: {added} answers copied for a key's next question")
    unasked = sum(1 for e in after if e.prompt_sha256 is None)
    return changed, unasked


def main(argv: Sequence[str]) -> int:
    wanted = {Path(a).resolve() for a in argv}
    by_folder: dict[Path, list[Flow]] = {}
    for flow in flows():
        if not wanted or flow.replay.resolve() in wanted:
            by_folder.setdefault(flow.replay, []).append(flow)
    if wanted and len(by_folder) != len(wanted):
        known = ", ".join(sorted({str(f.replay.relative_to(REPO)) for f in flows()}))
        print(f"unknown replay folder; known: {known}", file=sys.stderr)
        return 2
    bad = 0
    for replay, uses in by_folder.items():
        changed, unasked = stamp(replay, uses)
        print(f"{replay.relative_to(REPO)}: {changed} entries stamped, {unasked} never asked")
        bad += unasked
    return 1 if bad else 0


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    raise SystemExit(main(sys.argv[1:]))
