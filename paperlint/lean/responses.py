"""Raw REPL answers -> paperlint's typed records: the one path live and replayed answers share.

The warm verifier dumps lean-interact's response models back to the REPL's JSON shape and the
replay verifier reads recorded dicts of that shape; both then call these functions, so a replay
test exercises the same acceptance code as a live run (docs/lean-notes.md §10.1). Exceptions map
here too: every failure becomes a typed record, never a stray exception.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from paperlint.errors import LeanSetupError
from paperlint.lean import feedback
from paperlint.lean.messages import (
    is_heartbeat_error,
    is_sorry_warning,
    map_line,
    parse_repl_axioms,
    unsolved_goals,
)
from paperlint.lean.repl_declarations import parse_declarations
from paperlint.lean.verifier import AxiomReport, FailureCode, LeanCheck, LeanMessage, Outcome

RawResponse = Mapping[str, Any]
STALE_ENV = ("Unknown environment.", "Unknown proof state.")
_HINT_CHARS = 400


def is_lean_error(raw: RawResponse) -> bool:
    """lean-interact's rule: exactly `{"message"}` (or, on AutoLeanServer, `{}`) is a LeanError."""
    return set(raw) == {"message"} or not raw


def is_stale_env(raw: RawResponse) -> bool:
    return is_lean_error(raw) and str(raw.get("message", "")).strip() in STALE_ENV


def _pos(value: Any) -> tuple[int, int] | None:
    if isinstance(value, Mapping) and isinstance(value.get("line"), int):
        column = value.get("column")
        return value["line"], column if isinstance(column, int) else 0
    return None


def parse_messages(raw: RawResponse, *, prepended_lines: int = 0) -> tuple[LeanMessage, ...]:
    """The response's messages, lines mapped back to the checked text (docs/lean-notes.md §4.1)."""
    out = []
    for msg in raw.get("messages") or ():
        if not isinstance(msg, Mapping):
            raise ValueError(f"a message is not an object: {msg!r}")
        start = _pos(msg.get("pos")) or (0, 0)
        end = _pos(msg.get("endPos"))
        line = map_line(start[0], prepended_lines=prepended_lines) if start[0] else 0
        out.append(
            LeanMessage(
                severity=str(msg.get("severity", "info")),
                line=line,
                column=start[1],
                end_line=map_line(end[0], prepended_lines=prepended_lines) if end else None,
                end_column=end[1] if end else None,
                text=str(msg.get("data", "")),
            )
        )
    return tuple(out)


def _sorries(raw: RawResponse, prepended_lines: int) -> list[tuple[int, str]]:
    out = []
    for entry in raw.get("sorries") or ():
        if not isinstance(entry, Mapping):
            raise ValueError(f"a sorry is not an object: {entry!r}")
        start = _pos(entry.get("pos"))
        line = map_line(start[0], prepended_lines=prepended_lines) if start else 0
        out.append((line, str(entry.get("goal", ""))))
    return out


def check_from_response(
    raw: RawResponse,
    candidate: str,
    *,
    prepended_lines: int = 0,
    duration_s: float = 0.0,
    replay: bool = False,
) -> LeanCheck:
    """Acceptance rules 1-3 of docs/lean-notes.md §6.2 on one Command response (4-5: `accept`)."""
    common: dict[str, Any] = {"duration_s": duration_s, "replay": replay}
    if is_lean_error(raw):
        message = str(raw.get("message", "")) or "empty response"
        stale = message.strip() in STALE_ENV
        return LeanCheck(
            outcome=Outcome.UNAVAILABLE if stale else Outcome.REJECTED,
            code=FailureCode.BACKEND_ERROR,
            hint=f"the REPL refused the request: {message[:_HINT_CHARS]}",
            **common,
        )
    try:
        messages = parse_messages(raw, prepended_lines=prepended_lines)
        sorries = _sorries(raw, prepended_lines)
        common["declarations"] = parse_declarations(raw, prepended_lines=prepended_lines)
    except ValueError as exc:
        return _incompatible(exc, common)
    errors = [m for m in messages if m.severity == "error"]
    goals = tuple(g for _, g in sorries) + tuple(
        g for m in errors if (g := unsolved_goals(m.text)) is not None
    )
    has_sorry = bool(sorries) or any(is_sorry_warning(m) for m in messages)
    if errors:
        heartbeat = any(is_heartbeat_error(m.text) for m in errors)
        code = FailureCode.HEARTBEATS if heartbeat else FailureCode.LEAN_ERROR
        hint = f"{len(errors)} error(s); first: {errors[0].text.splitlines()[0][:200]}"
    elif has_sorry:
        code, hint = FailureCode.SORRY, "the candidate uses `sorry`"
    else:
        return LeanCheck(outcome=Outcome.ACCEPTED, messages=messages, goals=goals, **common)
    return LeanCheck(
        outcome=Outcome.REJECTED,
        messages=messages,
        goals=goals,
        code=code,
        hint=hint,
        feedback=feedback.render(candidate, messages, sorries),
        **common,
    )


