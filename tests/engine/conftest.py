import atexit
import functools
import json
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

# Imported once here so the forked children below share them (a replay never imports litellm).
import paperlint.agents.scripted
import paperlint.engine.check  # noqa: F401
from tests import forkserver

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p.parent.name for p in (ROOT / "fixtures").glob("*/answer-key.json"))


def example(name: str) -> Path:
    return ROOT / "fixtures" / name


def check_example(name: str, workdir: Path, jobs: int, **config):
    """A replayed check of the example `name` at `jobs` actions at once, with the fixture's own
    paperlint.toml, if any, as `paperlint check` reads it (tool-loop has one)."""
    from paperlint.config import load_config
    from paperlint.engine.check import CheckRequest, start_check
    from paperlint.engine.executors import RunOptions

    fixture = example(name)
    return start_check(
        CheckRequest(
            paper=fixture / "paper.tex",
            config=load_config(None, start=fixture, cli=config).config,
            workdir=workdir,
            replay=fixture / "replay",
            report=False,
            run=RunOptions(jobs=jobs),
        )
    )


def events_of(workdir: Path) -> list[dict]:
    return [json.loads(x) for x in (workdir / "events.jsonl").read_text().splitlines()]


def action_key(event: dict) -> str:
    """An `action_started` or `action_finished` event's action, as one comparable string."""
    return json.dumps(event["action"], sort_keys=True)


def run_cli_forked(argv: list[str], **env: str) -> int:
    """Run the CLI in a child forked from a warm server (tests/forkserver.py); its exit code.

    A failpoint makes the child die with `os._exit(77)`, like a power cut. What the child
    printed goes to this test's captured stderr."""
    return _relayed(forkserver.server().run(argv, env)).code


def _relayed(child: forkserver.ChildRun) -> forkserver.ChildRun:
    """`child`, after what it printed went to this test's captured stderr."""
    if sys.__stderr__ is not None:
        sys.__stderr__.write(child.output)
    return child


def resume_then_validate(workdir: Path, *args: str, **env: str) -> tuple[int, forkserver.ChildRun]:
    """`paperlint resume WORKDIR ARGS` (with `env`), then `paperlint validate WORKDIR` with the
    environment it would have on its own, both in one child of the warm server (one fork
    instead of two: each command reads the workspace afresh, and the warm server has run both
    already). The resume's exit code, and what the validation exited with and printed."""
    resumed, *validated = forkserver.server().run_in_turn(
        [(["resume", str(workdir), *args], env), (["validate", str(workdir)], {})]
    )
    _relayed(resumed)
    assert validated, f"{workdir}: the child died in the resume (exit {resumed.code})"
    return resumed.code, validated[0]


def check_argv(name: str, workdir: Path, jobs: int = 1) -> list[str]:
    fixture = example(name)
    return [
        "check",
        str(fixture / "paper.tex"),
        "--replay",
        str(fixture / "replay"),
        "--workdir",
        str(workdir),
        "--jobs",
        str(jobs),
    ]


def verdicts(workdir: Path) -> dict[str, dict[str, object]]:
    data = json.loads((workdir / "results.json").read_text())
    return {
        r["id"]: {"verdict": r["verdict"], "class": (r["issue"] or {}).get("class")}
        for r in data["results"]
        if r["verdict_bearing"]
    }


_REFERENCES: list[Path] = []


@functools.cache
def reference_run(name: str) -> tuple[Path, int]:
    """One uninterrupted replay run of an example, made once per session: the crash sweep
    reads its events at collection, and the tests below compare with its records."""
    if not _REFERENCES:
        _REFERENCES.append(Path(tempfile.mkdtemp(prefix="paperlint-reference-")))
        atexit.register(shutil.rmtree, _REFERENCES[0], True)
    workdir = _REFERENCES[0] / name / "ws"
    code = run_cli_forked(check_argv(name, workdir))
    return workdir, code


@pytest.fixture(scope="session")
def finished_runs():
    """One uninterrupted replay run per example, shared by the tests that compare with it."""
    return {name: reference_run(name) for name in EXAMPLES}


def settings(**changes):
    """The steps' settings a default config derives (`engine.opening.derive`), with `changes`."""
    from dataclasses import replace

    from paperlint.config import Config
    from paperlint.engine.opening import Learned, Models, derive
    from paperlint.spec import spec_for

    derived, _ = derive(spec_for(Config(), ROOT / "paper.tex"), Models({}, ()), Learned())
    return replace(derived, **changes)


def answers_of(text: str) -> list[object]:
    """A transcript's answers without the prompt hashes `scripts/stamp_prompts.py` adds, a
    copy of an answer stamped for a key's other question counted once: what an authoring
    script's output is compared by (it writes answers; the stamp comes after)."""
    from paperlint.agents.transcript import HASH_FIELDS, TranscriptEntry

    hashes = dict.fromkeys(HASH_FIELDS)
    found: list[object] = []
    for line in text.splitlines():
        entry = TranscriptEntry.model_validate_json(line).model_copy(update=hashes)
        if entry not in found:
            found.append(entry)
    return found
