import json
import multiprocessing
import os
from pathlib import Path

import pytest

# Imported once here so the forked children below share it instead of each paying for
# litellm's slow import.
import paperlint.agents.scripted
import paperlint.engine.check  # noqa: F401

paperlint.agents.scripted.register_provider()  # imports litellm, once, before any fork

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p.parent.name for p in (ROOT / "fixtures").glob("*/answer-key.json"))


def example(name: str) -> Path:
    return ROOT / "fixtures" / name


def _child(argv: list[str], env: dict[str, str]) -> None:
    os.environ.update(env)
    from paperlint.cli.root import run

    code = run(argv)
    os._exit(code)


def run_cli_forked(argv: list[str], **env: str) -> int:
    """Run the CLI in a forked child (cheap: imports are shared) and return its exit code.

    A failpoint makes the child die with `os._exit(77)`, like a power cut."""
    ctx = multiprocessing.get_context("fork")
    proc = ctx.Process(target=_child, args=(argv, env))
    proc.start()
    proc.join(120)
    assert proc.exitcode is not None, "the child did not finish"
    return proc.exitcode


def check_argv(name: str, workdir: Path) -> list[str]:
    fixture = example(name)
    return [
        "check",
        str(fixture / "paper.tex"),
        "--replay",
        str(fixture / "replay"),
        "--workdir",
        str(workdir),
    ]


def verdicts(workdir: Path) -> dict[str, dict[str, object]]:
    data = json.loads((workdir / "results.json").read_text())
    return {
        r["id"]: {"verdict": r["verdict"], "class": (r["issue"] or {}).get("class")}
        for r in data["results"]
        if r["verdict_bearing"]
    }


@pytest.fixture(scope="session")
def finished_runs(tmp_path_factory):
    """One uninterrupted replay run per example, shared by the tests that compare with it."""
    runs = {}
    for name in EXAMPLES:
        workdir = tmp_path_factory.mktemp(name) / "ws"
        code = run_cli_forked(check_argv(name, workdir))
        runs[name] = (workdir, code)
    return runs
