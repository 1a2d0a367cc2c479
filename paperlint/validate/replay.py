"""`replay`: re-run every Lean check of a workspace with no model, then re-derive each verdict.

The Lean side is the real `FinalChecker` (a cold `lake env lean` plus `#print axioms`) when
Lean is set up, or recorded answers (`ReplayVerifier`, keyed by each file's exact sha256) when
the run was a replay or `--lean-replay` names a recording. Without either it says so, runs the
mechanical audit only, and never claims a re-verification.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from paperlint.errors import InputError
from paperlint.lean.modules import CheckJob
from paperlint.lean.trusted import (
    TrustedRun,
    gate_lock,
    judgement,
    locked_hash,
    read_run,
    trusted_check,
    verdict_problems,
)
from paperlint.lean.verifier import STANDARD_AXIOMS, FinalCheck, Outcome
from paperlint.records.results import IssueClass, ResultRecord, Verdict
from paperlint.records.run import run_of
from paperlint.records.slots import counterexample as checked_counterexample
from paperlint.records.slots import reconnected
from paperlint.validate.checker_rules import checker_job, gate_reference, named_for
from paperlint.validate.context import Context, build_context
from paperlint.validate.faithful_rules import evidence_path, rerun_claims
from paperlint.validate.model import Check, Finding, Snapshot
from paperlint.validate.redraft import Status, draft_context, draft_text, recheck_draft
from paperlint.validate.validator import validate
from paperlint.validate.verified_rules import is_verified

Mode = Literal["replay", "live", "unavailable"]
ERROR = IssueClass.ERROR
DEFAULT_FINAL_TIMEOUT_S = 900.0


class FinalVerifier(Protocol):
    """What `replay` asks of Lean: the cold build and the trusted checker."""

    def final_check(self, file: Path, names: Sequence[str], *, timeout_s: float) -> FinalCheck: ...

    def trusted_check(self, job: CheckJob, *, timeout_s: float) -> TrustedRun: ...

    def close(self) -> None: ...


@dataclass
class LeanSource:
    mode: Mode
    detail: str  # the replay folder, the Lake project, or why Lean is unavailable
    verifier: FinalVerifier | None = None

    def close(self) -> None:
        if self.verifier is not None:
            self.verifier.close()


@dataclass(frozen=True)
class TrustedLean:
    """Where `replay` may take Lean from: the command line or the user's own config only.

    The workspace's `paperlint.toml` is the forger's: its `[run] replay_dir` could name a
    forged recording and its `[lean] project_dir` a project whose `lakefile.lean` is code.
    """

    lean_replay: Path | None = None  # --lean-replay
    project_dir: str | None = None  # --lean-project, else the user's config
    repl_dir: str | None = None
    source: str = "the bundled lean-project/"  # said in the output


def trusted_lean(
    workspace: Path, lean_replay: Path | None, lean_project: Path | None
) -> TrustedLean:
    """The command line first, then the user's config found from the current folder, unless
    that config lies inside the workspace (then it is the forger's and is ignored)."""
    from paperlint.config import find_config_file, load_config

    if lean_project is not None:
        return TrustedLean(lean_replay, str(lean_project), None, "--lean-project")
    found = find_config_file(Path.cwd())
    if found is None or found.resolve().is_relative_to(workspace.resolve()):
        return TrustedLean(lean_replay)
    lean = load_config(found, start=Path.cwd()).config.lean
    return TrustedLean(lean_replay, lean.project_dir, lean.repl_dir, f"your config {found}")


def choose_lean(snap: Snapshot, trusted: TrustedLean | Path | None) -> LeanSource:
    """An explicit recording, else live Lean if it is ready; never the workspace's own."""
    from paperlint.lean.replay import ReplayVerifier

    if not isinstance(trusted, TrustedLean):
        trusted = TrustedLean(lean_replay=trusted)
    if trusted.lean_replay is not None:
        if not trusted.lean_replay.exists():
            raise InputError("no such Lean replay folder", path=trusted.lean_replay)
        detail = f"{trusted.lean_replay} (from --lean-replay)"
        return LeanSource("replay", detail, ReplayVerifier(trusted.lean_replay))
    live = _live(trusted)
    if live.mode == "live" or not _was_replay(snap):
        return live
    why = (
        f"{live.detail}; the run was a replay, and its recording is never taken from the "
        "workspace: pass --lean-replay DIR"
    )
    return LeanSource("unavailable", why)


def _was_replay(snap: Snapshot) -> bool:
    run = run_of(snap.config)
    return (run is not None and run.replay is not None) or snap.meta.get("replay") is True


def _live(trusted: TrustedLean) -> LeanSource:
    from paperlint.lean.doctor import lean_ready
    from paperlint.lean.final import FinalChecker
    from paperlint.lean.pins import resolve_paths

    paths = resolve_paths(trusted.project_dir, trusted.repl_dir)
    ready, why = lean_ready(paths)
    if not ready:
        return LeanSource("unavailable", why)
    return LeanSource("live", f"{paths.project} (from {trusted.source})", FinalChecker(paths))


@dataclass(frozen=True)
class LeanRerun:
    file: str
    names: tuple[str, ...]
    status: Status
    detail: str


@dataclass
class ResultReplay:
    id: str
    recorded: str | None
    rederived: str | None
    lean: list[LeanRerun] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    note: str = ""

    @property
    def differs(self) -> bool:
        return self.recorded != self.rederived


@dataclass
class ReplayReport:
    workspace: str
    lean: LeanSource
    results: list[ResultReplay]
    findings: list[Finding]
    recorded_replay: tuple[str, ...] = ()  # the check itself was a replay of these parts
    # model answers a replay served although they were recorded for another prompt
    prompt_drift: tuple[str, ...] = ()

    @property
    def lean_not_run(self) -> bool:
        return any(r.status == "not-run" for res in self.results for r in res.lean)

    @property
    def exit_code(self) -> int:
        if self.findings or any(r.differs for r in self.results):
            return 1
        return 4 if self.lean_not_run else 0

    def reverified(self) -> str:
        if self.lean.mode == "unavailable":
            return "re-verified: no (Lean unavailable)"
        if self.lean_not_run:
            return "re-verified: partly (some Lean checks could not run; see above)"
        if self.lean.mode == "replay":
            return "re-verified: from a REPLAY of recorded Lean answers (not a live Lean run)"
        return "re-verified: yes (live Lean)"

    def lines(self) -> list[str]:
        out = [_lean_line(self.lean)]
        if self.recorded_replay:
            parts = " and ".join(self.recorded_replay)
            out.append(f"The check itself was a REPLAY ({parts} answers recorded, not live).")
        if self.prompt_drift:
            shown = ", ".join(self.prompt_drift[:5])
            out.append(
                f"PROMPT DRIFT: {len(self.prompt_drift)} replayed answer(s) were recorded for "
                f"another prompt than the one sent: {shown}"
            )
        out += [f.render(self.workspace) for f in self.findings]
        for res in self.results:
            unchecked = any(r.status == "not-run" for r in res.lean)
            mark = "ok, not re-verified in Lean" if unchecked else "ok"
            mark = "DIFFERS" if res.differs else mark
            out.append(f"{res.id}: recorded {res.recorded}; re-derived {res.rederived} [{mark}]")
            out += [f"  lean {r.file}: {r.status}: {r.detail}" for r in res.lean]
            out += [f"  {res.note}"] if res.note else []
        out.append(self.reverified())
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "workspace": self.workspace,
            "lean": {"mode": self.lean.mode, "detail": self.lean.detail},
            "replay": self.lean.mode == "replay",
            "check_was_replay": list(self.recorded_replay),
            "prompt_drift": list(self.prompt_drift),
            "re_verified": self.lean.mode != "unavailable" and not self.lean_not_run,
            "summary": self.reverified(),
            "findings": [f.to_json() for f in self.findings],
            "results": [
                {
                    "id": r.id,
                    "recorded": r.recorded,
                    "rederived": r.rederived,
                    "differs": r.differs,
                    "note": r.note,
                    "lean": [vars(x) | {"names": list(x.names)} for x in r.lean],
                }
                for r in self.results
            ],
            "exit_code": self.exit_code,
        }


