"""Killed after any event and resumed, a run ends exactly where an uninterrupted run ends,
and `paperlint validate` finds nothing to disagree with (issue #12).

One test item per (example, event index). By default the sweep is sampled: the first event
of every kind (its type, with the action's or Lean check's kind), the last event, the known
failures below, and a random sample of the other indices drawn from the session's seed
(pytest's header and summary print it; PAPERLINT_CRASH_SEED=N draws the same sample). The
other indices carry the `crash_sweep_full` marker; `-m "crash_sweep_full or not
crash_sweep_full"`, which .ci/run passes, runs every index.

The workspaces live on a tmpfs where there is one: a child killed with `os._exit` leaves the
page cache as it was, so what is on the file system after the kill is the same, and the
workspace's fsyncs (most of a run's time on a disk) cost nothing.

A sampled index is a real kill (the failpoint `after-event:N`), and the state it leaves is
also compared, file by file, with a snapshot of the workspace the same run takes at that
point (`snapshot-events:DIR`, paperlint/records/failpoint.py): one serial run copies its
workspace after every event. Every other index resumes from that snapshot instead of
running the check up to the kill again, which made the sweep quadratic in the run's length;
the resume, the comparison with the uninterrupted run and `validate` are the same.
"""

import functools
import json
import random
import shutil
import tempfile
from collections import Counter
from pathlib import Path

import pytest

from tests import forkserver
from tests.conftest import FULL_SWEEP, crash_samples, crash_seed
from tests.engine.conftest import (
    EXAMPLES,
    check_argv,
    reference_run,
    resume_then_validate,
    run_cli_forked,
)

CRASHED = 77
RANDOM_PER_EXAMPLE = 4
# (example, index) -> reason, for a known defect: such an index is always sampled and marked
# xfail(strict=True), so the test flips when the defect is fixed. Empty: the 16 kills between
# an action's three end events that left verdict-event-mismatch (issue #12) validate clean
# since the end of an action is one event line.
KNOWN_FAILURES: dict[tuple[str, int], str] = {}


