"""The declaration extraction: every constant of the pinned environment, as `paperlint setup`
writes it, and reading it back (the prover's `search` index is built from it,
`paperlint.prover.index`).

Our trusted extraction program (`lean-project/PaperLint/Extract.lean`, format
`paperlint.decl_extract/1` documented there) is run once by `paperlint setup` (`extract_command`)
into the user's cache (`index_file`). A file without its closing `{"end": n}` line, or whose
count disagrees, is refused: an interrupted extraction is redone, never half-trusted.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from paperlint.errors import InputError
from paperlint.lean.pins import LeanPaths

SCHEMA = "paperlint.decl_extract/1"
INDEX_DIR = "declarations"
INDEX_FILE = "extract.jsonl"
EXTRACT_PROGRAM = "PaperLint/Extract.lean"


def index_file(paths: LeanPaths) -> Path:
    return paths.cache / INDEX_DIR / INDEX_FILE


def extract_command(paths: LeanPaths) -> tuple[str, ...]:
    """The one command `paperlint setup` runs (in the Lake project) to build the index."""
    return (paths.lake, "env", "lean", "--run", EXTRACT_PROGRAM, str(index_file(paths)))


class MathlibDeclaration(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    name: str
    kind: str = "theorem"
    module: str | None = None
    type: str
    doc: str | None = None


def read_extraction(path: Path) -> list[MathlibDeclaration]:
    """The declarations of an extraction file; InputError (with the line) when it is unusable."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InputError(f"cannot read the declaration extraction: {exc}", path=path) from exc
    return parse_extraction(lines, source=path)


def parse_extraction(
    lines: Sequence[str], *, source: Path | None = None
) -> list[MathlibDeclaration]:
    rows = [(n, line) for n, line in enumerate(lines, start=1) if line.strip()]
    hint = "rerun `paperlint setup` to extract the declarations again"
    if not rows:
        raise InputError("the declaration extraction is empty", path=source, hint=hint)
    header = _json(rows[0], source)
    if header.get("schema") != SCHEMA:
        raise InputError(
            f"not a {SCHEMA} file (schema {header.get('schema')!r})",
            path=source,
            line=rows[0][0],
            hint=hint,
        )
    end = _json(rows[-1], source) if len(rows) > 1 else {}
    if set(end) - {"skipped"} != {"end"}:
        raise InputError(
            "the declaration extraction has no end line (interrupted?)", path=source, hint=hint
        )
    decls = []
    for row in rows[1:-1]:
        try:
            decls.append(MathlibDeclaration.model_validate(_json(row, source)))
        except ValueError as exc:
            raise InputError(f"bad declaration: {exc}", path=source, line=row[0]) from exc
    if end["end"] != len(decls):
        raise InputError(
            f"the end line counts {end['end']} declarations, the file has {len(decls)}",
            path=source,
            hint=hint,
        )
    return decls


def _json(row: tuple[int, str], source: Path | None) -> dict[str, object]:
    try:
        value = json.loads(row[1])
    except ValueError as exc:
        raise InputError(f"not JSON: {exc}", path=source, line=row[0]) from exc
    if not isinstance(value, dict):
        raise InputError("a line is not a JSON object", path=source, line=row[0])
    return value
