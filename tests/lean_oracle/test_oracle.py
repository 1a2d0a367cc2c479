"""The real Lean 4.35.0 executable itself: what every oracle test relies on it to do.

Each fact below is one the product's Python reads Lean's output by (docs/lean-oracle.md): the
version line, `--json` message fields, `#print axioms` wording, exit codes, `-o` module builds.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest


def run_lean(lean: Path, folder: Path, text: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`lean ARGS T.lean` run in `folder` (a module build needs its file under the root, `-R`,
    which defaults to the working folder)."""
    (folder / "T.lean").write_text(text, encoding="utf-8")
    return subprocess.run(
        [str(lean), *args, "T.lean"],
        capture_output=True, text=True, timeout=120, check=False, cwd=folder,
    )  # fmt: skip


def test_version_is_the_pinned_one(lean_oracle: Path, repo_root: Path) -> None:
    done = subprocess.run([str(lean_oracle), "--version"], capture_output=True, text=True)
    pinned = (repo_root / "lean-project" / "lean-toolchain").read_text().strip()
    assert pinned == "leanprover/lean4:v4.35.0"
    assert done.stdout.startswith("Lean (version 4.35.0, x86_64-unknown-linux-gnu, commit eb6cafb")


def test_json_messages_and_axiom_wording(lean_oracle: Path, tmp_path: Path) -> None:
    done = run_lean(
        lean_oracle,
        tmp_path,
        "prelude\ninductive T : Prop | intro\naxiom cheat : T\n"
        "theorem t : T := cheat\ntheorem u : T := T.intro\n#print axioms t\n#print axioms u\n",
        "--json",
    )
    assert done.returncode == 0, done.stdout
    messages = [json.loads(line) for line in done.stdout.splitlines()]
    assert [m["data"] for m in messages] == [
        "'t' depends on axioms: [cheat]",
        "'u' does not depend on any axioms",
    ]
    assert {m["severity"] for m in messages} == {"information"}
    assert set(messages[0]) == {
        "caption", "data", "endPos", "fileName", "isSilent", "keepFullRange", "kind", "pos",
        "severity",
    }  # fmt: skip
    assert messages[0]["pos"] == {"line": 6, "column": 0}


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("prelude\ninductive T : Prop | intro\ntheorem u : T := T.intro\n", 0),
        ("prelude\ntheorem v : Nope := 0\n", 1),
    ],
)
def test_exit_codes(lean_oracle: Path, tmp_path: Path, text: str, code: int) -> None:
    assert run_lean(lean_oracle, tmp_path, text).returncode == code


def test_module_build_writes_an_olean(lean_oracle: Path, tmp_path: Path) -> None:
    done = run_lean(
        lean_oracle,
        tmp_path,
        "prelude\ninductive T : Prop | intro\ntheorem u : T := T.intro\n",
        "-o",
        "T.olean",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    header = (tmp_path / "T.olean").read_bytes()[:128]
    assert header.startswith(b"olean") and b"4.35.0" in header
