"""Replaying recorded Lean answers, and recording them live (docs/lean-notes.md §10).

Recording file: `<replay_dir>/lean.jsonl`, one JSON object per line:

    {"kind": "check" | "axioms" | "final" | "statement" | "command",
     "key": "<sha256 hex>",            # optional in hand-written files: computed from request
     "request": {...},                 # the exact text the key is computed from (below)
     "response": {...} | null,         # the raw REPL dict (check, axioms) or the raw runs (final)
     "raise": {"type": "TimeoutError", "message": "..."} | null,   # simulate a failure
     "failure": {"outcome": "...", "code": "...", "hint": "..."} | null,  # a recorded typed one
     "toolchain": "leanprover/lean4:v4.35.0",
     "latency_s": 0.5,                 # optional: the replay sleeps this long (benchmarks)
     "note": "hand-written" | "recorded"}

    check:  request {"header", "accepted": [...], "candidate"}; key = key_for_check(...)
    command: request {"header", "accepted": [...], "text", "all_tactics"}; key =
            key_for_command(...); response: the raw REPL dict (the prover's probe tools;
            older recordings kept these in `lean-probe.jsonl`, still read)
    axioms: request {"header", "accepted": [...], "names": [...]}; key = key_for_axioms(...)
    final:  request {"file_sha256", "names": [...]}; key = key_for_final(...);
            response {"build": ProcessRun, "axioms": ProcessRun | null}
    checker: request {"request": {...}, "modules": [[name, sha256], ...]} (CheckJob.described);
            key = modules.job_key(...); response {"compile": [CompileRun], "checker":
            CompileRun | null, "record": the checker's record | null} (issue #25)

Lines whose kind is "comment" are ignored. Answers go through `paperlint.lean.responses` and
`paperlint.lean.final.final_from_runs`, the code a live run uses. An unrecorded request is
`unavailable / no_recording`, never a guess, and every record says `replay=True`.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from paperlint.errors import InputError
from paperlint.lean import elaborated, guard, responses
from paperlint.lean.elaborated import Elaboration
from paperlint.lean.final import ProcessRun, final_from_runs, with_second_kernel
from paperlint.lean.modules import CheckJob, job_key
from paperlint.lean.trusted import CompileRun, TrustedRun, conclude, unavailable
from paperlint.lean.verifier import (
    STANDARD_AXIOMS,
    AxiomReport,
    FailureCode,
    FinalCheck,
    LeanCheck,
    LeanContext,
    Outcome,
    SecondKernel,
    Verifier,
)
from paperlint.store import append_line, jsonl_rows

RECORDING_FILE = "lean.jsonl"
KINDS = ("check", "axioms", "final", "statement", "command", "checker")
PROBE_FILE = "lean-probe.jsonl"
"""Where probe answers were kept before they joined `lean.jsonl` (kind "command"); still read."""

# Failures a hand-written entry may ask for; they take the live exception-mapping path.
_EXCEPTIONS: dict[str, type[BaseException]] = {
    "TimeoutError": TimeoutError,
    "ConnectionAbortedError": ConnectionAbortedError,
    "ChildProcessError": ChildProcessError,
    "BrokenPipeError": BrokenPipeError,
    "MemoryError": MemoryError,
    "ValueError": ValueError,
}


def _sha(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def key_for_check(context: LeanContext, candidate: str) -> str:
    return _sha(context.key(), candidate)


def key_for_axioms(context: LeanContext, names: Sequence[str]) -> str:
    return _sha("axioms", context.key(), *names)


def key_for_statement(context: LeanContext, names: Sequence[str], declaration: str = "") -> str:
    return _sha("statement", context.key(), declaration, *names)


def key_for_final(file_sha256: str, names: Sequence[str]) -> str:
    return _sha("final", file_sha256, *names)


def key_for_command(context: LeanContext, text: str, all_tactics: bool = False) -> str:
    """A probe command of the prover's tools (`Verifier.command`)."""
    return _sha("command", context.key(), text, "tactics" if all_tactics else "plain")


