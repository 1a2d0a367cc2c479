"""What `paperlint lean search` and `paperlint lean goals` do, behind the thin CLI.

The index lives where `paperlint setup` extracts it (`paperlint.lean.extraction.index_file`).
Lean is the warm verifier when it is set up, or recorded answers (`--replay DIR`: its
`lean.jsonl`, or an older `lean-probe.jsonl`); without either, search still answers from the
index but says its hits are NOT confirmed with `#check`, and goals cannot answer at all (a
LeanSetupError naming the fix).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from paperlint.errors import InputError, LeanSetupError
from paperlint.lean.feedback import collapse
from paperlint.lean.pins import LeanPaths
from paperlint.lean.verifier import LeanContext, Verifier
from paperlint.prover.index import IndexFile
from paperlint.prover.tools import Workbench


@dataclass(frozen=True)
class SearchReport:
    lines: tuple[str, ...]
    confirmed: bool
    note: str = ""


def open_probe(paths: LeanPaths, replay: Path | None) -> Verifier:
    if replay is not None:
        from paperlint.lean.replay import ReplayVerifier

        return ReplayVerifier(replay)
    from paperlint.lean.doctor import lean_ready
    from paperlint.lean.warm import WarmSettings, WarmVerifier

    ready, reason = lean_ready(paths)
    if not ready:
        raise LeanSetupError(reason)
    return WarmVerifier(WarmSettings(paths=paths))


def header_and_body(text: str) -> tuple[str, str]:
    """Leading `import` lines are the header; the rest is checked on top of it."""
    lines = text.splitlines()
    cut = 0
    while cut < len(lines) and (lines[cut].startswith("import ") or not lines[cut].strip()):
        cut += 1
    header = "\n".join(lines[:cut]).strip() or "import Mathlib"
    return header, "\n".join(lines[cut:]).strip()


def search(
    query: str, *, index_path: Path, probe: Verifier | None, header: str, limit: int
) -> SearchReport:
    if not index_path.is_file():
        raise InputError(
            "no declaration index",
            path=index_path,
            hint="run `paperlint setup` on a machine with Lean, or pass --index FILE",
        )
    index = IndexFile(index_path)  # the saved index when `paperlint setup` made one
    if probe is None:
        hits = index.search(query, limit=limit)
        lines = tuple(f"{h.name} : {collapse(h.type, 300)}" for h in hits)
        return SearchReport(lines, confirmed=False, note="NOT confirmed with #check (no Lean)")
    bench = Workbench(
        verifier=None,
        probe=probe,
        context=LeanContext(header=header),
        target="",
        index=index,
    )
    result = bench.search(query, limit=limit)
    lines = tuple(result.text.splitlines()) if result.names else ()
    return SearchReport(lines, confirmed=True)


def goals(path: Path, *, probe: Verifier) -> str:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read the Lean file: {exc}", path=path) from exc
    header, body = header_and_body(text)
    if not body:
        raise InputError("no declaration after the imports", path=path)
    bench = Workbench(verifier=None, probe=probe, context=LeanContext(header=header), target="")
    return bench.goals(body).text
