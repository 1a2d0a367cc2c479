#!/usr/bin/env python3
"""Write LaTeX's own label numbers for preflight fixtures: `expected/latex.json`.

    python scripts/regen_expected.py [FIXTURE_DIR ...]

With no argument, every folder under fixtures/preflight/ is compiled. Each fixture's main file
is `paper.tex` or `main.tex`. A scratch copy is compiled (see paperlint.preflight.latexrun), so
only `expected/latex.json` is written into the fixture. Review the diff before committing.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from paperlint.errors import InputError
from paperlint.preflight.latexrun import CompileResult, CompileStatus, compile_project

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "preflight"
ROOT_NAMES = ("paper.tex", "main.tex")


def find_root(folder: Path) -> str | None:
    return next((name for name in ROOT_NAMES if (folder / name).is_file()), None)


def expected_record(root: str, result: CompileResult) -> dict[str, object]:
    return {
        "root": root,
        "labels": dict(sorted(result.aux.numbers().items())),
        "compiled_with": result.compiled_with,
    }


def regenerate(folder: Path) -> str:
    """Compile one fixture and write its expected/latex.json; return a one-line report."""
    root = find_root(folder)
    if root is None:
        return f"{folder}: skipped (no {' or '.join(ROOT_NAMES)})"
    result = compile_project(folder, root)
    if result.status is not CompileStatus.OK and not result.aux.labels:
        return f"{folder}: FAILED: {result.summary()}\n{result.log_tail}"
    target = folder / "expected" / "latex.json"
    target.parent.mkdir(exist_ok=True)
    text = json.dumps(expected_record(root, result), indent=2, sort_keys=True) + "\n"
    changed = not target.exists() or target.read_text(encoding="utf-8") != text
    target.write_text(text, encoding="utf-8")
    state = "written" if changed else "unchanged"
    warn = "" if result.status is CompileStatus.OK else f" (warning: {result.summary()})"
    return f"{target}: {state}, {len(result.aux.labels)} labels{warn}"


def main(argv: list[str]) -> int:
    fixtures = sorted(p for p in FIXTURES.iterdir() if p.is_dir()) if FIXTURES.is_dir() else []
    folders = [Path(a) for a in argv] or fixtures
    failed = 0
    for folder in folders:
        try:
            line = regenerate(folder)
        except InputError as exc:
            print(exc, file=sys.stderr)
            return 2
        failed += "FAILED" in line
        print(line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
