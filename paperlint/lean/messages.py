"""Texts Lean prints, and how paperlint reads them (docs/lean-notes.md §4, §5, §11.4).

Pure functions over strings: no Lean, no lean-interact. Message texts change between Lean
versions, so only stable prefixes are matched, and every parse that decides acceptance fails
closed: an answer that cannot be read counts as a failure, never as a pass.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from paperlint.lean.lexer import ident_parts
from paperlint.lean.verifier import STANDARD_AXIOMS, LeanMessage

# Current Lean prints backticks; older Lean printed quotes. Search, never anchor.
SORRY_WARNING = re.compile(r"declaration uses ['`]sorry['`]")

# The name stays on one line and the pattern is not compiled with re.S: on combined `lean`
# output a preceding sorry-warning line would otherwise be swallowed into the name. `[^\]]*`
# already spans a list that the pretty printer wrapped over several lines.
AXIOMS = re.compile(
    r"'(?P<name>[^\n]+?)' (?:depends on axioms: \[(?P<axioms>[^\]]*)\]"
    r"|does not depend on any axioms)"
)

# Deterministic resource limits: a property of the candidate, unlike a wall-clock timeout.
HEARTBEATS = re.compile(
    r"maximum number of heartbeats|\(kernel\) deterministic timeout"
    r"|\(kernel\) deep recursion detected|maximum recursion depth has been reached"
)
UNSOLVED_GOALS = "unsolved goals"

# Lean aborting before it read anything (docs/lean-oracle.md): under RLIMIT_AS it reserves
# gigabytes of address space for its threads at start-up (4.35 needs about 6 GB), and without
# that it prints one of these on stderr and no message. That is the machine's limit, not the
# candidate's: the final check, the trusted checker and the warm REPL call it unavailable.
_NO_START = re.compile(
    r"failed to create thread|failed to map segment|error while loading shared libraries"
)
MEMORY_HINT = (
    "Lean could not start under the memory limit ([lean] memory_mb; Lean 4.35 reserves about "
    "6 GB of address space at start-up): {why}"
)


def start_failure(text: str) -> str:
    """What Lean printed when it aborted at start-up ("" if `text` shows no such abort)."""
    found = _NO_START.search(text)
    return found.group(0) if found else ""


# `lake env lean FILE`: `path:line:col: severity: text`, continuation lines until the next
# header. Recent Lean may tag the severity with an error name, e.g. `error(lean.foo):`.
_OUTPUT_HEADER = re.compile(
    r"^(?P<path>.*?):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning|info|trace)"
    r"(?:\([^)\n]*\))?:\s?(?P<text>.*)$"
)

# Before Lean 4.24 a `native_decide` proof depended on these two library axioms; a model can
# still name them directly. From then on (and on the pinned 4.35) `Lean.Meta.nativeEqTrue`
# adds one auxiliary axiom per use, named `<decl>._native.<tactic>.ax_<i>[_<j>]` by
# `mkAuxDeclName`: `<tactic>` is `native_decide` (also for `decide +native`), `bv_decide`, or
# any tactic of a library that calls `nativeEqTrue` (`Smt.polynorm`, ...). So the rule is
# structural: a `_native` component followed by a last component `ax_<digits>[_<digits>...]`.
_NATIVE_AXIOMS = frozenset({"Lean.ofReduceBool", "Lean.trustCompiler"})
_NATIVE_AUX_LAST = re.compile(r"ax(?:_\d+)+")


class AxiomClass(StrEnum):
    STANDARD = "standard"
    SORRY = "sorry"
    NATIVE = "native"
    CUSTOM = "custom"


def classify_axiom(name: str) -> AxiomClass:
    """The class of one name from a `#print axioms` answer (docs/lean-notes.md §5): one of four.

    Only the three standard names are STANDARD; everything unknown is CUSTOM, so a name this
    function does not recognise can never count towards a verified verdict."""
    name = name.strip()
    if name in STANDARD_AXIOMS:
        return AxiomClass.STANDARD
    if name == "sorryAx":
        return AxiomClass.SORRY
    if name in _NATIVE_AXIOMS:
        return AxiomClass.NATIVE
    parts = ident_parts(name)  # Lean's printed components, `«…»` kept whole
    if "_native" in parts[:-1] and _NATIVE_AUX_LAST.fullmatch(parts[-1]):
        return AxiomClass.NATIVE
    return AxiomClass.CUSTOM


def never_allowed(name: str) -> bool:
    """`sorryAx` and compiler-trusting axioms: refused whatever an allowlist says."""
    return classify_axiom(name) in (AxiomClass.SORRY, AxiomClass.NATIVE)


def disallowed_axioms(
    axioms: Iterable[str], allowlist: frozenset[str] = STANDARD_AXIOMS
) -> tuple[str, ...]:
    """Axioms outside the allowlist, sorted. `sorryAx` and native axioms are never allowed,
    whatever the list (a configured allowlist may add a named custom axiom, nothing else)."""
    return tuple(sorted({a for a in axioms if a not in allowlist or never_allowed(a)}))


# --- messages -------------------------------------------------------------------------------


def map_line(line: int, *, prepended_lines: int = 0, start_line: int = 1) -> int:
    """Map a 1-based line of the submitted text to a line of the text paperlint checked.

    `prepended_lines` counts lines paperlint put in front of the candidate (a `set_option ...
    in` line); `start_line` is where the candidate starts in a larger file.
    """
    return start_line + line - 1 - prepended_lines


def is_sorry_warning(message: LeanMessage) -> bool:
    return message.severity == "warning" and SORRY_WARNING.search(message.text) is not None


def is_heartbeat_error(text: str) -> bool:
    return HEARTBEATS.search(text) is not None


def unsolved_goals(text: str) -> str | None:
    """The goal text of an `unsolved goals` error, else None."""
    if not text.startswith(UNSOLVED_GOALS):
        return None
    _, _, goals = text.partition("\n")
    return goals.strip() or None


def parse_lean_output(output: str) -> tuple[LeanMessage, ...]:
    """Messages of `lake env lean FILE` text output.

    Errors and warnings print as `FILE:line:col: severity: text` and continue on the next lines;
    information messages (`#check`, `#print axioms`, traces) print bare, with no position at all
    (Lean 4.35: tests/lean_oracle/test_output.py). Bare lines before any header, and bare
    `#print axioms` answers and query markers, become position-less info messages, so no text
    is lost; other bare lines after a header cannot be told from its continuation and are read
    as part of that message's text (its count, position and severity stay exact).
    """
    messages: list[LeanMessage] = []
    current: dict[str, object] | None = None
    stray: list[str] = []

    def flush() -> None:
        nonlocal current, stray
        if current is not None:
            messages.append(LeanMessage.model_validate(current))
            current = None
        if any(s.strip() for s in stray):
            messages.append(_bare("\n".join(stray)))
        stray = []

    for raw in output.splitlines():
        match = _OUTPUT_HEADER.match(raw)
        if match:
            flush()
            current = {
                "severity": match["sev"],
                "line": int(match["line"]),
                "column": int(match["col"]),
                "text": match["text"],
            }
        elif current is not None and not _is_bare_info(raw):
            current["text"] = f"{current['text']}\n{raw}"
        else:
            if current is not None:
                flush()
            stray.append(raw)
    flush()
    return tuple(messages)


def read_output(output: str) -> tuple[LeanMessage, ...]:
    """Messages of a `lean` run: its `--json` output, or (recordings from before the final
    check read JSON) its text output.

    With `--json` (Lean 4.35: tests/lean_oracle/test_output.py) each message is one JSON
    object on its own line, with its position, severity (`information` read as `info`) and
    whole text, so nothing depends on where one message's text ends. A line that is not such
    an object (the runtime's own complaint on stderr, a `lake` warning) is kept as a
    position-less info message. Output holding no JSON message at all is Lean's text format,
    read by `parse_lean_output`."""
    messages: list[LeanMessage] = []
    stray: list[str] = []
    seen_json = False
    for raw in output.splitlines():
        message = _json_message(raw)
        if message is None:
            stray.append(raw)
            continue
        seen_json = True
        if any(s.strip() for s in stray):
            messages.append(_bare("\n".join(stray)))
        stray = []
        messages.append(message)
    if not seen_json:
        return parse_lean_output(output)
    if any(s.strip() for s in stray):
        messages.append(_bare("\n".join(stray)))
    return tuple(messages)


def output_text(output: str) -> str:
    """The texts of a run's messages, one after the other (what the answer readers scan)."""
    return "\n".join(m.text for m in read_output(output))


_JSON_SEVERITY = {"error": "error", "warning": "warning", "information": "info", "info": "info"}


def _json_message(line: str) -> LeanMessage | None:
    if not line.startswith("{"):
        return None
    try:
        data = json.loads(line)
    except ValueError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("data"), str):
        return None
    severity = _JSON_SEVERITY.get(str(data.get("severity")))
    if severity is None:
        return None
    start, end = _json_pos(data.get("pos")), _json_pos(data.get("endPos"))
    return LeanMessage(
        severity=severity,
        line=start[0] if start else 0,
        column=start[1] if start else 0,
        end_line=end[0] if end else None,
        end_column=end[1] if end else None,
        text=data["data"],
    )


