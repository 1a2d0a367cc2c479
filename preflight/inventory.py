"""The public entry point: a TeX project becomes an `Inventory` (docs/design.md §4)."""

from __future__ import annotations

import bisect
import sys
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from paperlint.preflight import citations, lazyre, proofs, references, sectioning, texscan
from paperlint.preflight.declarations import kind_of
from paperlint.preflight.draft import (
    DraftDiagnostic,
    DraftEquationInfo,
    DraftInventory,
    DraftMacro,
    DraftResult,
    DraftSpan,
)
from paperlint.preflight.flatten import load_project, project_file_exists
from paperlint.preflight.numbering import Walker
from paperlint.preflight.sourcetree import FlatSource, sha256_hex
from paperlint.preflight.walkstate import Owner, Problem, WalkOutput

if TYPE_CHECKING:
    from paperlint.preflight import model


def build_inventory(path: Path, *, root: str | None = None) -> model.Inventory:
    """Read a .tex file or a project folder and list its numbered results (InputError on bad
    input; everything else becomes a diagnostic). A .pdf goes to the PDF preflight."""
    if Path(path).suffix.lower() == ".pdf":
        from paperlint.preflight.pdf import build_pdf_inventory

        return build_pdf_inventory(Path(path))
    from paperlint.preflight.draft import contract

    return contract(build_draft(path, root=root))


def _label_number(flat: FlatSource, walk: WalkOutput, key: str, owner: Owner) -> str:
    """What `\\label{key}` writes: its owner's number, or for a label before a float's caption
    the caption package's `\\caption@xref{key}{ on input line N}` (N: its line in its file),
    printed as the .aux reader prints it (`auxfile.normalise_number`)."""
    if owner.kind != sectioning.XREF:
        return owner.number
    _file, line = flat.locate(walk.label_positions[key])
    return f"\\caption@xref {key} on input line {line}"  # as the .aux reader prints it


def build_draft(path: Path, *, root: str | None = None) -> DraftInventory:
    """`build_inventory` of a .tex file or project folder, as preflight's own records (no
    pydantic: `paperlint.preflight.draft`)."""
    flat = load_project(Path(path), root)
    walk = Walker(flat.text, flat.segments, exists=partial(project_file_exists, flat)).run()
    results = _results(flat, walk)
    owners = proofs.attach(flat, walk, results)
    ids = _assign_ids(walk, results, owners)
    references.resolve_uses(flat, walk, results, ids)
    inventory = DraftInventory(
        root=flat.root,
        files=flat.entries,
        results=results,
        equations=_equations(walk, ids),
        labels={key: _label_number(flat, walk, key, owner) for key, owner in walk.labels.items()},
        macros=_macros(flat, walk),
        bibliography=citations.bibliography(flat, walk),
        diagnostics=_diagnostics(flat, walk),
    )
    labels = set(walk.labels)
    del walk  # the walk's records (a third of a large paper's peak) go before the last scans
    citations.attach(flat, inventory)
    inventory.diagnostics.extend(references.undefined(flat, labels))
    logging = sys.modules.get("logging")  # not imported: nothing set up to show an INFO line
    if logging is not None:
        logging.getLogger(__name__).info("preflight: %d results in %s", len(results), flat.root)
    return inventory


def _span(flat: FlatSource, begin: int, end: int) -> DraftSpan:
    file, start_line = flat.locate(begin)
    end_file, end_line = flat.locate(max(end - 1, begin))
    return DraftSpan(
        file=file, start_line=start_line, end_line=end_line if end_file == file else start_line
    )


# The text kept per result is bounded, so cost stays linear in the input: an unclosed
# environment stops at the next result's start (not at the end of the document), and no
# statement keeps more than this many characters.
MAX_STATEMENT_CHARS = 20_000


def _results(flat: FlatSource, walk: WalkOutput) -> list[DraftResult]:
    out: list[DraftResult] = []
    starts = sorted(raw.begin for raw in walk.results)
    length = len(flat.text)
    for raw in walk.results:
        end, body_end = raw.end, raw.body_end
        if raw.end < 0 or raw.body_end in (-1, length):  # never closed: the walker ran to the end
            end = body_end = _unclosed_end(starts, raw.begin, length)
        body_end = min(body_end, raw.body_start + MAX_STATEMENT_CHARS)
        out.append(
            DraftResult(
                id="",
                env=raw.env,
                kind=kind_of(raw.env, raw.title),
                title=raw.title,
                number=raw.number,
                note=raw.note.strip() if raw.note and raw.note.strip() else None,
                labels=list(raw.labels),
                statement=flat.text[raw.body_start : body_end].strip(),
                span=_span(flat, raw.begin, end),
                lean=list(raw.lean),
                leanok=raw.leanok,
                mathlibok=raw.mathlibok,
            )
        )
        if raw.restates is not None:  # a restatement prints the original's statement again
            out[-1].statement = out[raw.restates].statement
    return out


