"""The statement Lean checked is the gated one: compared by Lean's elaboration, not by text.

A textual fingerprint cannot see a new instance, notation, `local` attribute or shadowing
name: the text is unchanged and means something else. So at the gate and again in the final
check paperlint runs its own trusted command `#paperlint_statement` (source:
`lean-project/PaperlintLean/Statement.lean`, sent inline) on the gated declaration. For the
declaration and every constant of the current file its type mentions (transitively, through
definitions' values), Lean prints the kind, universe parameters, type and value; this module
parses those answers fail-closed, hashes them with SHA-256, and says what differs.

The textual fingerprint stays the cheap first check. Without Lean (or in a replay whose
recording has no such answer) nothing is compared, and the records say so.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, ValidationError

if TYPE_CHECKING:
    from paperlint.lean.verifier import LeanContext, Verifier

SOURCE = Path("PaperlintLean") / "Statement.lean"
INLINE_MARK = "-- paperlint: inline from here"
PREFIX = "PAPERLINT_STATEMENT"
_LINE = re.compile(PREFIX + r" (?P<id>[0-9a-f]{16}) (?P<json>\{.*\})\s*$", re.M)


class Entry(BaseModel):
    """One constant as `#paperlint_statement` printed it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    kind: str
    levels: tuple[str, ...] = ()
    type: str
    type_hash: int
    value: str | None = None


class Elaboration(BaseModel):
    """A declaration's elaborated statement and the local constants it depends on."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    entries: tuple[Entry, ...]
    digest: str  # sha256 over the entries, sorted by name

    @classmethod
    def of(cls, name: str, entries: Iterable[Entry]) -> Elaboration:
        ordered = tuple(sorted(entries, key=lambda e: e.name))
        canonical = json.dumps(
            [e.model_dump(mode="json") for e in ordered], sort_keys=True, ensure_ascii=False
        )
        digest = "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()
        return cls(name=name, entries=ordered, digest=digest)


def command_source(project: Path) -> str | None:
    """The command's Lean text to send inline (below the marker line), None if absent."""
    try:
        text = (project / SOURCE).read_text(encoding="utf-8")
    except OSError:
        return None
    _, mark, body = text.partition(INLINE_MARK)
    return body.strip() + "\n" if mark else None


def query(names: Sequence[str], salt: str, source: str, *, declaration: str = "") -> str:
    """`declaration` (if any), the command's definition, then one query per name."""
    from paperlint.lean.messages import marker_id  # messages imports verifier, which imports us

    lines = [f'#paperlint_statement "{marker_id(name, salt)}" {name}' for name in names]
    head = declaration.strip() + "\n\n" if declaration.strip() else ""
    return head + source.rstrip("\n") + "\n\n" + "\n".join(lines) + "\n"


def parse(texts: Iterable[str], names: Sequence[str], salt: str) -> dict[str, Elaboration | None]:
    """Each name's answer, fail-closed: None when it is missing, repeated, unreadable or
    reports the name unknown. `texts` are the REPL's message texts or the raw output."""
    from paperlint.lean.messages import marker_id

    found: dict[str, list[str]] = {}
    for text in texts:
        for match in _LINE.finditer(text):
            found.setdefault(match["id"], []).append(match["json"])
    result: dict[str, Elaboration | None] = {}
    for name in names:
        answers = found.get(marker_id(name, salt), [])
        result[name] = _one(name, answers[0]) if len(answers) == 1 else None
    return result


def _one(name: str, payload: str) -> Elaboration | None:
    try:
        data = json.loads(payload)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("name") != name or data.get("missing"):
        return None
    entries = data.get("entries")
    if not isinstance(entries, list) or not entries:
        return None
    try:
        parsed = [Entry.model_validate(e) for e in entries]
    except ValidationError:
        return None
    if parsed[0].name != name:
        return None
    return Elaboration.of(name, parsed)


def repl_texts(raw: Mapping[str, Any]) -> list[str]:
    """The message texts of a raw REPL answer (docs/lean-notes.md §4)."""
    messages = raw.get("messages") or ()
    return [str(m.get("data", "")) for m in messages if isinstance(m, Mapping)]


def changes(gated: Elaboration, final: Elaboration | None) -> list[str]:
    """What differs between the gated and the final elaboration ([] when they agree)."""
    if final is None:
        return [f"Lean gave no elaborated statement of `{gated.name}` in the final file"]
    if final.digest == gated.digest:
        return []
    before = {e.name: e for e in gated.entries}
    after = {e.name: e for e in final.entries}
    out: list[str] = []
    for name in sorted(before.keys() | after.keys()):
        old, new = before.get(name), after.get(name)
        if old is None:
            out.append(f"`{name}` is new in the statement's meaning")
        elif new is None:
            out.append(f"`{name}` no longer belongs to the statement's meaning")
        elif old.type != new.type or old.levels != new.levels:
            out.append(f"the elaborated type of `{name}` differs")
        elif old != new:
            out.append(
                f"the elaborated {'value' if old.value != new.value else 'form'} of "
                f"`{name}` differs"
            )
    return out or ["the elaborated statement differs"]


def from_record(data: Any) -> Elaboration | None:
    """An `Elaboration` read back from a record (None when absent or malformed)."""
    if not isinstance(data, Mapping):
        return None
    try:
        stored = Elaboration.model_validate(data)
    except ValidationError:
        return None
    # The digest is recomputed, never trusted: a forger edits entries and digest alike.
    recomputed = Elaboration.of(stored.name, stored.entries)
    return recomputed if recomputed.digest == stored.digest else None


def elaborate(
    verifier: Verifier,
    context: LeanContext,
    names: Sequence[str],
    *,
    timeout_s: float,
    declaration: str = "",
) -> dict[str, Elaboration | None] | None:
    """Ask `verifier` for the elaborated statements of `names` (None: it cannot answer)."""
    answer = verifier.elaborate_statements(
        context, names, timeout_s=timeout_s, declaration=declaration
    )
    return answer if isinstance(answer, dict) else None
