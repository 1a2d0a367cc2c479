"""Every Lean API the trusted checker relies on exists in Lean 4.35.0 under that name.

The checker (lean-project/PaperLint/Checker.lean) imports `Lean` and cannot be compiled here;
docs/checker.md lists each API it uses. A compiled Lean function has a symbol in the shared
library of the pinned wheel, named by Lean's mangling (`Lean.Environment.find?` is
`l_Lean_Environment_find_x3f`), so each `def` row and each extension name of the policy must
be there. A misspelt or renamed API fails here instead of at the first `lake build`.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest

from paperlint.lean.checker import (
    IMPLEMENTATION_EXTENSIONS,
    INSTANCE_EXTENSIONS,
    PROOF_EXTENSIONS,
    SYNTAX_EXTENSIONS,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "checker.md"
CHECKER = Path(__file__).resolve().parents[2] / "lean-project" / "PaperLint" / "Checker.lean"
ROW = re.compile(r"^\| (?P<names>`[^|]+) \| (?P<kind>[^|]+) \|", re.M)


def mangle(name: str) -> str:
    """Lean's C name of a declaration (`Lean.Compiler.LCNF.Mangle`, for the names used here)."""

    def part(text: str) -> str:
        out = []
        for ch in text:
            if ch.isascii() and ch.isalnum():
                out.append(ch)
            elif ch == "_":
                out.append("__")
            else:
                code = ord(ch)
                out.append(f"_x{code:02x}" if code < 256 else f"_u{code:04x}")
        return "".join(out)

    if name.startswith("_private."):
        parts = name.split(".")
        zero = parts.index("0")
        module = "_".join(part(p) for p in parts[1:zero])
        rest = "_".join(part(p) for p in parts[zero + 1 :])
        return f"l___private_{module}_0__{rest}"
    return "l_" + "_".join(part(p) for p in name.split("."))


@lru_cache(maxsize=1)
def _library(lean: Path) -> tuple[frozenset[str], bytes]:
    library = lean.parent.parent / "lib" / "libleanshared.so"
    if shutil.which("nm") is None or not library.is_file():
        pytest.skip("no `nm` or no libleanshared.so to read Lean's symbols from")
    done = subprocess.run(["nm", str(library)], capture_output=True, text=True, check=True)
    symbols = frozenset(line.rsplit(" ", 1)[-1] for line in done.stdout.splitlines())
    return symbols, library.read_bytes()


def _exists(symbols: frozenset[str], name: str) -> bool:
    base = mangle(name)
    return base in symbols or f"{base}___boxed" in symbols


def _documented() -> list[tuple[str, str]]:
    """(name, kind) of each row of the API table; `.x` after `A.B.c` in one cell is `A.B.x`."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Lean APIs the program relies on", 1)[1].split("\n## ", 1)[0]
    rows = []
    for match in ROW.finditer(section):
        kind, namespace = match["kind"].strip(), ""
        for name in re.findall(r"`([^`]+)`", match["names"]):
            if name.startswith("."):
                name = namespace + name
            namespace = name.rsplit(".", 1)[0]
            rows.append((name, kind))
    return rows


def test_the_doc_lists_the_apis():
    rows = _documented()
    assert len(rows) >= 40
    text = CHECKER.read_text(encoding="utf-8")
    for used in ("importModules", "readModuleData", "replay", "instantiateLevelParams",
                 "getUsedConstants", "isUnsafe", "isPartial"):  # fmt: skip
        assert used in text and any(used in name for name, _ in rows), used


@pytest.mark.parametrize(("name", "kind"), _documented(), ids=lambda v: str(v))
def test_each_documented_api_exists_in_lean_4_35(lean_oracle: Path, name: str, kind: str):
    symbols, _ = _library(lean_oracle)
    if kind == "def":
        assert _exists(symbols, name), f"{name} ({mangle(name)}) is not in Lean 4.35.0"
    elif kind.startswith("extern"):
        c_name = kind.split("`")[1]
        assert c_name in symbols, f"{name}: no C symbol {c_name}"
    else:
        assert kind in ("field", "constructor"), f"unknown kind {kind!r} for {name}"


EXTENSIONS = sorted(PROOF_EXTENSIONS | INSTANCE_EXTENSIONS | IMPLEMENTATION_EXTENSIONS
                    | SYNTAX_EXTENSIONS)  # fmt: skip


@pytest.mark.parametrize("name", EXTENSIONS)
def test_each_extension_of_the_policy_exists_in_lean_4_35(lean_oracle: Path, name: str):
    symbols, data = _library(lean_oracle)
    assert _exists(symbols, name) or f"\0{name}\0".encode() in data, name


def test_a_wrong_name_is_caught(lean_oracle: Path):
    symbols, data = _library(lean_oracle)
    assert not _exists(symbols, "Lean.Environment.replayy")
    assert not _exists(symbols, "Lean.Meta.instanceExtensions")
    assert _exists(symbols, "Lean.Environment.find?")
