"""A recorded second-kernel pass or failure in an older final check (lean4checker, issue 11).

The live final check no longer runs lean4checker: the trusted checker replays every local
constant through the kernel (issue 25, docs/checker.md). A recording made with it still
replays: a failing second kernel rejects the check."""

from __future__ import annotations

import json

from paperlint.lean.replay import ReplayVerifier, key_for_final
from paperlint.lean.verifier import Outcome


def test_a_recorded_second_kernel_replays(tmp_path):
    """Hand-written recording, shaped like what RecordingVerifier wrote."""
    file = tmp_path / "Result.lean"
    file.write_text("theorem t : True := trivial\n")
    import hashlib

    sha = hashlib.sha256(file.read_bytes()).hexdigest()
    axioms = "'t' depends on axioms: [propext]"
    entry = {
        "kind": "final",
        "key": key_for_final(sha, ["t"]),
        "request": {"file_sha256": sha, "names": ["t"]},
        "response": {
            "build": {"exit_code": 0, "output": ""},
            "axioms": {"exit_code": 0, "output": _marked(axioms, sha)},
            "second_kernel": {"tool": "lean4checker", "exit_code": 1, "ok": False},
        },
        "note": "hand-written",
    }
    folder = tmp_path / "rec"
    folder.mkdir()
    (folder / "lean.jsonl").write_text(json.dumps(entry) + "\n")
    check = ReplayVerifier(folder).final_check(file, ["t"], timeout_s=5)
    assert check.second_kernel is not None and not check.second_kernel.ok
    assert check.outcome is Outcome.REJECTED


def _marked(answer: str, sha: str) -> str:
    from paperlint.lean.messages import marker_id

    mid = marker_id("t", sha)
    return (
        f'"PAPERLINT_AXIOMS_BEGIN_{mid}" : String\n{answer}\n"PAPERLINT_AXIOMS_END_{mid}" : String'
    )