def key_for_request(kind: str, request: dict[str, Any]) -> str:
    """The key of a recorded request, from its text alone."""
    if kind == "checker":
        return job_key(request["request"], request["modules"])
    if kind == "final":
        return key_for_final(str(request["file_sha256"]), list(request.get("names", [])))
    context = LeanContext(header=request["header"], accepted=tuple(request.get("accepted", [])))
    if kind == "check":
        return key_for_check(context, str(request["candidate"]))
    if kind == "axioms":
        return key_for_axioms(context, list(request["names"]))
    if kind == "statement":
        names = list(request["names"])
        return key_for_statement(context, names, str(request.get("declaration", "")))
    if kind == "command":
        return key_for_command(context, str(request["text"]), bool(request.get("all_tactics")))
    raise ValueError(f"unknown kind {kind!r}")


def recording_path(replay_dir: Path) -> Path:
    return replay_dir if replay_dir.suffix == ".jsonl" else replay_dir / RECORDING_FILE


def load_recordings(path: Path) -> dict[tuple[str, str], dict[str, Any]]:
    """Entries by (kind, key). A key that disagrees with its request is a stale fixture."""
    entries: dict[tuple[str, str], dict[str, Any]] = {}
    for number, entry in jsonl_rows(path, "Lean recording"):
        try:
            kind = entry["kind"]
            if kind not in KINDS:
                raise ValueError(f"unknown kind {kind!r}")
            key = key_for_request(kind, entry["request"]) if "request" in entry else entry["key"]
        except (ValueError, KeyError, TypeError) as exc:
            raise InputError(f"unreadable Lean recording: {exc}", path=path, line=number) from exc
        if entry.get("key") not in (None, key):
            raise InputError(
                "the recorded key does not match its request (edited or stale fixture)",
                path=path,
                line=number,
                hint=f"expected key {key}",
            )
        entries[(kind, key)] = entry
    return entries