def _lean_line(lean: LeanSource) -> str:
    if lean.mode == "replay":
        return f"Lean: REPLAY of recorded answers from {lean.detail}; no Lean is run."
    if lean.mode == "live":
        return f"Lean: live `lake env lean` in {lean.detail}."
    return f"Lean: unavailable ({lean.detail}); only the mechanical audit runs."


def replay_workspace(snap: Snapshot, root: Path, lean: LeanSource) -> ReplayReport:
    findings = validate(snap)
    timeout = _final_timeout(snap)
    header = build_context(snap).header
    results = []
    ctx = build_context(snap)
    for record in snap.records:
        if record.verdict is None:
            continue
        mine = [f for f in findings if f.result == record.id]
        if mine:
            results.append(_refused(ctx, record, mine))  # validate's rules first: no Lean
            continue
        checked = checker_jobs(ctx, record)
        builds = [_rerun(root, file, names, lean, timeout) for file, names in lean_jobs(record)]
        if builds and not checked:  # before the checker: the gated draft's own type-check
            builds.insert(0, _redraft(snap, record, lean, header))
        one = _replay_one(record, [*builds, *_checker_reruns(ctx, record, checked, lean, timeout)])
        findings += _faithfulness(snap, record, lean, one)
        results.append(one)
    parts = snap.meta.get("replay_parts") if snap.meta.get("replay") is True else None
    recorded = tuple(str(p) for p in parts) if isinstance(parts, list) else ()
    drift = prompt_drift(snap.events or ())
    return ReplayReport(str(root), lean, results, findings, recorded or _replay_flag(snap), drift)


