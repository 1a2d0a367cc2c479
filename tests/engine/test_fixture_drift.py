"""The hand-written replay of fixtures/reconnect is what its scripts write: the transcript is
`replay/author.py`'s output and the Lean answers are `scripts/author_lean_replay.py`'s (no Lean
was run). A change to the engine that changes what it sends to Lean fails here, and the fix is
to run the two scripts again and review the diff."""

import importlib.util
import json
import runpy
import sys
from pathlib import Path

from tests.engine.conftest import answers_of

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "fixtures" / "reconnect"


def _author_lean():
    spec = importlib.util.spec_from_file_location(
        "author_lean_replay", ROOT / "scripts" / "author_lean_replay.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("author_lean_replay", module)
    spec.loader.exec_module(module)
    return module


def test_the_transcript_is_the_authoring_scripts_output(tmp_path, monkeypatch):
    committed = (FIXTURE / "replay" / "transcript.jsonl").read_text(encoding="utf-8")
    written = {}

    def capture(self, path):
        written["text"] = "".join(
            json.dumps(line, ensure_ascii=False) + "\n" for line in self.lines
        )

    monkeypatch.syspath_prepend(str(ROOT / "scripts"))
    import fixture_author

    monkeypatch.setattr(fixture_author.Transcript, "write", capture)
    runpy.run_path(str(FIXTURE / "replay" / "author.py"))
    assert answers_of(written["text"]) == answers_of(committed)


def test_the_lean_answers_are_the_authoring_scripts_output(tmp_path):
    out = tmp_path / "lean.jsonl"
    _author_lean().main(FIXTURE, out)
    committed = (FIXTURE / "replay" / "lean.jsonl").read_text(encoding="utf-8")
    assert out.read_text(encoding="utf-8") == committed
    assert '"note": "hand-written"' in committed
