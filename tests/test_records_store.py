import json
import os
from pathlib import Path

import pytest

from paperlint.errors import StateError
from paperlint.preflight import Inventory
from paperlint.records import EventLog, WorkspaceLock, read_record, write_record


def test_write_record_round_trips_and_carries_schema(tmp_path):
    path = tmp_path / "inventory.json"
    write_record(path, Inventory(root="main.tex"))
    data = json.loads(path.read_text())
    assert data["schema"] == "paperlint.inventory/1"
    assert read_record(path, Inventory).root == "main.tex"
    assert [p.name for p in tmp_path.iterdir()] == ["inventory.json"]  # no temp file left


def test_failed_write_keeps_the_old_record(tmp_path, monkeypatch):
    path = tmp_path / "r.json"
    write_record(path, Inventory(root="old.tex"))

    def boom(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        write_record(path, Inventory(root="new.tex"))
    assert read_record(path, Inventory).root == "old.tex"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_read_record_rejects_a_foreign_schema(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"schema": "paperlint.inventory/99", "root": "x"}))
    with pytest.raises(StateError, match="not a valid Inventory"):
        read_record(path, Inventory)


def test_event_log_skips_and_repairs_a_torn_last_line(tmp_path):
    log = EventLog(tmp_path / "events.jsonl")
    assert log.append({"n": 1}) == 1
    with open(log.path, "a") as handle:
        handle.write('{"n": 2, "tor')  # a crash in the middle of a write
    assert [e["n"] for e in log.read()] == [1]
    fresh = EventLog(log.path)
    assert fresh.append({"n": 3}) == 2
    assert [e["n"] for e in fresh.read()] == [1, 3]


def test_lock_is_exclusive_and_stale_locks_are_taken_over(tmp_path):
    with WorkspaceLock(tmp_path), pytest.raises(StateError, match="another paperlint process"):
        WorkspaceLock(tmp_path).acquire()
    (tmp_path / ".lock").write_text("999999999")  # a pid that does not run
    lock = WorkspaceLock(tmp_path)
    lock.acquire()
    lock.release()
    assert not (tmp_path / ".lock").exists()


def test_no_write_lands_while_the_gate_is_frozen_and_each_waits_to_land_whole(tmp_path):
    """The crash sweep's snapshot (records/failpoint.py) copies a workspace while other
    threads write: a write started before the freeze ends first, one asked during it waits."""
    import threading
    import time

    from paperlint.store import GATE, append_line, remove_file, write_bytes_atomic

    target, log, gone = tmp_path / "a.json", tmp_path / "e.jsonl", tmp_path / "old"
    gone.write_text("x")
    done: list[str] = []

    def writer() -> None:
        write_bytes_atomic(target, b"new")
        append_line(log, "{}")
        remove_file(gone)
        done.append("wrote")

    with GATE.frozen():
        thread = threading.Thread(target=writer)
        thread.start()
        time.sleep(0.2)
        assert not done and not target.exists() and not log.exists() and gone.exists()
    thread.join(5)
    assert done == ["wrote"] and target.read_bytes() == b"new" and not gone.exists()
    assert log.read_text() == "{}\n"

    # A freeze waits for a write already under way (here: one holding the gate).
    events: list[str] = []
    with GATE.writing():

        def freeze() -> None:
            with GATE.frozen():
                events.append("f")

        freezer = threading.Thread(target=freeze)
        freezer.start()
        time.sleep(0.2)
        assert events == []
    freezer.join(5)
    assert events == ["f"]
    write_bytes_atomic(target, b"again")  # and the gate is open again
    assert target.read_bytes() == b"again"


def _append_many(path: str, worker: int) -> None:
    from paperlint.store import append_line

    for n in range(40):
        append_line(Path(path), json.dumps({"w": worker, "n": n, "pad": "x" * 70_000}))


def test_lines_appended_at_once_by_several_processes_land_whole(tmp_path) -> None:
    """Ray's actors and its driver append to one recording: 4 processes x 40 lines of 70 kB
    (larger than any write buffer) each, all parse, none lost, each worker's in its order."""
    import multiprocessing

    log = tmp_path / "transcript.jsonl"
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_append_many, args=(str(log), w)) for w in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0
    rows = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 160
    for w in range(4):
        assert [r["n"] for r in rows if r["w"] == w] == list(range(40))


def _events(n: int):
    from paperlint.records.events import LeanRestart

    return [LeanRestart(reason=f"r{i}", rss_mb=i) for i in range(1, n + 1)]


def test_events_emitted_together_go_out_in_one_write_in_order(tmp_path, monkeypatch):
    from paperlint import store
    from paperlint.records.journal import Journal

    writes: list[bytes] = []
    real = os.write

    def counting(fd, data):
        writes.append(bytes(data))
        return real(fd, data)

    journal = Journal(EventLog(tmp_path / "events.jsonl"))
    journal.emit(_events(1)[0])
    monkeypatch.setattr(store.os, "write", counting)
    journal.emit_all(_events(3))
    journal.emit_all([])  # nothing to write: no write
    (write,) = writes
    assert write.count(b"\n") == 3 and write.endswith(b"\n")
    lines = [json.loads(x) for x in (tmp_path / "events.jsonl").read_text().splitlines()]
    assert [e["seq"] for e in lines] == [1, 2, 3, 4]
    assert [e["reason"] for e in lines] == ["r1", "r1", "r2", "r3"]
    assert EventLog(tmp_path / "events.jsonl").append({"n": 5}) == 5
    assert EventLog(tmp_path / "events.jsonl").append_all([]) == 5  # no blank line either
    assert (tmp_path / "events.jsonl").read_text().count("\n") == 5


def test_a_failpoint_inside_events_emitted_together_dies_after_they_are_written(tmp_path):
    import subprocess
    import sys

    code = (
        "import sys; from pathlib import Path; from paperlint.records import EventLog;"
        "from paperlint.records.journal import Journal;"
        "from tests.test_records_store import _events;"
        "Journal(EventLog(Path(sys.argv[1]))).emit_all(_events(3))"
    )
    env = {**os.environ, "PAPERLINT_FAILPOINT": "after-event:2"}
    root = Path(__file__).resolve().parents[1]
    died = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "events.jsonl")], env=env, cwd=root
    )
    assert died.returncode == 77
    assert len((tmp_path / "events.jsonl").read_text().splitlines()) == 3
