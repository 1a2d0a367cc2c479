"""The equivalence ladder: are two drafted statements the same proposition? (BEq+ in spirit)

Each direction is one theorem the engine writes, `(h_src_faithful : P) : Q`, where P and Q
are the two drafts as closed propositions. A short ladder of cheap tactics tries to prove it
after introducing Q's binders: `apply`, `exact?` (kept only through the concrete term it
suggests, never as `exact?`), `convert … using 1/2`, `simp_all`, `aesop`. No model is asked.
A direction no rung proves is reported as failing, which is a question for the gate, not a
refutation: the gate must rule on which reading is the paper's.

The text generation is pure (`rung_candidate`); `prove_direction` and `check_equivalence`
run it over any `Verifier` and keep every attempt.
"""

from __future__ import annotations

from collections.abc import Sequence

from paperlint.faithful.attempts import lean_is_gone, try_candidate
from paperlint.faithful.statement import (
    BinderGroup,
    BinderRole,
    Statement,
    parse_statement,
    pin_universes,
)
from paperlint.lean.verifier import LeanCheck, LeanContext, Verifier
from paperlint.records.faithfulness import (
    DEFAULT_RUNGS,
    Agreement,
    Direction,
    DirectionResult,
    Equivalence,
    LadderRung,
    LeanAttempt,
)

SOURCE = "h_src_faithful"
UNIVERSE = "u_faithful"
_CLOSERS = "first | assumption | simp_all | omega | linarith"
_TRY_THIS = "Try this:"


def direction_name(first: Statement, direction: Direction) -> str:
    suffix = "fwd" if direction is Direction.FORWARD else "bwd"
    return f"{first.short_name}_faithful_{suffix}"


def rung_candidate(rung: LadderRung, source: Statement, target: Statement, name: str) -> str:
    """The whole declaration proving `source → target` with one rung of the ladder."""
    lines = [*_intro(target), *_rung_lines(rung, source, target)]
    return _declaration(source, target, name, lines)


def _declaration(source: Statement, target: Statement, name: str, lines: Sequence[str]) -> str:
    premise, pinned_a = pin_universes(source.proposition(), UNIVERSE)
    goal, pinned_b = pin_universes(target.proposition(), UNIVERSE)
    universes = f".{{{UNIVERSE}}}" if pinned_a or pinned_b else ""
    body = "\n".join(f"  {line}" for line in lines)
    return f"theorem {name}{universes} ({SOURCE} : {premise}) :\n    {goal} := by\n{body}"


def _intro(target: Statement) -> list[str]:
    names = [n for g in target.groups for n in (g.name_texts() or ("_",))]
    return [f"intro {' '.join(names)}"] if names else []


def _rung_lines(rung: LadderRung, source: Statement, target: Statement) -> list[str]:
    if rung is LadderRung.APPLY:
        return [f"apply {SOURCE} <;> {_CLOSERS}"]
    if rung is LadderRung.EXACT_SEARCH:
        return ["exact?"]
    if rung in (LadderRung.CONVERT_1, LadderRung.CONVERT_2):
        depth = 1 if rung is LadderRung.CONVERT_1 else 2
        args = " ".join(convert_args(source, target))
        term = f"{SOURCE} {args}" if args else SOURCE
        return [f"convert {term} using {depth} <;> {_CLOSERS}"]
    if rung is LadderRung.SIMP_ALL:
        return ["simp_all"]
    return ["aesop"]


def convert_args(source: Statement, target: Statement) -> list[str]:
    """Explicit arguments for the premise: the i-th explicit variable of the premise gets the
    goal's i-th explicit variable (introduced by name) when their types read the same, else
    `_`; each hypothesis becomes a new goal `?_` for the closers."""
    offered = [(n, g.type) for g in _explicit(target, BinderRole.VARIABLE) for n in g.name_texts()]
    args: list[str] = []
    position = 0
    for group in source.groups:
        if not group.explicit:
            continue
        for _ in group.names:
            if group.role is BinderRole.HYPOTHESIS:
                args.append("?_")
                continue
            match = offered[position] if position < len(offered) else None
            args.append(match[0] if match and match[1] == group.type else "_")
            position += 1
    return args


