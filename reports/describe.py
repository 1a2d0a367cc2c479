"""Words for record fields, shared by every human-readable output so they cannot disagree."""

from __future__ import annotations

import re
from pathlib import Path

from paperlint.domain import REPLAY_MISS, IssueClass, IssueSide
from paperlint.records.results import Condition, ConditionKind, Issue, Unfinished

CONDITION_KINDS: dict[ConditionKind, str] = {
    ConditionKind.CITED: "(i) cited result",
    ConditionKind.ASSERTED: "(ii) fact asserted without proof",
    ConditionKind.CLAUSE_UNVERIFIED: "(iii) clause of a result not yet verified",
    ConditionKind.CLAUSE_WITH_ISSUE: "(iv) clause of a result with an issue",
    ConditionKind.MISSING_FROM_MATHLIB: "(v) standard fact missing from Mathlib",
}
EXTERNAL_KINDS = (ConditionKind.CITED, ConditionKind.ASSERTED, ConditionKind.MISSING_FROM_MATHLIB)

# Keyed by the enums (a StrEnum member and its value hash alike, so string lookups still work).
ISSUE_CLASSES: dict[str, str] = {
    IssueClass.ERROR: "the printed conclusion is false; a counterexample exists",
    IssueClass.PAPER_ARGUMENT_GAP: "a step's justification does not hold; the conclusion may be "
    "true",
    IssueClass.PAPER_ASSUMPTION_GAP: "a step needs a hypothesis the paper does not state",
    IssueClass.EXPOSITION_GAP: "the conclusion is true, but a range or case is not covered",
    IssueClass.DOMAIN_CLARIFICATION: "the objects are ambiguous; the conclusion depends on the "
    "reading",
}
SIDES: dict[str, str] = {
    IssueSide.PAPER: "the paper",
    IssueSide.FORMALIZATION: "the formalisation (not the paper)",
    IssueSide.UNKNOWN: "not determined",
}


_TEX_ARG = re.compile(
    r"\\(?:emph|textit|textbf|textsc|textrm|textsf|texttt|url|href\{[^}]*\})\{([^{}]*)\}"
)
_TEX_DASHES = (("---", "—"), ("--", "–"), ("``", "“"), ("''", "”"), ("~", " "))


def plain_tex(text: str) -> str:
    """A bibliography entry as a reader sees it: `J.~M. \\emph{Title}` -> `J. M. Title`."""
    text = _TEX_ARG.sub(r"\1", text)
    for tex, char in _TEX_DASHES:
        text = text.replace(tex, char)
    text = re.sub(r"\\([&%$#_ ])", r"\1", text)
    text = re.sub(r"(?<!\\)[{}]", "", text)
    return " ".join(text.split())


def condition_source(condition: Condition, bibliography: dict[str, str]) -> str:
    """Where an assumed hypothesis comes from, in one line."""
    source = condition.source
    bits: list[str] = []
    if source.key:
        bits.append(f"[{source.key}]")
        if source.key in bibliography:
            bits.append(plain_tex(bibliography[source.key]))
    if source.locator:
        bits.append(source.locator)
    if source.result:
        bits.append(f"result {source.result}")
    if source.quote:
        bits.append(f"“{source.quote}”")
    return ", ".join(bits) if bits else "no source recorded"


def issue_location(issue: Issue) -> str:
    return f"{issue.location.file}:{issue.location.line}"


def issue_confirmation(issue: Issue) -> str:
    evidence = issue.evidence
    bits = []
    if evidence.counterexample:
        bits.append(f"Lean counterexample {evidence.counterexample}")
    if evidence.confirmed_by:
        bits.append(f"confirmed by {evidence.confirmed_by}")
    if evidence.raised_by:
        bits.append(f"raised by {evidence.raised_by}")
    return "; ".join(bits) if bits else "no confirmation recorded"


def unfinished_text(unfinished: Unfinished) -> str:
    text = unfinished.reason.value
    if unfinished.detail:
        text += f": {unfinished.detail}"
    if unfinished.remaining:
        text += f" (remaining: {', '.join(unfinished.remaining)})"
    return text


_REPLAY_MISS = re.compile(
    r"(?:\w[\w ]*: )?" + re.escape(REPLAY_MISS) + r" (task=(\w+)[^()\n]*)\(([^()\n]*)\)"
)
REPLAY_MISS_WORDS = "the replay holds no recorded answer for this step"


def split_replay_misses(text: str) -> tuple[str, list[str]]:
    """`text` for a reader, and its technical lines: each replay miss ("gate reviewer: replay
    transcript has no entry for task=convergence result=… (/…/transcript.jsonl)") becomes
    REPLAY_MISS_WORDS with the task, its key and path become a technical line."""
    technical: list[str] = []

    def plain(match: re.Match[str]) -> str:
        key, task, path = match.group(1).strip(), match.group(2), match.group(3)
        technical.append(f"replay miss: {key} (transcript {Path(path).name})")
        return f"{REPLAY_MISS_WORDS} ({task.replace('_', ' ')})"

    return _REPLAY_MISS.sub(plain, text), technical


SHARED_AT = 3  # a reason given for this many results or more is stated once, with the list


def shown_paths(text: str, workspace: Path) -> str:
    """Absolute local paths as a reader elsewhere can use them: relative to the workspace,
    `<paperlint>/…` for paperlint's own files, `~/…` under the home folder."""
    from paperlint.lean.pins import default_project_dir

    own = default_project_dir().parent  # holds lean-project/ and the REPL's cache
    for base, shown in (
        (workspace.resolve(), ""),
        (workspace.absolute(), ""),
        (own, "<paperlint>/"),
        (Path.home(), "~/"),
    ):
        prefix = str(base).rstrip("/") + "/"
        if len(prefix) > 1:
            text = text.replace(prefix, shown)
    return text


def unfinished_groups(texts: dict[str, str]) -> list[tuple[str, list[str]]]:
    """Reasons shared by `SHARED_AT` results or more: (reason, result ids), most common first.

    `texts` maps a result id to its unfinished text, in document order.
    """
    by_text: dict[str, list[str]] = {}
    for result_id, text in texts.items():
        by_text.setdefault(text, []).append(result_id)
    groups = [(text, ids) for text, ids in by_text.items() if len(ids) >= SHARED_AT]
    return sorted(groups, key=lambda group: -len(group[1]))