def prompt_drift(events: Sequence[dict[str, Any]]) -> tuple[str, ...]:
    """Replayed model calls whose recorded prompt hash differs from the prompt sent, by
    role/result/obligation/attempt (the events' `prompt_drift`, set by the scripted client)."""
    drifted: list[str] = []
    for event in events:
        if event.get("type") != "model_call" or event.get("replay") is not True:
            continue
        where = "/".join(
            str(event.get(k)) for k in ("role", "result", "obligation", "attempt") if event.get(k)
        )
        if event.get("prompt_drift") is True:
            drifted.append(where)
    return tuple(drifted)


def _faithfulness(
    snap: Snapshot, record: ResultRecord, lean: LeanSource, one: ResultReplay
) -> list[Finding]:
    """Re-check the faithfulness claims (#15); one that Lean now rejects is a finding."""
    ctx = build_context(snap)
    path = evidence_path(ctx, record)
    found = []
    for what, status, detail in rerun_claims(ctx, record, lean.verifier, lean.mode):
        one.lean.append(LeanRerun(path, (what,), status, detail or what))
        if status == "refuted":
            message = f"faithfulness claim {what!r} does not re-check: {detail}"
            found.append(Finding(path, Check.FAITHFULNESS_INCONSISTENT, message, result=record.id))
    return found


def _replay_flag(snap: Snapshot) -> tuple[str, ...]:
    return ("model/lean",) if snap.meta.get("replay") is True else ()


def _redraft(snap: Snapshot, record: ResultRecord, lean: LeanSource, header: str) -> LeanRerun:
    found = draft_text(snap, record)
    context = draft_context(snap, record, header)
    names = (record.evidence.lean_name or "",)
    if found is None or context is None:
        return LeanRerun("", names, "refuted", "the gated draft or the blueprint is missing")
    path, text = found
    if lean.verifier is None:
        return LeanRerun(path, names, "not-run", "Lean unavailable; not re-checked")
    status, detail = recheck_draft(lean.verifier, lean.mode, context, text)
    return LeanRerun(path, names, status, detail)


def _final_timeout(snap: Snapshot) -> float:
    lean = snap.config.get("lean", {})
    value = lean.get("final_timeout_s") if isinstance(lean, dict) else None
    return float(value) if isinstance(value, int | float) else DEFAULT_FINAL_TIMEOUT_S


def lean_jobs(record: ResultRecord) -> list[tuple[str, tuple[str, ...]]]:
    """The files whose own Lean build backs the verdict, with the names whose axioms matter:
    evidence from before the trusted checker (issue #25). Evidence the checker judged is
    re-run by `checker_jobs` instead; its files are for reading, and are never built."""
    name = record.evidence.lean_name or ""
    if record.verdict in (Verdict.VERIFIED_UNCONDITIONAL, Verdict.VERIFIED_CONDITIONAL):
        jobs: list[tuple[str, tuple[str, ...]]] = []
        if record.evidence.checker is None:
            jobs.append((record.evidence.lean_file or "", (name,)))
        found = reconnected(record.work)  # a clause discharged in Lean (issue #14)
        if found is not None and found.accepted and found.file and found.checker is None:
            jobs.append((found.file, (found.name,)))
        return jobs
    issue = record.issue
    cex = checked_counterexample(record.work)
    if _is_error(record) and issue is not None and (cex is None or cex.checker is None):
        return [(issue.evidence.counterexample or "", (f"{name}_counterexample",))]
    return []