def _unclosed_end(starts: list[int], begin: int, length: int) -> int:
    """Where an environment without `\\end` stops: the next result's start, or the text's end."""
    following = bisect.bisect_right(starts, begin)
    return starts[following] if following < len(starts) else length


_SPACES = lazyre.pattern(r"\s+")


def _normalise(statement: str) -> str:
    return _SPACES.sub(" ", statement).strip()


def _assign_ids(walk: WalkOutput, results: list[DraftResult], owners: dict[int, int]) -> list[str]:
    """First label; else `<env>:<number>`; else `<env>@<8 hex of the statement>`."""
    seen: set[str] = set()
    ids: list[str] = []
    for result in results:
        if result.labels:
            rid = result.labels[0]
        elif result.number:
            rid = f"{result.env}:{result.number}"
        else:
            digest = sha256_hex(_normalise(result.statement).encode())[:8]
            rid = f"{result.env}@{digest}"
        base, n = rid, 2
        while rid in seen:
            rid, n = f"{base}~{n}", n + 1
        seen.add(rid)
        ids.append(rid)
        result.id = rid
    for raw, result in zip(walk.results, results, strict=True):
        if raw.parent is not None:
            result.parent = ids[raw.parent]
        elif raw.in_proof is not None:
            result.parent = proofs.owner_of_proof(raw.in_proof, owners, ids)
        if raw.restates is not None:
            result.restates = ids[raw.restates]
    return ids


def _equations(walk: WalkOutput, ids: list[str]) -> dict[str, DraftEquationInfo]:
    out: dict[str, DraftEquationInfo] = {}
    for key, owner in walk.labels.items():
        if owner.kind == "equation":
            result = ids[owner.result] if owner.result is not None else None
            out[key] = DraftEquationInfo(number=owner.number, result=result)
    return out


def _macros(flat: FlatSource, walk: WalkOutput) -> list[DraftMacro]:
    out: list[DraftMacro] = []
    for pos, macro in walk.macros:
        file, line = flat.locate(pos)
        out.append(
            DraftMacro(
                name=macro.name,
                definition=macro.definition,
                arity=macro.arity,
                file=file,
                line=line,
                params=macro.params,
            )
        )
    return out


_DOCUMENT = lazyre.pattern(r"\\begin\s*\{document\}|\\end\s*\{document\}")


def _brace_problems(flat: FlatSource) -> list[Problem]:
    """A `{` the document never closes, a `}` that closes nothing: errors LaTeX stops on
    ("File ended while scanning use of \\section", "Too many }'s"), where the walk reads on."""
    marks = list(_DOCUMENT.finditer(flat.text))
    if len(marks) < 2 or not marks[0].group(0).startswith("\\begin"):
        return []  # no document body to balance (plain TeX, a fragment)
    unclosed, extra = texscan.unbalanced_braces(
        flat.text, marks[0].end(), marks[-1].start(), limit=5
    )
    return [
        *(Problem(at, "error", "unbalanced-brace", _UNCLOSED) for at in unclosed),
        *(Problem(at, "error", "unbalanced-brace", _EXTRA) for at in extra),
    ]


_UNCLOSED = (
    'this `{` is never closed (a missing `}`?): LaTeX stops at the end of the paper ("File ended '
    'while scanning use of …") or ends inside a group'
)
_EXTRA = (
    'this `}` closes nothing (a missing `{`?): LaTeX stops ("Too many }\'s", or inside a '
    'group "Extra }, or forgotten …")'
)


def _diagnostics(flat: FlatSource, walk: WalkOutput) -> list[DraftDiagnostic]:
    out = list(flat.diagnostics)
    for problem in [*walk.problems, *_brace_problems(flat)]:
        pos = problem.pos
        file, line, column = flat.position(pos) if pos is not None else (flat.root, None, None)
        out.append(
            DraftDiagnostic(
                severity=problem.severity,
                file=file,
                line=line,
                column=column,
                code=problem.code,
                message=problem.message,
            )
        )
    unique: dict[tuple[str, int | None, str, str], DraftDiagnostic] = {}
    for diagnostic in out:
        unique.setdefault(
            (diagnostic.file, diagnostic.line, diagnostic.code, diagnostic.message), diagnostic
        )
    return list(unique.values())
