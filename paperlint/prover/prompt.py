"""The tool loop's first messages: the role and rules, then the obligation with its premises.

Deterministic text. The rules list every construct the refusal scan blocks (read from the
scan's own tables, so the list cannot drift from what is refused), the decision comes last
(after the work: `check` until accepted, or `give_up` with the reason), and the first user
message already carries the top search hits for the statement's constants and the paper
step's words ("premises up front"), what automation tried, and failed attempts summarised
(goal, error, what was tried) rather than pasted whole.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from paperlint.lean.feedback import collapse
from paperlint.prover.protocol import text_protocol_help
from paperlint.prover.tools import ToolResult, Workbench

PREMISES = 6
_IDENT = re.compile(r"(?<![\w.])([A-Z][\w']*\.[\w'.]+|[a-z][a-z]+(?:_[\w']+)*)")
_LEAN_WORDS = frozenset(
    [
        "theorem",
        "lemma",
        "by",
        "fun",
        "have",
        "show",
        "from",
        "with",
        "at",
        "intro",
        "exact",
        "apply",
        "sorry",
        "example",
        "let",
        "in",
        "if",
        "then",
        "else",
    ]
)


def refused_constructs() -> list[str]:
    """What the refusal scan blocks in model-written Lean, from its own tables."""
    try:
        from paperlint.lean import hygiene_rules as rules
    except ImportError:  # the scan is absent: the axiom check and final build still decide
        return ["sorry", "admit", "axiom", "native_decide"]
    words = [f"`{w}`" for w in rules.WORDS]
    attributes = [f"`@[{a}]`" for a in rules.ATTRIBUTES]
    components = [f"`{c}`" for c in rules.COMPONENTS]
    hashes = [f"`{h}`" for h in getattr(rules, "HASH_EFFECTS", {})]
    options = [f"`set_option {o}*`" for o in getattr(rules, "SOUNDNESS_OPTIONS", ())]
    return [*words, *attributes, *components, *hashes, *options]


def system_prompt(*, native: bool) -> str:
    parts = [
        "You are a prover in paperlint, which verifies the proofs of a mathematics or "
        "statistics paper in Lean 4 with Mathlib. You prove one obligation: a declaration "
        "whose statement was reviewed and frozen, standing for one step of the paper's proof.",
        "",
        "Work like a Lean expert: look at goals (`goals`), find lemma names instead of "
        "guessing them (`search`, `library`), try tactics (`try`), and `check` a complete "
        "candidate. Names you did not see in a search result or in the context are the most "
        "common cause of failure.",
        "",
        "Rules:",
        "- Keep the statement exactly as given: name, binders, hypotheses, type.",
        "- Follow the paper's step; do not bypass its argument with a lemma that is the whole "
        "result.",
        "- Never resubmit a candidate that failed: an identical one is refused before Lean.",
        "- These are refused before Lean sees them, so never write them: "
        + ", ".join(refused_constructs())
        + ".",
        "",
        "Decide last, after the work: the obligation ends when `check` accepts, or when you "
        "call `give_up` with your reason, setting suspected_problem to true only if the "
        "paper's step does not hold as justified (a wrong reason, a missing hypothesis). "
        "'I found no proof' is not a suspected problem.",
    ]
    if not native:
        parts += ["", text_protocol_help()]
    return "\n".join(parts)


def premise_query(statement: str, step_text: str) -> str:
    """Constants of the statement plus the step's words: what to search before turn 1."""
    names = [n for n in _IDENT.findall(statement) if n not in _LEAN_WORDS]
    return " ".join(dict.fromkeys([*names, *step_text.split()]))[:300]


def premises(bench: Workbench, statement: str, step_text: str) -> ToolResult:
    return bench.search(premise_query(statement, step_text), limit=PREMISES)


def summarise_failures(failures: Sequence[dict[str, Any]]) -> str:
    """Earlier failed attempts: number, goal, error, what was tried; one short block each."""
    lines = []
    for failure in failures:
        lines.append(
            f"- attempt {failure['attempt']}: tried {collapse(failure.get('tried', ''), 160)}; "
            f"error: {collapse(failure.get('error', ''), 200)}; "
            f"goal: {collapse(failure.get('goal', '') or 'unknown', 200)}"
        )
    return "\n".join(lines)


def user_prompt(
    *,
    obligation_id: str,
    skeleton: str,
    step_text: str,
    setting: str = "",
    premise_text: str = "",
    automation: str = "",
    failures: Sequence[dict[str, Any]] = (),
) -> str:
    parts = []
    if setting:
        parts += ["## The paper's setting and standing assumptions", setting.strip(), ""]
    parts += [
        "## The paper's step this obligation follows",
        step_text.strip(),
        "",
        f"## The obligation ({obligation_id}); fill only its `sorry`",
        "```lean",
        skeleton.strip(),
        "```",
    ]
    if premise_text:
        parts += ["", "## Declarations that may help (confirmed with #check)", premise_text]
    if automation:
        parts += ["", f"## Already tried: {automation}"]
    if failures:
        parts += ["", "## Earlier failed attempts (summarised)", summarise_failures(failures)]
    parts += ["", f"Prove {obligation_id}. Call the tools; finish with `check` or `give_up`."]
    return "\n".join(parts)


def first_messages(system: str, user: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]