def _is_error(record: ResultRecord) -> bool:
    issue = record.issue
    return record.verdict is Verdict.ISSUE and issue is not None and issue.class_ is ERROR


@dataclass(frozen=True)
class CheckerJob:
    """A kept trusted-checker run that backs the verdict, and the job to re-run for it."""

    path: str  # the kept run
    names: tuple[str, ...]  # the target, for the output
    job: CheckJob | None  # None: the records compose no layout for it
    derived: bool  # its reference is derived from the locked statement (`verdict_problems`)
    conditions: tuple[str, ...] = ()


def checker_jobs(ctx: Context, record: ResultRecord) -> list[CheckerJob]:
    """The trusted checker's runs the verdict rests on (issue #25): a verified result's proof
    and its reconnection's discharge (#14), an ERROR's counterexample."""
    from paperlint.validate.checker_rules import discharging_job, refuting_job

    def named(path: str) -> str:  # the id the kept run's modules are named by
        return named_for(ctx, record, read_run(ctx.snap.json(path)))

    conditions = tuple(c.name for c in record.conditions)
    name = record.evidence.lean_name or ""
    jobs: list[CheckerJob] = []
    if is_verified(record) and record.evidence.checker is not None:
        job = checker_job(ctx, record, "compare", named(record.evidence.checker))
        jobs.append(CheckerJob(record.evidence.checker, (name,), job, False, conditions))
        found = reconnected(record.work)
        if found is not None and found.checker is not None and found.declaration is not None:
            preds = [d.result for d in found.discharges]
            job = discharging_job(ctx, record, found.declaration, preds, named(found.checker))
            jobs.append(CheckerJob(found.checker, (found.name,), job, True, conditions))
    cex = checked_counterexample(record.work)
    if _is_error(record) and cex is not None and cex.checker is not None:
        declaration, as_id = cex.declaration, named(cex.checker)
        job = refuting_job(ctx, record, declaration, as_id) if declaration else None
        jobs.append(CheckerJob(cex.checker, (f"{name}_counterexample",), job, True))
    return jobs


def _refused(ctx: Context, record: ResultRecord, findings: list[Finding]) -> ResultReplay:
    """A result validate already rejects: none of its files reaches Lean (a forged file is
    never built, whatever it holds), and its verdict does not re-derive."""
    named = ", ".join(sorted({f.rule.value for f in findings}))
    why = f"not handed to Lean: validate rejects this result ({named})"
    recorded = record.verdict.value if record.verdict else None
    targets = [*lean_jobs(record), *((c.path, c.names) for c in checker_jobs(ctx, record))]
    lean = [LeanRerun(file, names, "not-run", why) for file, names in targets]
    return ResultReplay(record.id, recorded, Verdict.UNFINISHED.value, lean, findings)


def _checker_reruns(
    ctx: Context, record: ResultRecord, checked: list[CheckerJob], lean: LeanSource, timeout: float
) -> list[LeanRerun]:
    """The trusted checker run again on each layout the records compose (issue #25): the
    gate's reference once, then each job. Each re-run must pass, its reference must be the one
    the gate locked, and its statement hash and axioms must be the recorded ones; a build's
    exit alone proves nothing."""
    if not checked:
        return []
    reference = gate_reference(ctx, record)
    if lean.verifier is None:
        why = "Lean unavailable; the checker not re-run"
        return [LeanRerun(c.path, c.names, "not-run", why) for c in checked]
    rerun_ref = None
    if reference is not None:
        rerun_ref = trusted_check(lean.verifier, reference, timeout_s=timeout)
    out = []
    for one in checked:
        if reference is None or rerun_ref is None or one.job is None:
            out.append(LeanRerun(one.path, one.names, "refuted", "the records compose no layout"))
            continue
        rerun = trusted_check(lean.verifier, one.job, timeout_s=timeout)
        status, detail = _compare_reruns(ctx, record, rerun_ref, rerun, one, reference, lean.mode)
        out.append(LeanRerun(one.path, one.names, status, detail))
    return out