class ReplayVerifier(Verifier):
    """The `Verifier` protocol over recorded answers."""

    is_replay = True
    thread_safe = True  # reads its recording only (paperlint.lean.pool)

    def __init__(
        self,
        replay_dir: Path,
        *,
        allowlist: frozenset[str] = STANDARD_AXIOMS,
        on_served: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        self.path = recording_path(replay_dir)
        self.allowlist = allowlist
        self._entries = load_recordings(self.path)
        if self.path.parent / RECORDING_FILE == self.path:
            self._entries = {**load_recordings(self.path.parent / PROBE_FILE), **self._entries}
        self.on_served = on_served
        """Told every recorded entry served (`check --lean-replay --record` copies them)."""

    def _served(self, entry: dict[str, Any] | None) -> dict[str, Any] | None:
        if entry is not None and self.on_served is not None:
            self.on_served(entry)
        latency = entry.get("latency_s") if entry is not None else None
        if isinstance(latency, int | float) and 0 < latency <= 600:
            time.sleep(latency)  # a recorded wall time, replayed (benchmarks/parallel.py)
        return entry

    def _missing(self, kind: str, key: str) -> tuple[Outcome, FailureCode, str]:
        hint = f"replay has no recording for this {kind} (key {key}) in {self.path}"
        return Outcome.UNAVAILABLE, FailureCode.NO_RECORDING, hint

    def check(self, context: LeanContext, candidate: str, *, timeout_s: float) -> LeanCheck:
        refused = guard.refusals(candidate)
        if refused:
            return LeanCheck(
                outcome=Outcome.REJECTED,
                code=FailureCode.REFUSED,
                hint="refused before Lean: " + "; ".join(refused)[:400],
                replay=True,
            )
        key = key_for_check(context, candidate)
        entry = self._served(self._entries.get(("check", key)))
        if entry is None:
            outcome, code, hint = self._missing("check", key)
            return LeanCheck(outcome=outcome, code=code, hint=hint, replay=True)
        if (simulated := _exception(entry)) is not None:
            return responses.check_from_exception(simulated, replay=True)
        if (failure := entry.get("failure")) is not None:
            return LeanCheck(replay=True, **_failure(failure))
        return responses.check_from_response(entry["response"], candidate, replay=True)

    def print_axioms(
        self, context: LeanContext, names: Sequence[str], *, timeout_s: float
    ) -> AxiomReport:
        key = key_for_axioms(context, names)
        entry = self._served(self._entries.get(("axioms", key)))
        if entry is None:
            outcome, code, hint = self._missing("axiom query", key)
            return AxiomReport(
                outcome=outcome, axioms=dict.fromkeys(names), code=code, hint=hint, replay=True
            )
        if (simulated := _exception(entry)) is not None:
            return responses.axioms_from_exception(simulated, names, replay=True)
        if (failure := entry.get("failure")) is not None:
            return AxiomReport(axioms=dict.fromkeys(names), replay=True, **_failure(failure))
        return responses.axioms_from_response(entry["response"], names, replay=True)

    def final_check(self, file: Path, names: Sequence[str], *, timeout_s: float) -> FinalCheck:
        try:
            sha = hashlib.sha256(file.read_bytes()).hexdigest()
        except OSError as exc:
            return FinalCheck(
                outcome=Outcome.UNAVAILABLE,
                file_sha256="",
                code=FailureCode.UNAVAILABLE,
                hint=f"cannot read {file}: {exc}",
                replay=True,
            )
        key = key_for_final(sha, names)
        entry = self._served(self._entries.get(("final", key)))
        if entry is None:
            outcome, code, hint = self._missing("final check", key)
            return FinalCheck(outcome=outcome, file_sha256=sha, code=code, hint=hint, replay=True)
        if (simulated := _exception(entry)) is not None:
            outcome, code, hint = responses.failure_from_exception(simulated)
            return FinalCheck(outcome=outcome, file_sha256=sha, code=code, hint=hint, replay=True)
        response = entry["response"]
        axioms = response.get("axioms")
        statements = response.get("statements")
        second = response.get("second_kernel")
        checked = final_from_runs(
            sha,
            names,
            ProcessRun.from_raw(response["build"]),
            ProcessRun.from_raw(axioms) if axioms else None,
            command=("lake", "env", "lean", file.name),
            toolchain=entry.get("toolchain"),
            mathlib_rev=entry.get("mathlib_rev"),
            allowlist=self.allowlist,
            replay=True,
            statements=ProcessRun.from_raw(statements) if statements else None,
        )
        return with_second_kernel(checked, SecondKernel.model_validate(second) if second else None)

    def trusted_check(self, job: CheckJob, *, timeout_s: float) -> TrustedRun:
        """The recorded run of the trusted checker on exactly these modules and this request,
        concluded by the code a live run uses; without one, unavailable (never verified)."""
        key = job.key()
        entry = self._served(self._entries.get(("checker", key)))
        if entry is None:
            _, _, hint = self._missing("trusted check", key)
            run = unavailable(job, hint, replay=True)
            return run.model_copy(update={"code": FailureCode.NO_RECORDING})
        response = entry.get("response") or {}
        compiles = [CompileRun.model_validate(c) for c in response.get("compile") or ()]
        ended = response.get("checker")
        checker = None
        if isinstance(ended, dict):
            checker = ProcessRun(
                exit_code=ended.get("exit_code"),
                output=str(ended.get("output", "")),
                duration_s=float(ended.get("duration_s", 0.0)),
                timed_out=bool(ended.get("timed_out", False)),
            )
        record = response.get("record")
        raw = json.dumps(record) if record is not None else None
        return conclude(job, compiles, checker, raw, replay=True)

    def elaborate_statements(
        self,
        context: LeanContext,
        names: Sequence[str],
        *,
        timeout_s: float,
        declaration: str = "",
    ) -> dict[str, Elaboration | None] | None:
        """The recorded `#paperlint_statement` answer for exactly this context, if any."""
        key = key_for_statement(context, names, declaration)
        entry = self._entries.get(("statement", key))
        if entry is None or not isinstance(entry.get("response"), dict):
            return None
        return elaborated.parse(elaborated.repl_texts(entry["response"]), names, context.key())

    def command(
        self, context: LeanContext, cmd: str, *, timeout_s: float, all_tactics: bool = False
    ) -> dict[str, Any] | LeanCheck:
        """The recorded raw answer to a probe command of the prover's tools. Refused as the
        live REPL refuses (a replay must refuse the same); unrecorded: `no_recording`."""
        refused = guard.refusals(cmd)
        if refused:
            hint = "refused before Lean: " + "; ".join(refused)[:400]
            return LeanCheck(
                outcome=Outcome.REJECTED, code=FailureCode.REFUSED, hint=hint, replay=True
            )
        key = key_for_command(context, cmd, all_tactics)
        entry = self._served(self._entries.get(("command", key)))
        if entry is None:
            outcome, code, hint = self._missing("probe command", key)
            return LeanCheck(outcome=outcome, code=code, hint=hint, replay=True)
        if (failure := entry.get("failure")) is not None:
            return LeanCheck(replay=True, **_failure(failure))
        return dict(entry["response"])

    def close(self) -> None:
        pass


def _exception(entry: dict[str, Any]) -> BaseException | None:
    spec = entry.get("raise")
    if not spec:
        return None
    kind = _EXCEPTIONS.get(spec.get("type", ""), RuntimeError)
    return kind(spec.get("message", "simulated by the replay recording"))


def _failure(failure: dict[str, Any]) -> dict[str, Any]:
    return {
        "outcome": Outcome(failure["outcome"]),
        "code": FailureCode(failure["code"]) if failure.get("code") else None,
        "hint": failure.get("hint"),
    }


class LeanRecorder:
    """Appends each raw Lean answer to a recording file (`check --record DIR`), in the shape
    `ReplayVerifier` serves: the sink a live verifier is built with (`WarmVerifier(recorder=
    ...)`, `FinalChecker(recorder=...)`), and a replay's `on_served` (`copy`: answers served from
    a recording are copied as they are). For the first run on a machine with Lean, the recorded
    lines are the fixtures a `ReplayVerifier` then serves."""

    def __init__(self, replay_dir: Path, *, toolchain: str | None, mathlib_rev: str | None):
        self.path = recording_path(replay_dir)
        self.toolchain = toolchain
        self.mathlib_rev = mathlib_rev

    def copy(self, entry: dict[str, Any]) -> None:
        append_line(self.path, json.dumps(entry, ensure_ascii=False, default=str))

    def write(self, exchange: dict[str, Any]) -> None:
        kind = exchange["kind"]
        if kind == "checker":
            request: dict[str, Any] = exchange["request"]
        elif kind == "final":
            request = {
                "file_sha256": exchange["file_sha256"],
                "names": exchange["names"],
            }
        else:
            context: LeanContext = exchange["context"]
            request = {"header": context.header, "accepted": list(context.accepted)}
            if kind == "check":
                request["candidate"] = exchange["text"]
            elif kind == "command":
                request["text"] = exchange["text"]
                request["all_tactics"] = bool(exchange.get("all_tactics"))
            else:
                request["names"] = exchange["names"]
            if kind == "statement":
                request["declaration"] = exchange.get("declaration", "")
        failure = exchange.get("failure")
        entry = {
            "kind": kind,
            "key": key_for_request(kind, request),
            "request": request,
            "response": exchange.get("response"),
            "failure": None if failure is None else {k: failure[k] for k in failure},
            "toolchain": self.toolchain,
            "mathlib_rev": self.mathlib_rev,
            "note": "recorded",
            "recorded_at": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        }
        self.copy(entry)