def _json_pos(value: object) -> tuple[int, int] | None:
    if not isinstance(value, Mapping):
        return None
    line, column = value.get("line"), value.get("column")
    return (line, column) if isinstance(line, int) and isinstance(column, int) else None


def _bare(text: str) -> LeanMessage:
    return LeanMessage(severity="info", line=0, column=0, text=text)


def _is_bare_info(line: str) -> bool:
    # A bare `#print axioms` answer or a marker echo starts a new, position-less message.
    return AXIOMS.search(line) is not None or MARKER_TOKEN.search(line) is not None


# --- `#print axioms` --------------------------------------------------------------------------


@dataclass(frozen=True)
class AxiomAnswer:
    name: str
    axioms: tuple[str, ...]  # empty for "does not depend on any axioms"


def parse_axiom_answers(text: str) -> list[AxiomAnswer]:
    answers = []
    for match in AXIOMS.finditer(text):
        listed = match["axioms"]
        axioms = tuple(a.strip() for a in listed.split(",") if a.strip()) if listed else ()
        answers.append(AxiomAnswer(name=match["name"], axioms=axioms))
    return answers


def names_match(queried: str, answered: str) -> bool:
    """Lean answers with the full name; a query may be `_root_.`-prefixed or namespace-relative."""
    queried = queried.removeprefix("_root_.")
    return answered == queried or answered.endswith("." + queried)


