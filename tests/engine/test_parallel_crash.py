"""Killed after any event of a `--jobs 4` run and resumed, a check ends where the serial run
ends, `paperlint validate` is clean, and no paid call is made more than twice (issue #14).

The same machinery as tests/engine/test_crash_resume.py (the failpoint, the fork server, the
sampled sweep with every other index under the `crash_sweep_full` marker). With four actions
in flight, a kill can cut up to four of them short; each is redone once by `resume`, so the
calls made exceed the uninterrupted run's by at most the jobs, and none is repeated twice.
The event at a given index differs between parallel runs (threads finish in any order); what
must not differ is the end.

As in the serial sweep, a sampled index is a real kill, and every other index resumes from a
snapshot that one `--jobs 4` run takes after each event (`snapshot-events:DIR`). It is taken
with every workspace write of the actions in flight held back (`paperlint.store.GATE`), so it
is a state a kill after that event can leave (not the same one as a given kill: no two
parallel runs write their events in the same order).
"""

import atexit
import fcntl
import functools
import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from tests.conftest import FULL_SWEEP, crash_seed
from tests.engine.conftest import EXAMPLES, check_argv, resume_then_validate, run_cli_forked
from tests.engine.test_crash_resume import (
    CRASHED,
    _events,
    _model_calls,
    crash_root,
    sample,
    snapshots,
)

JOBS = 4
__all__ = ["crash_root"]  # the fixture, shared with the serial sweep


@functools.cache
def parallel_reference(name: str) -> Path:
    """The `--jobs 4` run whose events the sweep enumerates (read at collection only).

    Its events come in any order, so its sample of indices may differ from one run to the
    next: under pytest-xdist every worker must collect the same items, so the workers share
    one run per example (the first to need it makes it, under a lock; the others read it)."""
    testrun = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if testrun is None:
        root = Path(tempfile.mkdtemp(prefix="paperlint-parallel-reference-"))
        atexit.register(shutil.rmtree, root, True)
        return _reference_run(name, root / name / "ws")
    # Every worker has collected before any of them exits, so the first to exit removes it.
    root = Path(tempfile.gettempdir()) / f"paperlint-parallel-reference-{testrun}"
    root.mkdir(exist_ok=True)
    atexit.register(shutil.rmtree, root, True)
    with (root / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = root / name / "done"
        if not done.exists():
            _reference_run(name, root / name / "ws")
            done.touch()
    return root / name / "ws"


def _reference_run(name: str, workdir: Path) -> Path:
    code = run_cli_forked(check_argv(name, workdir, jobs=JOBS))
    assert code in (0, 1, 4), f"{name}: the --jobs {JOBS} reference run exited {code}"
    return workdir


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "parallel_crash_index" not in metafunc.fixturenames:
        return
    params = []
    for name in EXAMPLES:
        events = _events(parallel_reference(name))
        sampled = sample(f"parallel:{name}", events, metafunc.config.stash[crash_seed])
        for index in range(1, len(events) + 1):
            marks = [] if index in sampled else [getattr(pytest.mark, FULL_SWEEP)]
            params.append(pytest.param(name, index, marks=marks, id=f"{name}-j{JOBS}-{index:03d}"))
    metafunc.parametrize(("name", "parallel_crash_index"), params)


def test_kill_a_parallel_run_after_event_then_resume(
    name, parallel_crash_index, finished_runs, crash_root, request
):
    serial, _ = finished_runs[name]
    at = f"{name} --jobs {JOBS}: killed after event {parallel_crash_index}"
    workdir = crash_root / f"{name}-j{JOBS}-{parallel_crash_index:04d}"
    data = str(crash_root / f"{name}-j{JOBS}-data-{parallel_crash_index:04d}")  # as serially
    if request.node.get_closest_marker(FULL_SWEEP) is None:  # sampled: a real kill
        failpoint = f"after-event:{parallel_crash_index}"
        code = run_cli_forked(
            check_argv(name, workdir, jobs=JOBS),
            PAPERLINT_FAILPOINT=failpoint,
            PAPERLINT_DATA_DIR=data,
        )
        assert code == CRASHED, f"{at}: the failpoint did not fire (exit {code})"
    else:
        at = f"{name} --jobs {JOBS}: resumed from a state after event {parallel_crash_index}"
        snapshot = snapshots(name, crash_root, JOBS) / str(parallel_crash_index)
        assert snapshot.is_dir(), f"{at}: the snapshotting run has no such event"
        shutil.copytree(snapshot, workdir, symlinks=True)
        shutil.rmtree(snapshot)
    code, validated = resume_then_validate(workdir, "--jobs", str(JOBS), PAPERLINT_DATA_DIR=data)
    assert code in (0, 1, 4), f"{at}: resume exited {code}"
    results = json.loads((workdir / "results.json").read_text())
    assert results == json.loads((serial / "results.json").read_text()), f"{at}: results differ"
    calls = _model_calls(_events(workdir))
    expected = _model_calls(_events(serial))  # a convergence re-gate asks an attempt again
    repeated = [k for k, n in calls.items() if n > expected.get(k, 0) + 1]
    assert not repeated, f"{at}: a model call was repeated more than once: {repeated}"
    assert sum(calls.values()) <= sum(expected.values()) + JOBS
    assert validated.code == 0, f"{at}: validate after resume:\n{validated.output}"
    shutil.rmtree(workdir)
    shutil.rmtree(data, ignore_errors=True)
