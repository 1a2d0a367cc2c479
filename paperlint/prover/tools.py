"""The prover's tools: check, goals, search, library, try. Typed, bounded, deterministic.

Each tool takes its typed arguments, reaches Lean only through the `Verifier` (acceptance, and
raw answers to probe commands), and returns a `ToolResult` whose `text` is what the model reads:
deterministic, at most `MAX_CHARS` characters. Everything a model writes passes the refusal
scan before Lean sees it (the verifier and the probe both run it).

- `check(lean)`: the full acceptance rule (`verifier.accept`: no error, no sorry, the target
  exists, axioms within the allowlist). On a Lean error the candidate is re-run with
  `all_tactics` and the goal before the failing tactic is shown inline above it. A candidate
  identical (up to whitespace) to an earlier one is refused before Lean.
- `goals(lean)`: the goal at every `sorry` and `?_` of a partial proof (`?_` -> `sorry`).
- `search(query)`: the declaration index, target and later results hidden, every hit
  re-checked with `#check @name` on the current context; a hit Lean does not know is dropped.
- `library(goal)`: `exact?`, `apply?`, `rw?` under a short timeout; their `Try this:` lines.
- `try(tactics, goal)`: each tactic alone on the goal, each outcome reported.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from paperlint.lean import responses
from paperlint.lean.feedback import collapse, render, render_feedback
from paperlint.lean.verifier import FailureCode, LeanCheck, LeanContext, RawAnswer, Verifier, accept
from paperlint.prover.goalstate import goal_statement, holes_to_sorry, with_tactic
from paperlint.prover.index import Hit, SearchIndex

MAX_CHARS = 3000
SEARCH_LIMIT = 8
MAX_TACTICS = 8
LIBRARY_TACTICS = ("exact?", "apply?", "rw?")
_SUGGESTION = "Try this:"


class _Args(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CheckArgs(_Args):
    lean: str = Field(min_length=1, max_length=20000, description="the whole declaration")


class GoalsArgs(_Args):
    lean: str = Field(min_length=1, max_length=20000, description="a proof with sorry or ?_")


class SearchArgs(_Args):
    query: str = Field(min_length=1, max_length=300, description="words, a name or a type")


class LibraryArgs(_Args):
    goal: str = Field(min_length=1, max_length=4000, description="a goal as Lean prints it")


class TryArgs(_Args):
    tactics: list[str] = Field(min_length=1, max_length=MAX_TACTICS)
    goal: str = Field(min_length=1, max_length=4000)


ARGS: dict[str, type[_Args]] = {
    "check": CheckArgs,
    "goals": GoalsArgs,
    "search": SearchArgs,
    "library": LibraryArgs,
    "try": TryArgs,
}
DESCRIPTIONS: dict[str, str] = {
    "check": "Check a complete candidate declaration with Lean. Accepted ends the obligation; "
    "otherwise Lean's errors come back inline, with the goal before the failing tactic.",
    "goals": "Show the goal at every `sorry` and `?_` of a partial proof.",
    "search": "Search the pinned Mathlib for declarations by words, name fragments or type "
    "shape; every hit is confirmed with #check.",
    "library": "Run exact?, apply? and rw? on a goal (as Lean prints it) and list their "
    "suggestions.",
    "try": "Try several tactics, each alone, on a goal (as Lean prints it); report each result.",
}


class ToolResult(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    tool: str
    ok: bool  # the tool ran and answered (a rejected candidate is still ok)
    text: str
    accepted: bool = False  # only `check`: the obligation is closed by `candidate`
    candidate: str | None = None
    names: tuple[str, ...] = ()  # `search`: the confirmed hits, in order


def bounded(text: str, limit: int = MAX_CHARS) -> str:
    if len(text) <= limit:
        return text
    return text[: limit - 40].rstrip() + f"\n… (cut at {limit} characters)"


def _normal(lean: str) -> str:
    return " ".join(lean.split())


@dataclass
class Workbench:
    """The tools for one obligation: its context, target and the names it must not see."""

    verifier: Verifier | None  # None: the search/goals-only bench of the CLI; check refuses
    probe: Verifier
    context: LeanContext
    target: str
    index: SearchIndex | None = None
    hidden: frozenset[str] = frozenset()
    skeleton: str | None = None  # the gated declaration: a candidate must keep its statement
    check_timeout_s: float = 120.0
    probe_timeout_s: float = 20.0
    seen: dict[str, int] = field(default_factory=dict)  # normalised candidate -> check number

    def run(self, tool: str, arguments: Mapping[str, Any]) -> ToolResult:
        """Validate `arguments` for `tool` and run it; bad arguments are an answer, not a crash."""
        model = ARGS.get(tool)
        if model is None:
            return ToolResult(tool=tool, ok=False, text=f"unknown tool {tool!r}; use {list(ARGS)}")
        try:
            args = model.model_validate(dict(arguments))
        except ValueError as exc:
            return ToolResult(tool=tool, ok=False, text=bounded(f"bad arguments: {exc}", 600))
        if isinstance(args, CheckArgs):
            return self.check(args.lean)
        if isinstance(args, GoalsArgs):
            return self.goals(args.lean)
        if isinstance(args, SearchArgs):
            return self.search(args.query)
        if isinstance(args, LibraryArgs):
            return self.library(args.goal)
        assert isinstance(args, TryArgs)  # ARGS is closed
        return self.try_tactics(args.tactics, args.goal)

    # --- check -------------------------------------------------------------------------------

    def check(self, lean: str) -> ToolResult:
        key = _normal(lean)
        if key in self.seen:
            return ToolResult(
                tool="check",
                ok=True,
                text=f"refused before Lean: identical to check #{self.seen[key]}, which failed; "
                "change the proof",
                candidate=lean,
            )
        if self.verifier is None:
            return ToolResult(tool="check", ok=False, text="check is not available here")
        self.seen[key] = len(self.seen) + 1
        problem = statement_problem(self.skeleton, lean, self.target) if self.skeleton else ""
        if problem:
            return ToolResult(tool="check", ok=True, text=f"refused before Lean: {problem}")
        result = accept(
            self.verifier, self.context, lean, self.target, timeout_s=self.check_timeout_s
        )
        if result.accepted:
            axioms = ", ".join(result.axioms or ()) or "none"
            text = f"accepted: {self.target} is proved (axioms: {axioms})"
            return ToolResult(tool="check", ok=True, text=text, accepted=True, candidate=lean)
        return ToolResult(tool="check", ok=True, text=bounded(self._failure(lean, result)))

    def _failure(self, lean: str, result: LeanCheck) -> str:
        head = f"rejected ({result.code or result.outcome}): {result.hint or ''}".rstrip()
        if result.code is not FailureCode.LEAN_ERROR:
            return f"{head}\n{render_feedback(lean, result)}"
        raw = self.probe.command(
            self.context, lean, timeout_s=self.check_timeout_s, all_tactics=True
        )
        if isinstance(raw, LeanCheck) or responses.is_lean_error(raw):
            return f"{head}\n{render_feedback(lean, result)}"
        messages = responses.parse_messages(raw)
        goals = failing_tactic_goals(raw, messages)
        return f"{head}\n{render(lean, messages, goals)}"

    # --- goals -------------------------------------------------------------------------------

    def goals(self, lean: str) -> ToolResult:
        raw = self.probe.command(self.context, holes_to_sorry(lean), timeout_s=self.probe_timeout_s)
        if isinstance(raw, LeanCheck):
            return ToolResult(tool="goals", ok=False, text=f"no goals: {raw.hint}")
        if responses.is_lean_error(raw):
            return ToolResult(tool="goals", ok=False, text=f"no goals: {raw.get('message', '')}")
        lines = []
        for number, entry in enumerate(raw.get("sorries") or (), start=1):
            line = (entry.get("pos") or {}).get("line", 0)
            lines.append(f"goal {number} (line {line}):\n{entry.get('goal', '').strip()}")
        errors = [m for m in responses.parse_messages(raw) if m.severity == "error"]
        lines.extend(f"error (line {m.line}): {collapse(m.text, 240)}" for m in errors[:3])
        text = "\n\n".join(lines) if lines else "no sorry or ?_ left, and no error"
        return ToolResult(tool="goals", ok=True, text=bounded(text))

    # --- search ------------------------------------------------------------------------------

    def search(self, query: str, *, limit: int = SEARCH_LIMIT) -> ToolResult:
        if self.index is None:
            return ToolResult(
                tool="search", ok=False, text="no declaration index; run `paperlint setup`"
            )
        hidden = self.hidden | {self.target}
        hits = self.index.search(query, limit=limit, hidden=hidden)
        confirmed = self.confirm(hits)
        if not confirmed:
            return ToolResult(tool="search", ok=True, text=f"no declaration found for {query!r}")
        text = "\n".join(f"{name} : {collapse(sig, 300)}" for name, sig in confirmed)
        names = tuple(name for name, _ in confirmed)
        return ToolResult(tool="search", ok=True, text=bounded(text), names=names)

    def confirm(self, hits: Sequence[Hit]) -> list[tuple[str, str]]:
        """`#check @name` for every hit in one command; only names Lean knows survive."""
        if not hits:
            return []
        query = "\n".join(f"#check @{hit.name}" for hit in hits)
        raw = self.probe.command(self.context, query, timeout_s=self.probe_timeout_s)
        if isinstance(raw, LeanCheck) or responses.is_lean_error(raw):
            return []
        by_line: dict[int, list[Any]] = {}
        for message in responses.parse_messages(raw):
            by_line.setdefault(message.line, []).append(message)
        out = []
        for line, hit in enumerate(hits, start=1):
            found = by_line.get(line, [])
            if not found or any(m.severity == "error" for m in found):
                continue
            info = found[0].text.strip()
            signature = info.split(" : ", 1)[1] if " : " in info else hit.type
            out.append((hit.name, signature))
        return out

    # --- library and try ---------------------------------------------------------------------

    def library(self, goal: str) -> ToolResult:
        statement = goal_statement(goal)
        lines = []
        for tactic in LIBRARY_TACTICS:
            raw = self.probe.command(
                self.context, with_tactic(statement, tactic), timeout_s=self.probe_timeout_s
            )
            lines.append(f"{tactic}: {suggestions(raw)}")
        return ToolResult(tool="library", ok=True, text=bounded("\n".join(lines)))

    def try_tactics(self, tactics: Sequence[str], goal: str) -> ToolResult:
        statement = goal_statement(goal)
        lines = []
        for tactic in tactics[:MAX_TACTICS]:
            raw = self.probe.command(
                self.context, with_tactic(statement, tactic), timeout_s=self.probe_timeout_s
            )
            lines.append(f"{tactic}: {tactic_outcome(raw)}")
        return ToolResult(tool="try", ok=True, text=bounded("\n".join(lines)))


def statement_problem(skeleton: str, candidate: str, name: str) -> str:
    """The engine's rule (execute._proof_problem): exactly one declaration named `name`, with
    the gated statement's fingerprint; only the proof may be written."""
    from paperlint.lean import fingerprint as fp
    from paperlint.lean.declarations import declarations

    gated = declarations(skeleton)
    if not gated:
        return "the obligation's skeleton could not be parsed"
    found = [
        fp.fingerprint(fp.statement_text(d)) for d in declarations(candidate) if d.name == name
    ]
    if len(found) != 1:
        return f"the answer must contain exactly one declaration named {name}"
    if found[0] != fp.fingerprint(fp.statement_text(gated[0])):
        return f"the statement of {name} was changed; only its proof may be written"
    return ""