def _explicit(statement: Statement, role: BinderRole) -> list[BinderGroup]:
    return [g for g in statement.groups if g.explicit and g.role is role]


def suggested_term(check: LeanCheck) -> str | None:
    """The `exact …` that `exact?` reported in its `Try this:` message, or None."""
    for message in check.messages:
        text = message.text.strip()
        if message.severity != "info" or not text.startswith(_TRY_THIS):
            continue
        suggestion = text.removeprefix(_TRY_THIS).strip().removeprefix("[apply]").strip()
        if suggestion.startswith(("exact ", "refine ")) and "exact?" not in suggestion:
            return suggestion
    return None


def with_suggestion(candidate: str, suggestion: str) -> str:
    """The candidate with its `exact?` line replaced by the concrete suggestion."""
    lines = candidate.split("\n")
    index = max(i for i, line in enumerate(lines) if line.strip() == "exact?")
    indent = lines[index][: len(lines[index]) - len(lines[index].lstrip())]
    replacement = [indent + part.strip() for part in suggestion.split("\n") if part.strip()]
    return "\n".join([*lines[:index], *replacement, *lines[index + 1 :]])


def prove_direction(
    verifier: Verifier,
    context: LeanContext,
    source: Statement,
    target: Statement,
    direction: Direction,
    *,
    name: str,
    timeout_s: float,
    rungs: Sequence[LadderRung] = DEFAULT_RUNGS,
) -> DirectionResult:
    """Climb the ladder until one rung's proof is accepted; every attempt is kept."""
    attempts: list[LeanAttempt] = []
    for rung in rungs:
        candidate = rung_candidate(rung, source, target, name)
        attempt, check = try_candidate(
            verifier, context, rung.value, candidate, name, timeout_s=timeout_s
        )
        attempts.append(attempt)
        if lean_is_gone(attempt):
            break
        if rung is LadderRung.EXACT_SEARCH:
            suggestion = suggested_term(check) if attempt.accepted else None
            if suggestion is None:
                continue
            candidate = with_suggestion(candidate, suggestion)
            label = f"{rung.value} → {suggestion}"
            attempt, _ = try_candidate(
                verifier, context, label, candidate, name, timeout_s=timeout_s
            )
            attempts.append(attempt)
        if attempt.accepted:
            return DirectionResult(
                direction=direction,
                proved=True,
                rung=rung,
                proof=candidate,
                target=name,
                attempts=tuple(attempts),
            )
    return DirectionResult(direction=direction, proved=False, attempts=tuple(attempts))


def check_equivalence(
    verifier: Verifier,
    context: LeanContext,
    first: str,
    second: str,
    *,
    timeout_s: float,
    rungs: Sequence[LadderRung] = DEFAULT_RUNGS,
) -> Equivalence:
    """Both directions between two drafted declarations, on `context` (which must hold the
    definitions both drafts use)."""
    one, two = parse_statement(first), parse_statement(second)
    if one is None or two is None:
        which = "first" if one is None else "second"
        return Equivalence(
            first=first,
            second=second,
            agreement=Agreement.UNREADABLE,
            detail=f"the {which} statement's signature could not be read",
        )
    runs = []
    for direction, source, target in (
        (Direction.FORWARD, one, two),
        (Direction.BACKWARD, two, one),
    ):
        runs.append(
            prove_direction(
                verifier,
                context,
                source,
                target,
                direction,
                name=direction_name(one, direction),
                timeout_s=timeout_s,
                rungs=rungs,
            )
        )
    forward, backward = runs
    return Equivalence(
        first=first,
        second=second,
        agreement=agreement_of(forward, backward),
        forward=forward,
        backward=backward,
        universe_pinned=pin_universes(one.proposition())[1] or pin_universes(two.proposition())[1],
    )


def agreement_of(forward: DirectionResult, backward: DirectionResult) -> Agreement:
    if forward.proved and backward.proved:
        return Agreement.EQUIVALENT
    if forward.proved:
        return Agreement.FIRST_IMPLIES_SECOND
    if backward.proved:
        return Agreement.SECOND_IMPLIES_FIRST
    if forward.answered or backward.answered:
        return Agreement.UNPROVED
    return Agreement.NO_ANSWER