def _events(workdir: Path) -> list[dict]:
    lines = (workdir / "events.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def event_kind(event: dict) -> tuple[str, str]:
    """The event's type with the kind of action or Lean check it belongs to."""
    action = event.get("action")
    sub = action.get("kind") if isinstance(action, dict) else event.get("kind")
    return event["type"], sub if isinstance(sub, str) else ""


def sample(name: str, events: list[dict], seed: int) -> list[int]:
    """The indices the default run kills at (1-based, like the failpoint)."""
    first: dict[tuple[str, str], int] = {}
    for index, event in enumerate(events, 1):
        first.setdefault(event_kind(event), index)
    known = {index for (example, index) in KNOWN_FAILURES if example == name}
    chosen = set(first.values()) | {len(events)} | known
    rest = sorted(set(range(1, len(events) + 1)) - chosen)
    rng = random.Random(f"{seed}:{name}")
    chosen |= set(rng.sample(rest, min(RANDOM_PER_EXAMPLE, len(rest))))
    return sorted(chosen)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "crash_index" not in metafunc.fixturenames:
        return
    config = metafunc.config
    params = []
    for name in EXAMPLES:
        events = _events(reference_run(name)[0])
        sampled = sample(name, events, config.stash[crash_seed])
        config.stash[crash_samples][name] = sampled
        for index in range(1, len(events) + 1):
            marks = []
            if (name, index) in KNOWN_FAILURES:
                marks.append(pytest.mark.xfail(strict=True, reason=KNOWN_FAILURES[name, index]))
            if index not in sampled:
                marks.append(getattr(pytest.mark, FULL_SWEEP))
            params.append(pytest.param(name, index, marks=marks, id=f"{name}-{index:03d}"))
    metafunc.parametrize(("name", "crash_index"), params)


@pytest.fixture(scope="module")
def crash_root(tmp_path_factory):
    shm = Path("/dev/shm")
    if shm.is_dir() and shm.stat().st_mode & 0o002:
        root = Path(tempfile.mkdtemp(prefix="paperlint-crash-", dir=shm))
        yield root
        shutil.rmtree(root, ignore_errors=True)
    else:
        yield tmp_path_factory.mktemp("crash")


def _model_calls(events: list[dict]) -> Counter:
    """Paid calls by key; a prover tool-loop turn (issue #13) is keyed by its turn too."""
    return Counter(
        (e["role"], e["result"], e["obligation"], e["attempt"], e.get("turn"))
        for e in events
        if e["type"] == "model_call"
    )


def test_the_reference_run_validates_clean(finished_runs):
    for name in EXAMPLES:
        reference, _ = finished_runs[name]
        child = forkserver.server().run(["validate", str(reference)], {})
        assert child.code == 0, f"{name}: {child.output}"
        assert len(_events(reference)) > 20


@functools.cache
def snapshots(name: str, root: Path, jobs: int = 1) -> Path:
    """`root/<name>[-jJ]-snapshots/N`: the workspace of one run of `name` (with `--jobs J`) as
    it was after event N.

    The run goes through a path of the same length as each sweep item's, so that whatever a
    record keeps of the workspace's path is the same."""
    tag = name if jobs == 1 else f"{name}-j{jobs}"
    into = root / f"{tag}-snapshots"
    workdir = root / f"{tag}-{0:04d}"  # no sweep item is numbered 0
    code = run_cli_forked(
        check_argv(name, workdir, jobs=jobs),
        PAPERLINT_FAILPOINT=f"snapshot-events:{into}",
        PAPERLINT_DATA_DIR=str(root / f"{tag}-data-0000"),
    )
    assert code in (0, 1, 4), f"{tag}: the snapshotting run exited {code}"
    shutil.rmtree(workdir)
    return into


# What two runs of the same events write differently: the clock, and the writer's pid in the
# workspace lock. Everything else must be byte for byte the same after a kill and in the
# snapshot. (Both runs get an empty data folder of their own: the strategy chooser records
# how many earlier runs it has seen there.)
TIMED = {"ts", "duration_s", "wait_s", "elapsed_s"}
PID_FILES = {".lock"}


def _contents(root: Path) -> dict[str, object]:
    files: dict[str, object] = {}
    for path in sorted(root.rglob("*")):
        if path.is_dir():
            continue
        rel = path.relative_to(root).as_posix()
        data = b"" if rel in PID_FILES else path.read_bytes()
        if path.suffix == ".jsonl":
            lines = [json.loads(line) for line in data.decode().splitlines()]
            files[rel] = [{k: v for k, v in e.items() if k not in TIMED} for e in lines]
        else:
            files[rel] = data
    return files


def assert_same_state(killed: Path, snapshot: Path, at: str) -> None:
    left, right = _contents(killed), _contents(snapshot)
    assert sorted(left) == sorted(right), f"{at}: the kill and the snapshot hold other files"
    differ = [rel for rel in left if left[rel] != right[rel]]
    first = next(
        (
            (rel, a, b)
            for rel in differ
            for a, b in zip(_lines(left[rel]), _lines(right[rel]), strict=False)
            if a != b
        ),
        None,
    )
    assert not differ, f"{at}: the kill and the snapshot differ in {differ}; first: {first}"


def _lines(value: object) -> list[object]:
    return value if isinstance(value, list) else [value]


def test_kill_after_event_then_resume(name, crash_index, finished_runs, crash_root, request):
    reference, _ = finished_runs[name]
    at = f"{name}: killed after event {crash_index}"
    workdir = crash_root / f"{name}-{crash_index:04d}"
    # Each item's own user data folder: what a run reads there (the run record, which every
    # check appends to) stays the same size however many items ran before it.
    data = str(crash_root / f"{name}-data-{crash_index:04d}")
    snapshot = snapshots(name, crash_root) / str(crash_index)
    if request.node.get_closest_marker(FULL_SWEEP) is None:  # sampled: a real kill
        failpoint = f"after-event:{crash_index}"
        code = run_cli_forked(
            check_argv(name, workdir), PAPERLINT_FAILPOINT=failpoint, PAPERLINT_DATA_DIR=data
        )
        assert code == CRASHED, f"{at}: the failpoint did not fire (exit {code})"
        assert_same_state(workdir, snapshot, at)
    else:
        at = f"{name}: resumed from the state after event {crash_index}"
        shutil.copytree(snapshot, workdir, symlinks=True)
    shutil.rmtree(snapshot)  # each index is one item: its snapshot is needed no more
    code, validated = resume_then_validate(workdir, PAPERLINT_DATA_DIR=data)
    assert code in (0, 1, 4), f"{at}: resume exited {code}"
    results = json.loads((workdir / "results.json").read_text())
    assert results == json.loads((reference / "results.json").read_text()), f"{at}: results differ"
    calls = _model_calls(_events(workdir))
    expected = _model_calls(_events(reference))  # a re-gate asks the same attempt again
    repeated = [k for k, n in calls.items() if n > expected.get(k, 0) + 1]
    assert not repeated, f"{at}: a model call was repeated more than once: {repeated}"
    assert sum(calls.values()) <= sum(expected.values()) + 1
    assert validated.code == 0, f"{at}: validate after resume:\n{validated.output}"
    shutil.rmtree(workdir)
    shutil.rmtree(data, ignore_errors=True)