def rooted(name: str) -> str:
    """`_root_.name`: under an `open`, a bare name can resolve to two constants (one answer
    each, which fails closed); the generated files declare everything at the root."""
    return name if name.startswith("_root_.") else f"_root_.{name}"


def axiom_query(names: Sequence[str]) -> str:
    """One `#print axioms` per line, so that line i of the answer belongs to names[i-1]."""
    return "\n".join(f"#print axioms {rooted(name)}" for name in names)


def parse_repl_axioms(
    messages: Sequence[Mapping[str, object]], names: Sequence[str]
) -> tuple[dict[str, tuple[str, ...] | None], list[str]]:
    """Answers to `axiom_query(names)` from the REPL's message dicts, fail-closed.

    Each query sits on its own line, so a message's line says which name it answers. A name
    gets None (a failure) when its line has an error, no answer, or more than one answer.
    """
    by_line: dict[int, list[Mapping[str, object]]] = {}
    for msg in messages:
        pos = msg.get("pos")
        line = pos.get("line") if isinstance(pos, Mapping) else None
        by_line.setdefault(line if isinstance(line, int) else 0, []).append(msg)
    result: dict[str, tuple[str, ...] | None] = {}
    problems: list[str] = []
    for index, name in enumerate(names, start=1):
        here = by_line.get(index, [])
        if any(m.get("severity") == "error" for m in here):
            errors = "; ".join(str(m.get("data", "")) for m in here if m.get("severity") == "error")
            result[name] = None
            problems.append(f"{name}: {errors[:300]}")
            continue
        answers = [a for m in here for a in parse_axiom_answers(str(m.get("data", "")))]
        result[name], problem = _one_answer(name, answers)
        if problem:
            problems.append(problem)
    if by_line.get(0):
        problems.append("messages without a position in an axiom query")
    return result, problems


