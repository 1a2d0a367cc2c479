"""What the gate (and the report) is shown of the faithfulness evidence: signals, as text.

The gate reads this block beside the paper's statement. It says what Lean showed and what it
did not, in that order, and asks a question where the drafts disagree; it never states a
verdict. Pure text from the record, so the report shows the same words.
"""

from __future__ import annotations

from paperlint.records.faithfulness import (
    Agreement,
    Direction,
    Equivalence,
    FaithfulnessEvidence,
    HypothesisStatus,
    MinimalHypotheses,
    ProbeResult,
)
from paperlint.records.outputs import GateRuling, Reading

_DIRECTION = {
    Direction.FORWARD: "draft 1 ⇒ draft 2",
    Direction.BACKWARD: "draft 2 ⇒ draft 1",
}


def equivalence_lines(equivalence: Equivalence) -> list[str]:
    if equivalence.agreement is Agreement.EQUIVALENT:
        rungs = [
            f"{_DIRECTION[d.direction]} by {d.rung.value}"
            for d in (equivalence.forward, equivalence.backward)
            if d is not None and d.rung is not None
        ]
        return [f"Two independent drafts are equivalent in Lean ({'; '.join(rungs)})."]
    if equivalence.agreement in (Agreement.NO_ANSWER, Agreement.UNREADABLE):
        return [f"Equivalence of the two drafts not checked: {equivalence.agreement.value}."]
    failing = ", ".join(_DIRECTION[d] for d in equivalence.failing)
    return [
        f"The two drafts DISAGREE: no rung proved {failing} (not a refutation).",
        "Draft 1:",
        _indent(equivalence.first),
        "Draft 2:",
        _indent(equivalence.second),
        "Say which reading is the paper's; if both are defensible readings of the paper, "
        "the result needs a DOMAIN_CLARIFICATION.",
    ]


def probe_lines(probe: ProbeResult) -> list[str]:
    if probe.skipped:
        return [f"Counterexample probe not run: {probe.skipped}."]
    if probe.refutation is not None:
        ref = probe.refutation
        where = ", ".join(f"{k} := {v}" for k, v in ref.assignment.items())
        at = f" at {where}" if where else ""
        return [
            f"Lean REFUTES the statement{at} ({ref.step.value}; axioms: {', '.join(ref.axioms)}):",
            _indent(ref.declaration),
            "Either the Lean is a mistranslation (send it back to the drafter with this "
            "witness) or the paper's statement is false (an ERROR issue).",
        ]
    tried = len(probe.attempts)
    lines = [f"No counterexample found in {tried} Lean attempts (this proves nothing)."]
    if probe.hint:
        lines.append(f"plausible reported an uncompiled witness: {probe.hint}")
    return lines


def gate_brief(evidence: FaithfulnessEvidence) -> str:
    """The block the gate reads: equivalence, probe, lints, minimal hypotheses."""
    lines: list[str] = []
    if evidence.equivalence is not None:
        lines += equivalence_lines(evidence.equivalence)
    if evidence.probe is not None:
        lines += probe_lines(evidence.probe)
    if evidence.second_probe is not None:
        lines += ["Draft 2, probed the same way:", *probe_lines(evidence.second_probe)]
    if evidence.lints:
        lines.append("Advisory lints (signals to answer, not verdicts):")
        lines += [f"- {lint.render()}" for lint in evidence.lints]
    if evidence.minimal is not None:
        for check in evidence.minimal.checks:
            if check.status is HypothesisStatus.UNNEEDED:
                lines.append(
                    f"Hypothesis `{check.name} : {check.lean_type}` is not needed by the proof "
                    "(a PAPER_ASSUMPTION note or an EXPOSITION remark, never dropped)."
                )
    return "\n".join(lines)


def _indent(text: str) -> str:
    return "\n".join(f"    {line}" for line in text.strip().split("\n"))


def report_lines(evidence: FaithfulnessEvidence) -> list[str]:
    """One line per kind of evidence, for the report (the gate's review is shown apart)."""
    lines: list[str] = []
    eq = evidence.equivalence
    if eq is None:
        lines.append("Second draft: none (one draft only).")
    else:
        lines.append(equivalence_lines(eq)[0])
    if evidence.probe is not None:
        lines.append(f"Counterexample probe: {probe_lines(evidence.probe)[0]}")
    if evidence.second_probe is not None:
        lines.append(f"Probe of draft 2: {probe_lines(evidence.second_probe)[0]}")
    rules = sorted({lint.rule.value for lint in evidence.lints})
    lines.append(f"Lints raised: {', '.join(rules) if rules else 'none'}.")
    if evidence.minimal is not None:
        lines.append(minimal_line(evidence.minimal))
    return lines


def minimal_line(minimal: MinimalHypotheses) -> str:
    """What the minimal-hypotheses check showed, never more: unanswered checks say so."""
    if minimal.skipped:
        return f"Minimal hypotheses not checked: {minimal.skipped}."
    unneeded = [f"`{c.name} : {c.lean_type}`" for c in minimal.unneeded]
    if unneeded:
        return f"Hypotheses the proof does not need: {', '.join(unneeded)}."
    unanswered = [c.name for c in minimal.checks if c.status is HypothesisStatus.NO_ANSWER]
    if unanswered:
        return f"Minimal hypotheses: Lean gave no answer for {', '.join(unanswered)}."
    return "Hypotheses the proof does not need: none found."


_READINGS = {
    Reading.FIRST: "draft 1 is the paper's reading",
    Reading.SECOND: "draft 2 is the paper's reading",
    Reading.BOTH_DEFENSIBLE: "both readings are defensible (a DOMAIN_CLARIFICATION)",
    Reading.NEITHER: "neither draft is the paper's reading",
}


def ruling_lines(gate_round: int, decision: str, ruling: GateRuling | None, why: str) -> list[str]:
    """What the gate answered to the faithfulness evidence of one round, for the report."""
    lines = [f"Gate review, round {gate_round}: {decision} ({why})."]
    if ruling is None:
        return lines
    if ruling.reading is not None:
        lines.append(f"Gate ruling: {_READINGS[ruling.reading]}.")
    if ruling.statement_faithful is not None:
        said = (
            "the Lean says what the paper says, so the paper's claim is false"
            if ruling.statement_faithful
            else "the Lean mistranslates the paper"
        )
        lines.append(f"Gate ruling on the refutation: {said}.")
    lines += [f"Lint answered by the gate: {answer}" for answer in ruling.lint_answers]
    return lines
