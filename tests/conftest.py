import os
import random
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parents[1]


def checkout_files(*under: str) -> list[str]:
    """This checkout's files (under the given folders), committed or not; ignored ones (.venv,
    builds, lean-project/.lake) left out."""
    import subprocess

    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z", *under],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\0")
    return [name for name in listed if name and (ROOT / name).is_file()]


def copy_checkout(dest: Path) -> Path:
    """`checkout_files()` copied to `dest`: what a clone with the working tree's changes
    would hold."""
    for name in checkout_files():
        (dest / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, dest / name)
    return dest


# Hypothesis, for every property test here: the default 100 examples, a deadline that a
# shared 2-core machine keeps, no example database (a failure prints the example and its
# @reproduce_failure line). HYPOTHESIS_PROFILE=thorough runs 50 times more, for a hunt.
settings.register_profile("paperlint", deadline=1000, database=None)
settings.register_profile("thorough", parent=settings.get_profile("paperlint"), max_examples=5000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "paperlint"))


# No test writes into the real per-user data folder (the run record, the lemma library): the
# whole session, module-scoped fixtures and subprocesses included, gets a fresh one, and each
# test its own (the `data_dir` fixture below).
os.environ["PAPERLINT_DATA_DIR"] = tempfile.mkdtemp(prefix="paperlint-test-data-")
# Nor is the real user's config read: the user config folder is an empty one of the session's.
os.environ["PAPERLINT_CONFIG_DIR"] = tempfile.mkdtemp(prefix="paperlint-test-config-")
# Every command a test starts ends with INTERNAL if it left a file open for writing: its exit
# without teardown would lose the file's buffered tail (`paperlint.cli.boundary.CHECK_EXIT`).
os.environ["PAPERLINT_CHECK_EXIT"] = "1"


@pytest.fixture(autouse=True)
def data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own per-user data folder: nothing is written to the real home."""
    folder = tmp_path_factory.mktemp("userdata")
    monkeypatch.setenv("PAPERLINT_DATA_DIR", str(folder))
    return folder


@pytest.fixture
def repo_root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def lean_oracle() -> Path:
    """A real Lean 4.35.0 executable (scripts/lean_oracle.py, docs/lean-oracle.md): the oracle
    for what Lean itself does on files that begin with `prelude`. `./dev test` builds it and
    names it in PAPERLINT_LEAN_ORACLE; otherwise it is built here (cached). Where it cannot be
    built, the tests that ask for it skip, saying why."""
    named = os.environ.get("PAPERLINT_LEAN_ORACLE")
    if named:
        return Path(named)
    import importlib.util

    script = ROOT / "scripts" / "lean_oracle.py"
    spec = importlib.util.spec_from_file_location("lean_oracle", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    try:
        return Path(module.ensure())
    except module.OracleUnavailable as why:
        pytest.skip(f"no real Lean here: {why}")


@pytest.fixture
def no_lean(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An environment in which no Lean can run, whatever this machine has installed.

    Every place paperlint looks for Lean is pointed at an empty folder: a copy of the pinned
    Lake project without its manifest or build, no `lake` binary (an absolute path that does
    not exist, so PATH is never searched), no REPL, no elan toolchains. Tests that need "no
    Lean" ask for this instead of editing PATH or trusting that this machine has none.
    Returns the project folder.
    """
    home = tmp_path_factory.mktemp("no-lean")
    project = home / "lean-project"
    project.mkdir()
    for name in ("lean-toolchain", "lakefile.toml"):
        shutil.copy2(ROOT / "lean-project" / name, project / name)
    monkeypatch.setenv("PAPERLINT_LEAN_PROJECT", str(project))
    monkeypatch.setenv("PAPERLINT_LAKE", str(home / "absent" / "lake"))
    monkeypatch.setenv("PAPERLINT_REPL_DIR", str(home / "repl"))
    monkeypatch.setenv("PAPERLINT_LEAN_CACHE", str(home / "cache"))
    monkeypatch.setenv("ELAN_HOME", str(home / "elan"))
    from paperlint.lean.doctor import lean_ready
    from paperlint.lean.pins import locate

    ready, _ = lean_ready(locate())
    assert not ready, "the no-Lean environment must leave Lean unusable"
    return project


