"""Rules that trust nothing a forger controls and can recompute.

- The inventory is re-derived: preflight re-runs on the kept `source/` (at the load edge), and
  every result it finds must be in `inventory.json` with the same id, kind, number and
  statement, so deleting a result from both records is no longer invisible.
- Each gate record names the sha256 of the TeX statement it reviewed and of each dependency's;
  they must equal the kept source's now (a revision cannot keep stale gates).
- Every compiled refutation in `lean/` is cross-checked against every verified result whose
  gated statement it refutes.
- `replay: false` must agree with every model string and transcript hash in `events.jsonl`.
- A verdict never rests on a replayed answer recorded for another prompt: a replayed call
  whose recorded prompt differs from the one asked, under the same template (so its inputs
  differ), since the result's last revision (a replay today refuses such an answer; an older
  paperlint served it).
- Every accepted proof passes the prover-answer allowlist (`paperlint.lean.answer`).
- Lean's elaboration recorded at the gate equals the final check's, when the gate has one.
- A second kernel an older run claimed (a final check naming lean4checker) must have passed; a
  passing claim is no evidence: the trusted checker's record is (checker_rules.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from paperlint.lean.answer import answer_findings
from paperlint.lean.elaborated import changes, from_record
from paperlint.records.results import ResultRecord, Verdict
from paperlint.records.run import run_of
from paperlint.records.slots import draft_of, obligations_of
from paperlint.validate.context import Context
from paperlint.validate.model import Check, Finding
from paperlint.validate.texhash import statement_sha256

_FIELDS = ("kind", "number", "statement")
# Model strings a replayed run records (agents/scripted.py, fixtures' `author.py`).
_REPLAY_MODELS = ("scripted", "replay", "hand-authored")


def workspace_findings(ctx: Context) -> list[Finding]:
    return [*inventory_source_findings(ctx), *live_run_findings(ctx), *refutation_findings(ctx)]


def record_findings(ctx: Context, record: ResultRecord) -> list[Finding]:
    found = gate_tex_findings(ctx, record)
    if record.verdict is not None:
        found += prompt_findings(ctx, record)
    if record.verdict in (Verdict.VERIFIED_UNCONDITIONAL, Verdict.VERIFIED_CONDITIONAL):
        found += answer_rule_findings(ctx, record)
        found += elaboration_findings(ctx, record)
        found += second_kernel_findings(ctx, record)
    return found


def _source_results(ctx: Context) -> dict[str, Mapping[str, Any]] | None:
    inventory = ctx.snap.source_inventory
    if inventory is None:
        return None
    return {str(r.get("id")): r for r in inventory.get("results", []) if isinstance(r, dict)}


def inventory_source_findings(ctx: Context) -> list[Finding]:
    source = _source_results(ctx)
    if source is None:
        why = ctx.snap.source_inventory_error or "preflight could not run on source/"
        return [Finding("source", Check.INVENTORY_SOURCE_MISMATCH, why)]
    recorded_inventory = ctx.snap.json("inventory.json") or {}
    recorded = {
        str(r.get("id")): r for r in recorded_inventory.get("results", []) if isinstance(r, dict)
    }
    found: list[Finding] = []
    for rid, result in source.items():
        kept = recorded.get(rid)
        if kept is None:
            message = (
                f"preflight finds {result.get('kind')} {rid} in source/; inventory.json lacks it"
            )
            found.append(
                Finding("inventory.json", Check.INVENTORY_SOURCE_MISMATCH, message, result=rid)
            )
            continue
        differ = [f for f in _FIELDS if kept.get(f) != result.get(f)]
        if differ:
            message = f"{rid}: {', '.join(differ)} differ from what preflight reads in source/"
            found.append(
                Finding("inventory.json", Check.INVENTORY_SOURCE_MISMATCH, message, result=rid)
            )
    for rid in recorded.keys() - source.keys():
        message = f"{rid} is in inventory.json but preflight finds no such result in source/"
        found.append(
            Finding("inventory.json", Check.INVENTORY_SOURCE_MISMATCH, message, result=rid)
        )
    return found


def gate_tex_findings(ctx: Context, record: ResultRecord) -> list[Finding]:
    """The gate reviewed the TeX statements the kept source holds now."""
    path = record.evidence.gate
    gate = ctx.gate(record) if path else None
    source = _source_results(ctx)
    if gate is None or path is None or source is None:
        return []  # no gate: gate-missing says so where one is needed; no source: said above
    tex = gate.get("tex")
    if not isinstance(tex, dict):
        return [ctx.about(record, path, Check.GATE_TEX_MISMATCH, "the gate names no TeX hash")]
    found: list[Finding] = []
    expected = {record.id: tex.get("statement_sha256")}
    deps = tex.get("dependencies")
    # The gate reviewed the statement, and what it says rests on what it uses, transitively;
    # a result only the proof uses is hashed too (the gate names every dependency) but is no
    # part of that: a change of its statement re-proves this result under the same gate
    # (`revise.changes`), and `validate` then failed a gate that still holds.
    read = _statement_closure(source, record.id)
    expected.update({k: v for k, v in deps.items() if k in read} if isinstance(deps, dict) else {})
    for rid, digest in expected.items():
        now = source.get(rid)
        text = str(now.get("statement", "")) if now is not None else None
        if rid == record.id and text is not None:
            seen = {statement_sha256(t) for t in _as_labelled(text, ctx.names.former(rid), rid)}
        else:
            seen = {statement_sha256(text)} if text is not None else set()
        if digest not in seen:
            what = "its statement" if rid == record.id else f"dependency {rid}"
            message = f"the gate reviewed another TeX text of {what} than source/ holds now"
            found.append(ctx.about(record, path, Check.GATE_TEX_MISMATCH, message))
    for rid in _statement_uses(source.get(record.id)):
        if rid not in expected and rid in source:
            message = f"the statement uses {rid}, whose TeX the gate record does not name"
            found.append(ctx.about(record, path, Check.GATE_TEX_MISMATCH, message))
    return found


def _as_labelled(text: str, labels: Iterable[str], now: str) -> list[str]:
    """The statement's TeX as it read under each id the result had: a revision that renamed
    its label (its id) carried its gate over (`revise.changes.carried_renames`), and the gate
    hashed the text with the label it had then. Only the result's own `\\label{<id>}` is read
    back, as written (`\\label {<id>}`, `\\label{ <id> }`); an unlabelled result's id is no
    label, and its text is the same under every id."""
    mark = re.compile(r"(\\label\s*\{\s*)" + re.escape(now) + r"(\s*\})")
    return [text, *(mark.sub(_relabel(old), text) for old in labels if old != now)]


def _relabel(old: str) -> Callable[[re.Match[str]], str]:
    return lambda m: m.group(1) + old + m.group(2)


def _statement_closure(source: Mapping[str, Mapping[str, Any]], rid: str) -> set[str]:
    """The results the statement of `rid` uses, directly or through theirs (not `rid`)."""
    found: set[str] = set()
    todo = _statement_uses(source.get(rid))
    while todo:
        use = todo.pop()
        if use not in found and use != rid:
            found.add(use)
            todo += _statement_uses(source.get(use))
    return found


def _statement_uses(result: Mapping[str, Any] | None) -> list[str]:
    uses = result.get("uses") if result is not None else None
    return [str(u) for u in uses] if isinstance(uses, list) else []


def refutation_findings(ctx: Context) -> list[Finding]:
    """A compiled refutation of a statement that a verdict calls verified: a file under `lean/`
    whose own build was clean (before the trusted checker), or that declares a counterexample
    a checker run under `audits/` accepted (issue #25)."""
    from paperlint.lean.compose import refutation_statement
    from paperlint.lean.declarations import declarations
    from paperlint.lean.fingerprint import fingerprint, statement_text
    from paperlint.validate.verified_rules import unclean

    checked = _checked_counterexamples(ctx)
    refutations: dict[str, str] = {}  # statement fingerprint -> file
    for path in ctx.snap.listing("lean"):
        check = ctx.snap.json(path.removesuffix(".lean") + ".check.json")
        text = ctx.snap.text(path)
        if not path.endswith(".lean") or text is None:
            continue
        declared = declarations(text)
        built = check is not None and not unclean(check)
        if not built and not any(d.name in checked for d in declared):
            continue
        for declaration in declared:
            refutations[fingerprint(statement_text(declaration))] = path
    found: list[Finding] = []
    for record in ctx.records.values():
        draft = draft_of(record.work)
        if record.verdict not in (Verdict.VERIFIED_UNCONDITIONAL, Verdict.VERIFIED_CONDITIONAL):
            continue
        if draft is None:
            continue
        name = f"{draft.lean_name}_counterexample"
        refutation = refutation_statement(draft.statement, name)
        for declaration in declarations(refutation or ""):
            hit = refutations.get(fingerprint(statement_text(declaration)))
            if hit is not None:
                message = f"{hit} compiles a refutation of the statement verified here"
                found.append(ctx.at(record, Check.REFUTED_BUT_VERIFIED, message))
    return found


def _checked_counterexamples(ctx: Context) -> set[str]:
    """The counterexamples a trusted checker run under `audits/` accepted, by target name."""
    from paperlint.lean.checker import COUNTEREXAMPLE_FILE
    from paperlint.lean.trusted import judgement, read_run

    names: set[str] = set()
    for path in ctx.snap.files:
        if not (path.startswith("audits/") and path.endswith(f"/{COUNTEREXAMPLE_FILE}")):
            continue
        run = read_run(ctx.snap.json(path))
        verdict = judgement(run) if run is not None else None
        if run is not None and verdict is not None and verdict.passed:
            names.add(str(run.request.get("target", "")))
    return names


def live_run_findings(ctx: Context) -> list[Finding]:
    """`replay: false` must agree with every model string and transcript hash in the events."""
    if ctx.snap.meta.get("replay") is not False:
        return []
    for number, event in enumerate(ctx.snap.events or (), start=1):
        model = str(event.get("model") or "")
        if any(word in model.lower() for word in _REPLAY_MODELS):
            message = f"results.json says replay: false, but event {number} names model {model!r}"
            return [Finding("events.jsonl", Check.LIVE_RUN_MISMATCH, message, line=number)]
        if event.get("transcript_sha256") or event.get("replay_dir") or event.get("recorded"):
            message = f"results.json says replay: false, but event {number} cites a recording"
            return [Finding("events.jsonl", Check.LIVE_RUN_MISMATCH, message, line=number)]
    run = run_of(ctx.snap.config)
    if run is not None and run.replay is not None:
        message = "results.json says replay: false, but paperlint.toml names a replay folder"
        return [Finding("paperlint.toml", Check.LIVE_RUN_MISMATCH, message)]
    return []


def prompt_findings(ctx: Context, record: ResultRecord) -> list[Finding]:
    found: list[Finding] = []
    names = ctx.names
    for event, name, latest in zip(ctx.snap.events or (), names.now, names.latest, strict=True):
        # the calls since the newest revision in effect, by the id their result has now
        if not latest or event.get("type") != "model_call" or name != record.id:
            continue
        if event.get("replay") is True and event.get("prompt_drift") is True:
            if event.get("template_drift") is True:
                continue  # the same inputs under a changed template: a note, not a mismatch
            message = (
                f"its {event.get('task')} answer (attempt {event.get('attempt')}) was recorded "
                "for another prompt than the one asked: the verdict rests on an answer to "
                "another question"
            )
            found.append(ctx.at(record, Check.PROMPT_MISMATCH, message))
    return found


def answer_rule_findings(ctx: Context, record: ResultRecord) -> list[Finding]:
    found: list[Finding] = []
    for obligation in obligations_of(record.work):
        if not obligation.proof:
            continue
        for item in answer_findings(obligation.proof, file=f"{record.id}/{obligation.id}"):
            message = f"the accepted proof of {obligation.id}: {item.rule.value}: {item.message}"
            found.append(ctx.at(record, Check.ANSWER_NOT_ALLOWED, message))
    return found


def elaboration_findings(ctx: Context, record: ResultRecord) -> list[Finding]:
    gate = ctx.gate(record) or {}
    raw = gate.get("elaboration")
    if raw is None:
        return []
    gated = from_record(raw)
    path = record.evidence.final_check
    final = ctx.snap.json(path) or {}
    name = record.evidence.lean_name or ""
    if gated is None:
        message = "the gate's recorded elaboration is unreadable or its digest was edited"
        return [ctx.at(record, Check.STATEMENT_CHANGED, message)]
    statements = final.get("statements")
    stored = statements.get(name) if isinstance(statements, dict) else None
    problems = changes(gated, from_record(stored))
    return [ctx.at(record, Check.STATEMENT_CHANGED, p) for p in problems]


def second_kernel_findings(ctx: Context, record: ResultRecord) -> list[Finding]:
    """When any final check of the run replayed through a second kernel, all must have, and
    passed (a forger cannot drop the record from one result to hide its failure)."""
    claimed = _run_claims_second_kernel(ctx)
    final = ctx.snap.json(record.evidence.final_check) or {}
    second = final.get("second_kernel")
    if isinstance(second, dict):
        if second.get("ok") is True and second.get("exit_code") == 0:
            return []
        message = f"{second.get('tool')} did not pass (exit {second.get('exit_code')})"
        return [ctx.at(record, Check.SECOND_KERNEL, message)]
    if claimed:
        message = "the run used a second kernel, but this final check has no record of it"
        return [ctx.at(record, Check.SECOND_KERNEL, message)]
    return []


def _run_claims_second_kernel(ctx: Context) -> bool:
    lean = ctx.snap.config.get("lean")
    if isinstance(lean, dict) and lean.get("second_kernel") not in (None, "", "off"):
        return True
    return any(
        isinstance((ctx.snap.json(p) or {}).get("second_kernel"), dict)
        for p in ctx.snap.files
        if p.endswith("final-check.json")
    )