def _one_answer(name: str, answers: list[AxiomAnswer]) -> tuple[tuple[str, ...] | None, str]:
    if not answers:
        return None, f"{name}: no `#print axioms` answer"
    if len(answers) > 1:
        return None, f"{name}: {len(answers)} answers (ambiguous name?)"
    if not names_match(name, answers[0].name):
        return None, f"{name}: the answer names {answers[0].name!r}"
    return answers[0].axioms, ""


# --- marker-wrapped queries for text output (LeanFlow, docs/lean-notes.md §11.4) -------------

MARKER_TOKEN = re.compile(r"PAPERLINT_AXIOMS_(?P<kind>BEGIN|END)_(?P<id>[0-9a-f]{16})")


def marker_id(name: str, salt: str) -> str:
    """Unique per queried name and file, so an answer can only belong to its own query."""
    return hashlib.sha256(f"{name}\0{salt}".encode()).hexdigest()[:16]


def marked_axiom_queries(names: Sequence[str], salt: str) -> str:
    blocks = []
    for name in names:
        mid = marker_id(name, salt)
        blocks.append(
            f'#check ("PAPERLINT_AXIOMS_BEGIN_{mid}" : String)\n'
            f"#print axioms {rooted(name)}\n"
            f'#check ("PAPERLINT_AXIOMS_END_{mid}" : String)'
        )
    return "\n".join(blocks) + "\n"


def parse_marked_axioms(
    output: str, names: Sequence[str], salt: str
) -> tuple[dict[str, tuple[str, ...] | None], list[str]]:
    """Answers between each name's markers, fail-closed.

    A name gets None when a marker is missing, duplicated or out of order, when another
    query's marker sits inside its block, or when its block holds no or several answers.
    """
    tokens = [(m["kind"], m["id"], m.start(), m.end()) for m in MARKER_TOKEN.finditer(output)]
    result: dict[str, tuple[str, ...] | None] = {}
    problems: list[str] = []
    for name in names:
        mid = marker_id(name, salt)
        begins = [t for t in tokens if t[1] == mid and t[0] == "BEGIN"]
        ends = [t for t in tokens if t[1] == mid and t[0] == "END"]
        if len(begins) != 1 or len(ends) != 1 or begins[0][3] > ends[0][2]:
            result[name] = None
            problems.append(f"{name}: markers missing, duplicated or out of order")
            continue
        start, stop = begins[0][3], ends[0][2]
        if any(start <= t[2] < stop for t in tokens):
            result[name] = None
            problems.append(f"{name}: another query's marker inside its block")
            continue
        block = output[start:stop]
        answers = parse_axiom_answers(block)
        result[name], problem = _one_answer(name, answers)
        if problem:
            problems.append(problem)
    return result, problems


def insert_before_trailing_end(text: str, addition: str) -> str:
    """Put `addition` before the trailing `end X` lines that close namespaces or sections."""
    lines = text.rstrip("\n").split("\n")
    cut = len(lines)
    while cut > 0 and (
        not lines[cut - 1].strip()
        or re.fullmatch(r"end(\s+[^\s-]+)?\s*(--.*)?", lines[cut - 1].strip())
    ):
        cut -= 1
    head, tail = lines[:cut], lines[cut:]
    return "\n".join([*head, "", addition.rstrip("\n"), *tail]) + "\n"
