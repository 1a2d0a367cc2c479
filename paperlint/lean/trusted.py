"""The trusted check's edge: compile the layout's modules, then run the checker (issue #25).

Two kinds of process, each confined (bubblewrap when it works; `[lean] sandbox`), each with the
final check's wall-clock and memory limits:

1. one `lean -o` per module, in build order (gated, reference, then the untrusted proof
   modules). Each writes only into a fresh folder of its own; this module moves the one
   `.olean` it expects into the build folder, which every later process reads but none may
   write. So no module, however hostile, can replace another's `.olean`. Nothing a compile
   prints is evidence: only its exit code decides whether the checker runs at all.
2. the checker program, reading the request and the built `.olean` files, writing its record
   into a folder of its own. Its record is parsed strictly (`paperlint.lean.checker`); a
   missing, garbled or non-zero-exit answer is a failure, never a pass.

`TrustedRun` is what the workspace keeps (`audits/<id>/checker.json`): the job's key, the
modules it built (name and sha256), how each compile ended, and the checker's record.

Within one run, a module compiled once is not compiled again (`OleanCache`): each job of a
later result imports its dependencies' gated, reference and proof modules, and the audit
builds again what the gate built. The cache is keyed by the module's name, its text and the
keys of the local modules it imports, so a module is reused only where recompiling it would
read exactly the same inputs; it lives in a private folder for the verifier's lifetime and is
never read by another run (`replay` on a referee's machine compiles everything itself).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
import weakref
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Protocol

from pydantic import BaseModel, ConfigDict, Field

from paperlint.errors import LeanSetupError
from paperlint.lean import sandbox
from paperlint.lean.checker import CheckerRecord, Judgement, judge, parse_record, record_json
from paperlint.lean.final import ProcessRun, run_process
from paperlint.lean.modules import ROOT, CheckerRequest, CheckJob, LeanModule
from paperlint.lean.pins import LeanPaths
from paperlint.lean.sandbox import Mode
from paperlint.lean.verifier import FailureCode, Outcome

RUN_SCHEMA: Final = "paperlint.checker-run/1"
OUTPUT_CHARS: Final = 4000
RECORD_NAME: Final = "record.json"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ModuleRef(_Frozen):
    name: str
    sha256: str
    untrusted: bool


class CompileRun(_Frozen):
    module: str
    exit_code: int | None
    timed_out: bool = False
    duration_s: float = 0.0
    output: str = ""  # for a reader only; never evidence


class TrustedRun(_Frozen):
    """One trusted check, as the workspace keeps it."""

    schema_: str = Field(default=RUN_SCHEMA, alias="schema")
    key: str  # CheckJob.key(): what was judged
    request: dict[str, Any]
    modules: tuple[ModuleRef, ...]
    outcome: Outcome
    code: FailureCode | None = None
    hint: str | None = None
    compile: tuple[CompileRun, ...] = ()
    checker: CompileRun | None = None  # how the checker process ended (module "checker")
    record: dict[str, Any] | None = None  # the checker's record, as it wrote it
    replay: bool = False
    duration_s: float = 0.0

    def parsed(self) -> CheckerRecord | None:
        return parse_record(self.record)[0] if self.record is not None else None

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json", by_alias=True)


def run_of(
    job: CheckJob,
    *,
    outcome: Outcome,
    code: FailureCode | None = None,
    hint: str | None = None,
    compile: Sequence[CompileRun] = (),
    checker: CompileRun | None = None,
    record: CheckerRecord | None = None,
    replay: bool = False,
    duration_s: float = 0.0,
) -> TrustedRun:
    return TrustedRun(
        key=job.key(),
        request=job.request.to_json(),
        modules=tuple(
            ModuleRef(name=m.name, sha256=m.sha256, untrusted=m.untrusted) for m in job.modules
        ),  # fmt: skip
        outcome=outcome,
        code=code,
        hint=hint,
        compile=tuple(compile),
        checker=checker,
        record=record_json(record) if record is not None else None,
        replay=replay,
        duration_s=duration_s,
    )


def conclude(
    job: CheckJob,
    compiles: Sequence[CompileRun],
    checker: ProcessRun | None,
    raw: str | None,
    *,
    replay: bool = False,
) -> TrustedRun:
    """The run's outcome from what happened (pure; the replay verifier calls it too).

    A compile that timed out is a timeout; one that failed rejects; the checker's record
    accepts only when it parses and `judge` finds nothing."""
    spent = sum(c.duration_s for c in compiles) + (checker.duration_s if checker else 0.0)
    base: dict[str, Any] = {"compile": compiles, "replay": replay, "duration_s": spent}
    if checker is not None:
        base["checker"] = CompileRun(
            module="checker",
            exit_code=checker.exit_code,
            timed_out=checker.timed_out,
            duration_s=round(checker.duration_s, 3),
            output=checker.output[-OUTPUT_CHARS:],
        )

    def ended(outcome: Outcome, code: FailureCode, hint: str) -> TrustedRun:
        return run_of(job, outcome=outcome, code=code, hint=hint[:400], **base)

    for run in compiles:
        if run.timed_out:
            return ended(Outcome.TIMEOUT, FailureCode.TIMEOUT, f"compiling {run.module} timed out")
        if run.exit_code != 0:
            what = "the untrusted module" if _untrusted(job, run.module) else "a gated module"
            hint = f"{what} {run.module} does not compile (exit {run.exit_code})"
            return ended(Outcome.REJECTED, FailureCode.LEAN_ERROR, hint)
    if checker is None or checker.missing:
        why = checker.output if checker else "no checker program"
        hint = f"cannot run the checker ({why}); run `paperlint setup`"
        return ended(Outcome.UNAVAILABLE, FailureCode.UNAVAILABLE, hint)
    if checker.timed_out:
        return ended(Outcome.TIMEOUT, FailureCode.TIMEOUT, "the checker ran out of time")
    if checker.exit_code != 0:
        hint = f"the checker exited with {checker.exit_code}; its record is not read"
        return ended(Outcome.REJECTED, FailureCode.BACKEND_ERROR, hint)
    if raw is None:
        return ended(Outcome.REJECTED, FailureCode.BACKEND_ERROR, "the checker wrote no record")
    record, why = parse_record(raw)
    if record is None:
        return ended(Outcome.REJECTED, FailureCode.BACKEND_ERROR, why)
    verdict = judge(record, job.request)
    if verdict.passed:
        return run_of(job, outcome=Outcome.ACCEPTED, record=record, **base)
    hint = "; ".join(f.render() for f in verdict.findings[:3])[:400]
    return run_of(
        job, outcome=Outcome.REJECTED, code=FailureCode.REFUSED, hint=hint, record=record, **base
    )


def _untrusted(job: CheckJob, name: str) -> bool:
    found = job.module(name)
    return found is not None and found.untrusted


def judgement(run: TrustedRun, request: CheckerRequest | None = None) -> Judgement | None:
    """The findings of a kept run's record for `request` (default: the run's own request),
    re-derived (None: it holds no readable record)."""
    record = run.parsed()
    if record is None:
        return None
    if request is None:
        data = run.request
        request = CheckerRequest(
            mode=data.get("mode", "compare"),
            target=str(data.get("target", "")),
            reference_module=str(data.get("reference_module", "")),
            candidate_module=data.get("candidate_module"),
            approved=tuple(data.get("approved") or ()),
        )
    return judge(record, request)


class CheckerEdge(Protocol):
    """Anything that answers the trusted check: every `Verifier`, and the cold `FinalChecker`
    `paperlint replay` uses."""

    def trusted_check(self, job: CheckJob, *, timeout_s: float) -> TrustedRun: ...


def trusted_check(verifier: CheckerEdge, job: CheckJob, *, timeout_s: float) -> TrustedRun:
    """Ask `verifier` for the trusted check of `job`; an answer that is not a run (a remote
    worker's garbled reply) gives no verdict."""
    answer = verifier.trusted_check(job, timeout_s=timeout_s)
    if isinstance(answer, TrustedRun):
        return answer
    return unavailable(job, f"{type(verifier).__name__} gave no trusted checker run")


def unavailable(job: CheckJob, why: str, *, replay: bool = False) -> TrustedRun:
    return run_of(
        job, outcome=Outcome.UNAVAILABLE, code=FailureCode.UNAVAILABLE, hint=why, replay=replay
    )


def recorded_exchange(job: CheckJob, run: TrustedRun) -> dict[str, Any]:
    """What a recorder keeps of one live checker run (`LeanRecorder.write`, kind "checker"):
    the job's request and module texts, every compile, the checker process and its record; the
    replay verifier concludes from exactly these (`ReplayVerifier.trusted_check`)."""
    return {
        "kind": "checker",
        "request": job.described(),
        "response": {
            "compile": [c.model_dump(mode="json") for c in run.compile],
            "checker": run.checker.model_dump(mode="json") if run.checker else None,
            "record": run.record,
        },
    }


# --- the processes -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Tools:
    """How to start Lean and the checker here (`lake env …` in a project, or bare programs)."""

    lean: tuple[str, ...]  # e.g. (lake, "env", "lean")
    checker: tuple[str, ...] | None  # e.g. (lake, "env", <binary>); None: not built
    cwd: Path  # where the processes start (the Lake project)
    readonly: tuple[Path, ...] = ()  # what they may read besides the system and the build


@dataclass(frozen=True)
class Limits:
    timeout_s: float
    memory_mb: int | None = 16384
    sandbox: Mode = "auto"


def live_tools(paths: LeanPaths) -> Tools:
    """`lake env lean` and `lake env <checker>` in the Lake project, the toolchain readable."""
    from paperlint.lean.final import LEAN_OPTIONS

    binary = paths.checker_binary
    built = binary.is_file() and os.access(binary, os.X_OK)
    return Tools(
        lean=(paths.lake, "env", "lean", *LEAN_OPTIONS),
        checker=(paths.lake, "env", str(binary)) if built else None,
        cwd=paths.project,
        readonly=tuple(sandbox.toolchain_dirs(paths.lake)),
    )


REUSED: Final = "reused: compiled earlier in this run from the same text and imports"


class OleanCache:
    """The `.olean` files one verifier compiled, by `module_keys`: private (a fresh folder
    only this process may enter), removed on `close` or when the cache is collected."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="paperlint-olean-"))
        self._remove = weakref.finalize(self, shutil.rmtree, self.folder, ignore_errors=True)
        self.reused = 0

    def _path(self, key: str) -> Path:
        return self.folder / f"{key}.olean"

    def get(self, key: str) -> Path | None:
        path = self._path(key)
        return path if path.is_file() else None

    def put(self, key: str, built: Path) -> None:
        part = self.folder / f"{key}.part"
        shutil.copyfile(built, part)
        os.replace(part, self._path(key))

    def close(self) -> None:
        self._remove()


def module_keys(job: CheckJob) -> dict[str, str]:
    """Each module's cache key: sha256 of its name, its text's sha256 and the keys of the
    local modules it imports (in build order, so an import's key is known first)."""
    keys: dict[str, str] = {}
    for module in job.modules:
        imports = [
            keys.get(name, name)
            for line in module.text.splitlines()
            if line.startswith("import ") and (name := line.split()[1]).startswith(ROOT + ".")
        ]
        canonical = json.dumps([module.name, module.sha256, sorted(imports)])
        keys[module.name] = hashlib.sha256(canonical.encode()).hexdigest()
    return keys


class TrustedChecker:
    """`trusted_check` over real processes: compile each module, then run the checker."""

    is_replay = False

    def __init__(
        self,
        tools: Tools,
        *,
        memory_mb: int | None = 16384,
        sandbox: Mode = "auto",
        cache: OleanCache | None = None,
    ):
        self.tools = tools
        self.memory_mb = memory_mb
        self.sandbox = sandbox
        self.cache = cache

    def trusted_check(self, job: CheckJob, *, timeout_s: float) -> TrustedRun:
        limits = Limits(timeout_s, self.memory_mb, self.sandbox)
        scratch = Path(tempfile.mkdtemp(prefix="paperlint-checker-"))
        try:
            return run_job(job, self.tools, limits, scratch, self.cache)
        except LeanSetupError as exc:  # [lean] sandbox = "required" and no sandbox here
            return run_of(job, outcome=Outcome.UNAVAILABLE, code=FailureCode.UNAVAILABLE,
                          hint=str(exc)[:400])  # fmt: skip
        finally:
            shutil.rmtree(scratch, ignore_errors=True)


def run_job(
    job: CheckJob, tools: Tools, limits: Limits, scratch: Path, cache: OleanCache | None = None
) -> TrustedRun:
    """Build every module of `job` under `scratch` (reusing what `cache` holds for exactly
    that module), then run the checker on them."""
    src, build = scratch / "src", scratch / "build"
    for module in job.modules:
        path = src / module.path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(module.text, encoding="utf-8")
    build.mkdir(parents=True, exist_ok=True)
    keys = module_keys(job)
    compiles: list[CompileRun] = []
    for index, module in enumerate(job.modules):
        placed = build / module.path.replace(".lean", ".olean")
        if cache is not None and (cached := cache.get(keys[module.name])) is not None:
            placed.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(cached, placed)
            cache.reused += 1
            compiles.append(CompileRun(module=module.name, exit_code=0, output=REUSED))
            continue
        run = compile_module(module, tools, limits, src, build, scratch / f"out-{index}")
        compiles.append(run)
        if run.exit_code != 0 or run.timed_out:
            return conclude(job, compiles, None, None)
        if cache is not None:
            cache.put(keys[module.name], placed)
    if tools.checker is None:
        return conclude(job, compiles, ProcessRun(None, "not built", missing=True), None)
    checker, raw = run_checker(job, tools, limits, build, scratch / "checker")
    return conclude(job, compiles, checker, raw)


def compile_module(
    module: LeanModule, tools: Tools, limits: Limits, src: Path, build: Path, out: Path
) -> CompileRun:
    """`lean -R src -o out/M.olean src/M.lean`, writable: `out` only; then the one expected
    `.olean` moves into `build`."""
    target = out / module.path.replace(".lean", ".olean")
    target.parent.mkdir(parents=True, exist_ok=True)
    command = [*tools.lean, "-R", str(src), "-o", str(target), str(src / module.path)]
    environ = {"LEAN_PATH": str(build)}
    run = _confined_run(command, tools, limits, readonly=[src, build], writable=out, env=environ)
    done = CompileRun(
        module=module.name,
        exit_code=run.exit_code,
        timed_out=run.timed_out,
        duration_s=round(run.duration_s, 3),
        output=run.output[-OUTPUT_CHARS:],
    )
    if run.exit_code == 0 and not run.timed_out:
        if not target.is_file() or target.is_symlink():
            return done.model_copy(update={"exit_code": 1, "output": "no .olean was written"})
        placed = build / module.path.replace(".lean", ".olean")
        placed.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(target, placed)
    shutil.rmtree(out, ignore_errors=True)
    return done


def run_checker(
    job: CheckJob, tools: Tools, limits: Limits, build: Path, out: Path
) -> tuple[ProcessRun, str | None]:
    """The checker program on the built modules; (its run, its record's text or None)."""
    assert tools.checker is not None
    out.mkdir(parents=True, exist_ok=True)
    request = out.parent / "request.json"
    request.write_text(json.dumps(job.request.to_json(), sort_keys=True), encoding="utf-8")
    record = out / RECORD_NAME
    command = [*tools.checker, str(request), str(record)]
    run = _confined_run(
        command,
        tools,
        limits,
        readonly=[build, request],
        writable=out,
        env={"LEAN_PATH": str(build)},
    )
    if not record.is_file() or record.is_symlink():
        return run, None
    try:
        return run, record.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return run, None


def _confined_run(
    command: list[str],
    tools: Tools,
    limits: Limits,
    *,
    readonly: Sequence[Path],
    writable: Path,
    env: dict[str, str],
) -> ProcessRun:
    """One process: bubblewrap when it works (`writable` the only writable host path; its
    home the sandbox's own /tmp), else plain with the same limits. Raises LeanSetupError when
    the sandbox is required and unavailable."""
    writable.mkdir(parents=True, exist_ok=True)
    environ = {**os.environ, **env}
    confined = sandbox.confinement(
        limits.sandbox,
        readonly=[tools.cwd, *tools.readonly, *readonly],
        writable=[writable],
        environ=environ,
    )
    start = time.monotonic()
    run = run_process(
        command,
        tools.cwd,
        timeout_s=limits.timeout_s,
        memory_mb=limits.memory_mb,
        confined=confined,
        env=environ if confined is None else None,
    )
    if run.duration_s == 0.0:
        run = ProcessRun(run.exit_code, run.output, time.monotonic() - start,
                         run.timed_out, run.missing)  # fmt: skip
    return run


# --- what a kept run supports ------------------------------------------------------------------


def locked_hash(run: TrustedRun | None, job: CheckJob | None = None) -> str | None:
    """The statement hash a gate's reference run locks (None: no lock it supports). The run
    must be of `job` when given, accepted, and its record must pass `judge`."""
    if run is None or run.outcome is not Outcome.ACCEPTED:
        return None
    if job is not None and run.key != job.key():
        return None
    verdict = judgement(run, job.request if job is not None else None)
    return verdict.statement_hash if verdict is not None and verdict.passed else None


def read_run(data: object) -> TrustedRun | None:
    """A kept run read back (None: absent or malformed)."""
    if not isinstance(data, dict):
        return None
    try:
        return TrustedRun.model_validate(data)
    except ValueError:
        return None


def gate_lock(
    gate: object, read: Callable[[str], object], job: CheckJob | None = None
) -> str | None:
    """The statement hash the gate record `gate` locks, re-derived from its reference run
    (`read` gives a workspace file's JSON; None: the gate locked none). The gate's own copy
    of the hash is never read; with `job`, the run must be of exactly that reference job."""
    reference = gate.get("reference") if isinstance(gate, dict) else None
    path = reference.get("run") if isinstance(reference, dict) else None
    run = read_run(read(path)) if isinstance(path, str) else None
    return locked_hash(run, job)


def read_workspace_json(root: Path, rel: str) -> object:
    """A workspace file's JSON (None: a path leaving the workspace, absent or unreadable)."""
    from pathlib import PurePosixPath

    pure = PurePosixPath(rel)
    if not rel or pure.is_absolute() or ".." in pure.parts or "\\" in rel:
        return None
    try:
        return json.loads((root / rel).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def verdict_problems(
    run: TrustedRun | None,
    *,
    job: CheckJob | None,
    locked: str | None,
    conditions: Collection[str],
    derived: bool = False,
) -> list[tuple[str, str]]:
    """(rule, message) for each reason `run` does not support a verified verdict (pure; the
    engine's audit and `validate` both call it). The findings are re-derived from the record
    for the request `job` asks, never read from the run's own outcome.

    `derived`: the job's reference is derived from the locked statement (an ERROR's
    refutation, a reconnection's discharge), so its hash is not the lock; the gate must still
    have locked the statement it is derived from."""
    if run is None:
        return [("checker-missing", "no trusted checker record")]
    problems: list[tuple[str, str]] = []
    if job is not None and run.key != job.key():
        problems.append(("checker-stale", "the checker judged other modules than the records"
                         " compose to"))  # fmt: skip
    verdict = judgement(run, job.request if job is not None else None)
    if verdict is None:
        why = run.hint or "its record is missing or unreadable"
        return [*problems, ("checker-failed", f"the trusted check {run.outcome.value}: {why}")]
    problems += [(f.rule.value, f.message) for f in verdict.findings]
    if run.outcome is not Outcome.ACCEPTED and not verdict.findings:
        problems.append(("checker-failed", f"the trusted check {run.outcome.value}: {run.hint}"))
    if locked is None:
        problems.append(("reference-unlocked", "the gate locked no reference statement"))
    elif not derived and verdict.statement_hash != locked:
        problems.append(("statement-changed", "the checker's reference statement is not the"
                         " one the gate locked"))  # fmt: skip
    missing = sorted(set(conditions) - set(verdict.hypotheses))
    if missing:
        problems.append(("conditions-mismatch", f"not hypotheses of the checked statement: "
                         f"{', '.join(missing)}"))  # fmt: skip
    return problems