def failing_tactic_goals(raw: RawAnswer, messages: Sequence[Any]) -> list[tuple[int, str]]:
    """(line, goals) of the innermost tactic around each error: the goal it failed on."""
    tactics = [t for t in raw.get("tactics") or () if isinstance(t, Mapping)]
    out: list[tuple[int, str]] = []
    for message in messages:
        if message.severity != "error":
            continue
        at = (message.line, message.column)
        around = [t for t in tactics if _start(t) <= at <= _end(t)]
        if not around:
            continue
        innermost = min(around, key=lambda t: (_end(t)[0] - _start(t)[0], _end(t)[1]))
        entry = (
            _start(innermost)[0],
            f"before `{innermost.get('tactic', '')}`: {innermost.get('goals', '')}",
        )
        if entry not in out:
            out.append(entry)
    return out


def _start(tactic: Mapping[str, Any]) -> tuple[int, int]:
    pos = tactic.get("pos") or {}
    return int(pos.get("line", 0)), int(pos.get("column", 0))


def _end(tactic: Mapping[str, Any]) -> tuple[int, int]:
    pos = tactic.get("endPos") or tactic.get("pos") or {}
    return int(pos.get("line", 0)), int(pos.get("column", 0))


def suggestions(raw: RawAnswer | LeanCheck) -> str:
    if isinstance(raw, LeanCheck):
        return f"no answer ({raw.code or raw.outcome}: {collapse(raw.hint or '', 120)})"
    if responses.is_lean_error(raw):
        return f"no answer ({collapse(str(raw.get('message', '')), 120)})"
    found = []
    for message in responses.parse_messages(raw):
        for line in message.text.splitlines():
            if _SUGGESTION in line:
                found.append(line.split(_SUGGESTION, 1)[1].strip())
    return "; ".join(dict.fromkeys(found)) if found else "no suggestion"


def tactic_outcome(raw: RawAnswer | LeanCheck) -> str:
    if isinstance(raw, LeanCheck):
        return f"no answer ({raw.code or raw.outcome}: {collapse(raw.hint or '', 120)})"
    checked = responses.check_from_response(raw, "")
    if checked.accepted:
        return "closes the goal"
    errors = checked.errors()
    if checked.goals:
        return f"goals remain: {collapse(checked.goals[0], 240)}"
    if errors:
        return f"fails: {collapse(errors[0].text, 240)}"
    return f"fails: {checked.hint}"
