"""`paperlint setup`: provision the toolchain, Mathlib and the REPL, on a networked machine.

Explicit commands, each printed before it runs (docs/lean-notes.md §8, §13.3):

1. `elan toolchain install <pin>` (elan must already be installed: paperlint never pipes a
   script into `sh` and never edits shell rc files);
2. `lake update` in lean-project/ (writes lake-manifest.json: commit it);
3. `lake exe cache get` (Mathlib's prebuilt .olean files), then `lake build`;
4. `git clone --depth 1 --branch <fork tag>` of lean-interact's REPL fork into the directory
   lean-interact's own git path would use, a toolchain check, then `lake build` there;
5. `lake env lean --run PaperLint/Extract.lean <cache>/declarations/extract.jsonl`: the
   prover's declaration index (paperlint.lean.extraction), skipped once it exists;
6. `lake build paperlint_checker`: the trusted checker every verdict rests on (issue #25,
   docs/checker.md). Its kernel replay replaces the separate lean4checker clone an earlier
   version set up: that repository is deprecated (`leanchecker` ships with Lean since 4.28)
   and has no tag for this toolchain.

Offline (no route to github.com) it stops before doing anything and says so.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from paperlint.errors import LeanSetupError
from paperlint.lean.extraction import extract_command, index_file
from paperlint.lean.pins import (
    CHECKER_EXE,
    REPL_GIT_URL,
    LeanPaths,
    build_dir,
    read_pins,
    read_toolchain,
)

NETWORK_PROBE = ("github.com", 443)


@dataclass(frozen=True)
class SetupStep:
    what: str
    cmd: tuple[str, ...]
    cwd: Path
    timeout_s: float
    skip_if: Path | None = None  # already done when this path exists


def has_network(host: str = NETWORK_PROBE[0], port: int = NETWORK_PROBE[1]) -> bool:
    try:
        with socket.create_connection((host, port), timeout=5):
            return True
    except OSError:
        return False


def plan(paths: LeanPaths, *, pinned: Path | None = None) -> list[SetupStep]:
    """The steps, run in `paths.project`; the pins are read there, or in `pinned` (a dry run
    plans in the user's folder before the bundled project, which holds them, is copied)."""
    pins = read_pins(pinned or paths.project)
    if pins.toolchain is None or pins.repl_tag is None:
        raise LeanSetupError(f"no lean-toolchain in {paths.project}")
    project = paths.project
    return [
        SetupStep(
            "install the pinned toolchain",
            ("elan", "toolchain", "install", pins.toolchain),
            project,
            1800,
        ),
        SetupStep("resolve Mathlib (writes lake-manifest.json)", ("lake", "update"), project, 3600),
        SetupStep("fetch Mathlib's .olean files", ("lake", "exe", "cache", "get"), project, 3600),
        SetupStep("build lean-project/", ("lake", "build"), project, 7200),
        SetupStep(
            "build the trusted checker (docs/checker.md)",
            ("lake", "build", CHECKER_EXE),
            project,
            3600,
        ),
        SetupStep(
            f"clone the REPL fork at {pins.repl_tag}",
            (
                "git",
                "clone",
                "--depth",
                "1",
                "--branch",
                pins.repl_tag,
                REPL_GIT_URL,
                str(paths.repl_dir),
            ),
            paths.cache,
            600,
            skip_if=paths.repl_dir / "lean-toolchain",
        ),
        SetupStep("build the REPL", ("lake", "build"), paths.repl_dir, 3600),
        # The prover's declaration index (issue #13): our own PaperLint/Extract.lean, once.
        SetupStep(
            "extract the declaration index",
            extract_command(paths),
            project,
            3600,
            skip_if=index_file(paths),
        ),
    ]


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _default_runner(step: SetupStep) -> int:
    return subprocess.run(list(step.cmd), cwd=step.cwd, timeout=step.timeout_s).returncode


def run_setup(
    paths: LeanPaths,
    *,
    dry_run: bool = False,
    network: Callable[[], bool] = has_network,
    runner: Callable[[SetupStep], int] = _default_runner,
) -> int:
    """Run the plan; 0 when every step succeeded. Fails fast when elan or the network is missing."""
    source = paths.project
    paths = writable_project(paths, dry_run=dry_run)
    steps = plan(paths, pinned=source)
    if dry_run:
        for step in steps:
            _say(f"would run in {step.cwd}: {' '.join(step.cmd)}   # {step.what}")
        return 0
    if shutil.which("elan") is None:
        _say(
            "paperlint setup needs elan, the Lean version manager, and will not install it "
            "for you.\n  Debian/Ubuntu: apt-get install elan\n  elsewhere: download "
            "elan-init from https://github.com/leanprover/elan/releases, read it, run it.\n"
            "Then run `paperlint setup` again. (paperlint never pipes a script into sh and "
            "never edits your shell rc files.)"
        )
        return 1
    if not network():
        _say(
            f"no network route to {NETWORK_PROBE[0]}: setup downloads the toolchain, Mathlib "
            "and the REPL once, so run it on a networked machine, then copy ~/.elan, "
            f"{paths.project}/.lake and {paths.cache} here. Nothing was changed."
        )
        return 1
    return _run_steps(paths, steps, runner)


def writable_project(paths: LeanPaths, *, dry_run: bool = False) -> LeanPaths:
    """Lake writes into its project (`.lake/`, the manifest); the copy bundled in the installed
    package may be read-only, so it is copied to the per-user folder first (`build_dir`). A dry
    run says so and plans in that folder too, so it names the folders a real run uses."""
    target = build_dir(paths.project)
    if target == paths.project:
        return paths
    verb = "would copy" if dry_run else "copying"
    _say(f"{verb} the bundled Lake project {paths.project} to {target}")
    if not dry_run:
        shutil.copytree(paths.project, target, dirs_exist_ok=True, ignore=_not_project_files)
    return replace(paths, project=target)


def _not_project_files(folder: str, names: list[str]) -> list[str]:
    return [name for name in names if name in ("__pycache__", ".lake")]


def _run_steps(
    paths: LeanPaths, steps: Sequence[SetupStep], runner: Callable[[SetupStep], int]
) -> int:
    paths.cache.mkdir(parents=True, exist_ok=True)
    for step in steps:
        if step.skip_if is not None and step.skip_if.exists():
            _say(f"skip: {step.what} (already there: {step.skip_if})")
            continue
        if step.cmd[:2] == ("lake", "build") and step.cwd == paths.repl_dir:
            # lean-interact only warns on a mismatch; .olean files would then fail to load.
            theirs, ours = read_toolchain(paths.repl_dir), read_toolchain(paths.project)
            if theirs != ours:
                _say(f"the REPL checkout pins {theirs}, the project {ours}: refusing to mix")
                return 1
        _say(f"$ (cd {step.cwd} && {' '.join(step.cmd)})   # {step.what}")
        try:
            code = runner(step)
        except (OSError, subprocess.TimeoutExpired) as exc:
            _say(f"failed: {step.what}: {exc}")
            return 1
        if code != 0:
            _say(f"failed: {step.what} (exit {code}); fix it and run `paperlint setup` again")
            return code or 1
    _say("setup done; commit lean-project/lake-manifest.json, then run `paperlint doctor`")
    return 0