@pytest.fixture(scope="session")
def ray_session():
    """One local Ray cluster per test process for every real-Ray test, started and stopped as
    `check --executor ray` does (`executors.ray_cluster`: no dashboard, worker logs kept off
    the output). Starting one costs seconds, so the tests share it: `ray_run` and `batch` join
    a cluster this process already has, and leave it running. (Under xdist each worker that
    runs one of them starts its own: `--dist loadgroup` did not group them with the pinned
    pytest-xdist 3.8.0 here.)"""
    from paperlint.engine.executors import RunOptions, ray_cluster

    ray = pytest.importorskip(
        "ray", reason="Ray is an optional extra: pip install 'paperlint[ray]'"
    )
    assert not ray.is_initialized()
    with ray_cluster(RunOptions(executor="ray")):
        assert ray.is_initialized()
        yield ray
    assert not ray.is_initialized()  # started here, so stopped here


# --- the crash sweep's sample (tests/engine/test_crash_resume.py) ---------------------------
# The default run kills a check after a sample of its events; the seed of the random part is
# drawn once per session and printed, and PAPERLINT_CRASH_SEED=N draws the same sample again.
# The indices left out carry the `crash_sweep_full` marker and are deselected unless the -m
# expression names that marker (.ci/run does: every index runs there).
CRASH_SEED_ENV = "PAPERLINT_CRASH_SEED"
FULL_SWEEP = "crash_sweep_full"
crash_seed = pytest.StashKey[int]()
crash_samples = pytest.StashKey[dict[str, list[int]]]()


def pytest_configure(config: pytest.Config) -> None:
    raw = os.environ.get(CRASH_SEED_ENV, "").strip()
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None:  # a pytest-xdist worker: the controller's seed, so every
        seed = int(workerinput[CRASH_SEED_ENV])  # worker draws the same sample
    else:
        seed = int(raw) if raw else random.SystemRandom().randrange(1 << 32)
    config.stash[crash_seed] = seed
    config.stash[crash_samples] = {}


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """pytest-xdist (`-n`, which .ci/run passes): each worker gets the controller's seed."""
    node.workerinput[CRASH_SEED_ENV] = str(node.config.stash[crash_seed])


def pytest_report_header(config: pytest.Config) -> str:
    seed = config.stash[crash_seed]
    return f"crash sweep: sampled with seed {seed} ({CRASH_SEED_ENV}={seed} repeats it)"


FULL_MATRIX = "fault_matrix_full"
"""The live fault matrix's cases outside its representative subset
(tests/live/test_fault_matrix.py): deselected unless the -m expression names the marker."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    named = config.option.markexpr or ""
    for marker in (FULL_SWEEP, FULL_MATRIX):
        if marker in named:
            continue
        left_out = [item for item in items if item.get_closest_marker(marker) is not None]
        if left_out:
            config.hook.pytest_deselected(items=left_out)
            items[:] = [item for item in items if item.get_closest_marker(marker) is None]


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    samples = config.stash[crash_samples]
    if not samples:
        return
    seed = config.stash[crash_seed]
    full = FULL_SWEEP in (config.option.markexpr or "")
    terminalreporter.section("crash sweep")
    for name, indices in sorted(samples.items()):
        terminalreporter.write_line(f"{name}: sampled events {indices}")
    terminalreporter.write_line(
        f"seed {seed}: {CRASH_SEED_ENV}={seed} repeats this sample; "
        + (
            "every other index ran too (-m names crash_sweep_full)"
            if full
            else f"-m '{FULL_SWEEP} or not {FULL_SWEEP}' runs every index"
        )
    )
