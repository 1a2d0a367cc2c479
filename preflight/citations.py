"""Citations and the bibliography: natbib/biblatex cite commands with pre/post notes and key
lists; entries from `\\bibitem`, `.bbl` and `.bib` files."""

from __future__ import annotations

from typing import Literal

from paperlint.preflight import lazyre, texscan
from paperlint.preflight.draft import DraftBibEntry, DraftCitation, DraftDiagnostic, DraftInventory
from paperlint.preflight.flatten import read_project_text
from paperlint.preflight.sourcetree import FlatSource
from paperlint.preflight.walkstate import WalkOutput

_CITE = lazyre.pattern(
    r"\\(?:[Cc]ite(?:p|t|alp|alt|author|year|yearpar|num)?|[Pp]arencite|[Tt]extcite|[Aa]utocite"
    r"|footcite|footcitetext|smartcite|[Ss]upercite|fullcite|nocite|citeN|shortcite)(?![A-Za-z@])\*?"
)
_BIBITEM = lazyre.pattern(r"\\bibitem\s*(?:\[[^\]]*\])?\s*\{([^}]*)\}")
_BIB_ENTRY = lazyre.pattern(r"@\s*([A-Za-z]+)\s*\{\s*([^,\s]+)\s*,")
_BBL_ENTRY = lazyre.pattern(r"\\entry\s*\{([^}]*)\}")


def citations_in(text: str) -> list[tuple[str, str | None]]:
    """(key, note) for every citation in `text`; one optional argument is the post-note."""
    out: list[tuple[str, str | None]] = []
    for match in _CITE.finditer(text):
        args, _ = texscan.read_args(text, match.end(), "[[{")
        keys = texscan.split_keys(args[2] or "")
        note = args[1] if args[1] is not None else args[0]
        note = note.strip() if note and note.strip() else None
        out.extend((key, note) for key in keys if key != "*")
    return out


def attach(flat: FlatSource, inventory: DraftInventory) -> None:
    """Citations of each result (note, statement, proof); unresolved keys as diagnostics."""
    for result in inventory.results:
        parts: list[tuple[Literal["statement", "proof", "note"], str]] = [
            ("note", result.note or ""),
            ("statement", result.statement),
        ]
        if result.proof is not None:
            parts.append(("proof", result.proof.text))
        for where, text in parts:
            for key, note in citations_in(text):
                cite = DraftCitation(key=key, note=note, where=where)
                if cite not in result.citations:
                    result.citations.append(cite)
    inventory.diagnostics.extend(unresolved(flat, {entry.key for entry in inventory.bibliography}))


def unresolved(flat: FlatSource, known: set[str]) -> list[DraftDiagnostic]:
    """One warning per cited key missing from a non-empty bibliography, at its first use."""
    if not known:
        return []
    out: dict[str, DraftDiagnostic] = {}
    for match in _CITE.finditer(flat.text):
        args, _ = texscan.read_args(flat.text, match.end(), "[[{")
        for key in texscan.split_keys(args[2] or ""):
            if key in known or key == "*" or key in out or "#" in key:  # `#1`: in a definition
                continue
            file, line, column = flat.position(match.start())
            message = f"citation key {key!r} not in the bibliography"
            out[key] = DraftDiagnostic(
                severity="warning",
                file=file,
                line=line,
                column=column,
                code="unresolved-citation",
                message=message,
            )
    return list(out.values())


def bibliography(flat: FlatSource, walk: WalkOutput) -> list[DraftBibEntry]:
    entries: dict[str, str] = {}
    _bibitems(flat.text, entries)
    names = [name for _, name in walk.bib_files]
    for name in names:
        text = read_project_text(flat, name if name.endswith(".bib") else name + ".bib")
        if text is not None:
            _bib(text, entries)
    stem = flat.root.rsplit(".", 1)[0]
    bbl = read_project_text(flat, stem + ".bbl")
    if bbl is not None:
        _bibitems(bbl, entries)
        for match in _BBL_ENTRY.finditer(bbl):
            entries.setdefault(match.group(1).strip(), "")
    return [DraftBibEntry(key=k, text=v) for k, v in entries.items()]


def _bibitems(text: str, entries: dict[str, str]) -> None:
    matches = list(_BIBITEM.finditer(text))
    for i, match in enumerate(matches):
        stop = (
            matches[i + 1].start()
            if i + 1 < len(matches)
            else text.find("\\end{thebibliography}", match.end())
        )
        body = text[match.end() : stop if stop > 0 else match.end() + 500]
        entries.setdefault(
            match.group(1).strip(), " ".join(body.replace("\\newblock", " ").split())[:500]
        )


def _bib(text: str, entries: dict[str, str]) -> None:
    for match in _BIB_ENTRY.finditer(text):
        if match.group(1).lower() in ("string", "preamble", "comment"):
            continue
        close = texscan.find_closing_brace(text, text.index("{", match.start()))
        body = " ".join(text[match.end() : close].split())
        entries.setdefault(match.group(2).strip(), body[:500])