def _incompatible(exc: Exception, common: dict[str, Any]) -> LeanCheck:
    return LeanCheck(
        outcome=Outcome.UNAVAILABLE,
        code=FailureCode.BACKEND_ERROR,
        hint=f"an answer paperlint cannot read (incompatible REPL?): {exc}"[:_HINT_CHARS],
        **common,
    )


def axioms_from_response(
    raw: RawResponse, names: Sequence[str], *, replay: bool = False
) -> AxiomReport:
    """Answers to `messages.axiom_query(names)`; every name must get exactly one answer."""
    if is_lean_error(raw):
        stale = is_stale_env(raw)
        return AxiomReport(
            outcome=Outcome.UNAVAILABLE if stale else Outcome.REJECTED,
            axioms=dict.fromkeys(names),
            code=FailureCode.BACKEND_ERROR,
            hint=f"the REPL refused the axiom query: {str(raw.get('message', ''))[:300]}",
            replay=replay,
        )
    messages = raw.get("messages") or []
    if not isinstance(messages, list) or not all(isinstance(m, Mapping) for m in messages):
        return AxiomReport(
            outcome=Outcome.UNAVAILABLE,
            axioms=dict.fromkeys(names),
            code=FailureCode.BACKEND_ERROR,
            hint="an axiom answer paperlint cannot read (incompatible REPL?)",
            replay=replay,
        )
    axioms, problems = parse_repl_axioms(messages, names)
    if problems:
        return AxiomReport(
            outcome=Outcome.REJECTED,
            axioms=axioms,
            code=FailureCode.AXIOMS_UNPARSED,
            hint="; ".join(problems)[:_HINT_CHARS],
            replay=replay,
        )
    return AxiomReport(outcome=Outcome.ACCEPTED, axioms=axioms, replay=replay)


def failure_from_exception(exc: BaseException) -> tuple[Outcome, FailureCode, str]:
    """Every failure lean-interact raises (docs/lean-notes.md §3.12): an outcome, code and hint.

    Order matters: JSONDecodeError and pydantic's ValidationError are ValueErrors too.
    """
    text = f"{type(exc).__name__}: {exc}"[:_HINT_CHARS]
    if isinstance(exc, TimeoutError):
        # The REPL was killed: the step is unfinished, not refuted.
        return Outcome.TIMEOUT, FailureCode.TIMEOUT, f"wall-clock timeout; {text}"
    if isinstance(exc, MemoryError):
        return (
            Outcome.UNAVAILABLE,
            FailureCode.UNAVAILABLE,
            f"Lean stayed over its memory limit after restarts; use fewer workers. {text}",
        )
    if isinstance(exc, ConnectionAbortedError | BrokenPipeError | ChildProcessError):
        return Outcome.UNAVAILABLE, FailureCode.DEAD_SERVER, f"the Lean REPL died; {text}"
    if isinstance(exc, LeanSetupError | FileNotFoundError | AssertionError):
        return (
            Outcome.UNAVAILABLE,
            FailureCode.UNAVAILABLE,
            f"Lean is not set up; run `paperlint doctor`. {text}",
        )
    if isinstance(exc, json.JSONDecodeError) or type(exc).__name__ == "ValidationError":
        return Outcome.UNAVAILABLE, FailureCode.BACKEND_ERROR, f"unreadable REPL output; {text}"
    if isinstance(exc, ValueError) and "replay" in str(exc):
        return (
            Outcome.UNAVAILABLE,
            FailureCode.PRIOR_DECL_FAILED,
            f"a cached state could not be rebuilt; {text}",
        )
    return Outcome.UNAVAILABLE, FailureCode.BACKEND_ERROR, text


def check_from_exception(
    exc: BaseException, *, duration_s: float = 0.0, replay: bool = False
) -> LeanCheck:
    outcome, code, hint = failure_from_exception(exc)
    return LeanCheck(outcome=outcome, code=code, hint=hint, duration_s=duration_s, replay=replay)


def axioms_from_exception(
    exc: BaseException, names: Sequence[str], *, replay: bool = False
) -> AxiomReport:
    outcome, code, hint = failure_from_exception(exc)
    return AxiomReport(
        outcome=outcome, axioms=dict.fromkeys(names), code=code, hint=hint, replay=replay
    )