def _compare_reruns(
    ctx: Context,
    record: ResultRecord,
    rerun_ref: TrustedRun,
    rerun: TrustedRun,
    one: CheckerJob,
    reference: CheckJob,
    mode: Mode,
) -> tuple[Status, str]:
    assert one.job is not None
    job = one.job
    for run in (rerun_ref, rerun):
        if run.outcome in (Outcome.UNAVAILABLE, Outcome.TIMEOUT):
            if mode == "replay":  # recordings are keyed by the modules: none means others
                return "refuted", "no recorded checker answer for the modules the records compose"
            return "not-run", f"{run.outcome.value}: {run.hint or ''}"
    locked = locked_hash(rerun_ref, reference)
    recorded_lock = gate_lock(ctx.gate(record), ctx.snap.json, reference)
    if locked is None or locked != recorded_lock:
        return "refuted", "the re-run reference statement is not the one the gate locked"
    problems = verdict_problems(
        rerun, job=job, locked=locked, conditions=one.conditions, derived=one.derived
    )
    if problems:
        return "refuted", "; ".join(f"{rule}: {message}" for rule, message in problems)[:400]
    again = judgement(rerun, job.request)
    kept = read_run(ctx.snap.json(one.path))
    before = judgement(kept, job.request) if kept is not None else None
    if again is None or before is None or again.statement_hash != before.statement_hash:
        return "refuted", "the re-run statement hash differs from the recorded one"
    if set(again.axioms or ()) != set(before.axioms or ()):
        return "refuted", f"re-run axioms {list(again.axioms or ())} differ from the recorded"
    label = "replayed" if mode == "replay" else "re-run"
    return "confirmed", f"checker {label}: statement hash and axioms as recorded"


def _replay_one(record: ResultRecord, reruns: list[LeanRerun]) -> ResultReplay:
    recorded = record.verdict.value if record.verdict else None
    refuted = any(r.status == "refuted" for r in reruns)  # the evidence does not carry it
    rederived = Verdict.UNFINISHED.value if refuted else recorded
    return ResultReplay(record.id, recorded, rederived, reruns, [], _note(record, reruns))


def _note(record: ResultRecord, reruns: list[LeanRerun]) -> str:
    """What backs a verdict that no Lean check re-runs, said plainly."""
    if reruns:
        return ""
    if record.verdict is Verdict.ISSUE:
        return "no Lean check backs this issue: it rests on the verbatim quote and a second review"
    if record.verdict is Verdict.UNFINISHED:
        return "unfinished: nothing was verified, so nothing to re-run"
    return "no Lean evidence"


def _rerun(
    root: Path, file: str, names: tuple[str, ...], lean: LeanSource, timeout: float
) -> LeanRerun:
    if lean.verifier is None:
        return LeanRerun(file, names, "not-run", "Lean unavailable; not re-verified")
    path = root / file
    if not file or not path.is_file():
        return LeanRerun(file, names, "refuted", "the file is missing")
    check = lean.verifier.final_check(path, list(names), timeout_s=timeout)
    return judge(file, names, check, replay=lean.mode == "replay")


def judge(file: str, names: tuple[str, ...], check: FinalCheck, *, replay: bool) -> LeanRerun:
    """What a fresh final check says about the file: the verdict's Lean half, re-derived."""
    if check.outcome is Outcome.UNAVAILABLE and replay:
        # Recordings are keyed by the file's exact bytes: no answer means other bytes.
        why = f"no recorded Lean answer for this file's bytes (sha256 {check.file_sha256})"
        return LeanRerun(file, names, "refuted", why)
    if check.outcome in (Outcome.UNAVAILABLE, Outcome.TIMEOUT):
        return LeanRerun(file, names, "not-run", f"{check.outcome.value}: {check.hint or ''}")
    problems = [] if check.clean else [f"build not clean: {'; '.join(check.errors[:2])}"]
    for name in names:
        axioms = check.axioms.get(name)
        if axioms is None or not set(axioms) <= STANDARD_AXIOMS:
            problems.append(f"axioms of {name}: {axioms}")
    if problems:
        return LeanRerun(file, names, "refuted", "; ".join(problems))
    label = "replayed" if replay else "rebuilt"
    return LeanRerun(file, names, "confirmed", f"{label}: clean, standard axioms")
