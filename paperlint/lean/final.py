"""The authoritative check: `lake env lean FILE` in `lean-project/` (docs/lean-notes.md §7).

Two cold runs: the file exactly as written (exit code, errors, sorry warning), then a copy with
marker-wrapped `#print axioms` queries appended (docs/lean-notes.md §11.4), parsed fail-closed. Each
run has a wall-clock timeout, its own session (a timeout kills the whole process group) and the same
RLIMIT_AS as the warm REPL. The raw runs (`ProcessRun`) go through `final_from_runs`, which the
replay verifier calls too.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import resource
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperlint.errors import LeanSetupError

if TYPE_CHECKING:
    from paperlint.lean.modules import CheckJob
    from paperlint.lean.trusted import OleanCache, TrustedRun
from paperlint.lean import elaborated, guard, sandbox
from paperlint.lean.messages import (
    MEMORY_HINT,
    SORRY_WARNING,
    disallowed_axioms,
    insert_before_trailing_end,
    is_heartbeat_error,
    marked_axiom_queries,
    output_text,
    parse_marked_axioms,
    read_output,
    start_failure,
)
from paperlint.lean.pins import LeanPaths, read_manifest_rev, read_toolchain
from paperlint.lean.sandbox import Confinement, Mode
from paperlint.lean.verifier import (
    STANDARD_AXIOMS,
    FailureCode,
    FinalCheck,
    Outcome,
    SecondKernel,
)

OUTPUT_CHARS = 20000  # kept in the record; the full output's sha256 is noted when cut


@dataclass(frozen=True)
class ProcessRun:
    """One `lake env lean` run as it happened: the raw material of a final check."""

    exit_code: int | None  # None: killed on timeout, or never started
    output: str  # stdout and stderr, interleaved as the process wrote them
    duration_s: float = 0.0
    timed_out: bool = False
    missing: bool = False  # the executable was not found

    def to_raw(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_raw(cls, raw: dict[str, Any]) -> ProcessRun:
        return cls(
            exit_code=raw.get("exit_code"),
            output=str(raw.get("output", "")),
            duration_s=float(raw.get("duration_s", 0.0)),
            timed_out=bool(raw.get("timed_out", False)),
            missing=bool(raw.get("missing", False)),
        )


LEAN_OPTIONS = ("-DElab.async=false",)
"""The final build elaborates as the warm REPL does (lean-interact's
`enable_parallel_elaboration=False` leaves `Elab.async` off there; `lean` turns it on)."""
JSON = "--json"
"""The final check reads Lean's messages as JSON, one object per message (`read_output`): in
the text output an information message has no position, so its lines cannot be told from
the preceding error's continuation."""


def _limit_memory(limit_mb: int | None) -> Callable[[], None] | None:
    if limit_mb is None:
        return None
    limit = limit_mb * 1024 * 1024

    def apply() -> None:  # runs in the child, before exec
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return apply


def run_lean(
    lake: str,
    project: Path,
    file: Path,
    *,
    timeout_s: float,
    memory_mb: int | None,
    confined: Confinement | None = None,
) -> ProcessRun:
    return run_process(
        [lake, "env", "lean", JSON, *LEAN_OPTIONS, str(file)],
        project,
        timeout_s=timeout_s,
        memory_mb=memory_mb,
        confined=confined,
    )


def run_process(
    command: list[str],
    project: Path,
    *,
    timeout_s: float,
    memory_mb: int | None,
    confined: Confinement | None = None,
    env: dict[str, str] | None = None,
) -> ProcessRun:
    """One Lean-side process (lake, lean, lean4checker), confined when given a confinement."""
    start = time.monotonic()
    lake = command[0]
    if confined is not None and shutil.which(lake) is None:
        # Inside bwrap a missing program is bwrap's exit 1, not FileNotFoundError: say it here.
        return ProcessRun(exit_code=None, output=f"no such executable: {lake}", missing=True)
    try:
        proc = subprocess.Popen(
            confined.argv(command, cwd=project) if confined is not None else command,
            cwd=project,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            encoding="utf-8",
            errors="replace",
            start_new_session=True,  # so a timeout can kill lake *and* lean
            preexec_fn=_limit_memory(memory_mb),
        )
    except FileNotFoundError as exc:
        return ProcessRun(exit_code=None, output=str(exc), missing=True)
    try:
        output, _ = proc.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        output, _ = proc.communicate()
        return ProcessRun(
            exit_code=None,
            output=output or "",
            duration_s=time.monotonic() - start,
            timed_out=True,
        )
    return ProcessRun(exit_code=proc.returncode, output=output, duration_s=time.monotonic() - start)


def _cut(text: str) -> str:
    if len(text) <= OUTPUT_CHARS:
        return text
    digest = hashlib.sha256(text.encode()).hexdigest()
    return text[:OUTPUT_CHARS] + f"\n… [output cut; {len(text)} chars, sha256 {digest}]"


def final_from_runs(
    file_sha256: str,
    names: Sequence[str],
    build: ProcessRun,
    axioms: ProcessRun | None,
    *,
    command: tuple[str, ...] = (),
    toolchain: str | None = None,
    mathlib_rev: str | None = None,
    allowlist: frozenset[str] = STANDARD_AXIOMS,
    replay: bool = False,
    statements: ProcessRun | None = None,
) -> FinalCheck:
    """The verdict on a file from its runs (the axiom run is None when it was not made).

    `statements` is the separate `#paperlint_statement` run: its answers are parsed into
    `FinalCheck.statements`, and it never changes the verdict of the build itself (a
    missing answer is caught where the gate's elaboration is compared)."""
    output = build.output if axioms is None else f"{build.output}\n--- axioms ---\n{axioms.output}"
    base: dict[str, Any] = {
        "file_sha256": file_sha256,
        "command": command,
        "exit_code": build.exit_code,
        "duration_s": build.duration_s + (axioms.duration_s if axioms else 0.0),
        "output": _cut(output),
        "toolchain": toolchain,
        "mathlib_rev": mathlib_rev,
        "replay": replay,
        "statements": _statements(statements, names, file_sha256),
    }
    for run in (build, axioms):
        if run is not None and (why := _did_not_start(run)):
            return FinalCheck(
                outcome=Outcome.UNAVAILABLE,
                code=FailureCode.UNAVAILABLE,
                hint=MEMORY_HINT.format(why=why),
                **base,
            )
        if run is not None and (run.missing or run.timed_out):
            return FinalCheck(
                outcome=Outcome.TIMEOUT if run.timed_out else Outcome.UNAVAILABLE,
                code=FailureCode.TIMEOUT if run.timed_out else FailureCode.UNAVAILABLE,
                hint="`lake env lean` ran out of time"
                if run.timed_out
                else f"cannot run lake ({run.output}); run `paperlint doctor`",
                **base,
            )
    messages = read_output(build.output)
    errors = tuple(m.text for m in messages if m.severity == "error")
    if build.exit_code != 0 and not errors:
        errors = (f"lean exited with {build.exit_code} and printed no error",)
    has_sorry = any(SORRY_WARNING.search(m.text) for m in messages)
    base |= {"errors": errors, "has_sorry_warning": has_sorry}
    if errors or has_sorry:
        heartbeat = any(is_heartbeat_error(e) for e in errors)
        code = (
            FailureCode.HEARTBEATS
            if heartbeat
            else FailureCode.LEAN_ERROR
            if errors
            else FailureCode.SORRY
        )
        first = errors[0].splitlines()[0] if errors else "declaration uses sorry"
        return FinalCheck(outcome=Outcome.REJECTED, code=code, hint=first[:300], **base)
    if not names:
        return FinalCheck(outcome=Outcome.ACCEPTED, **base)
    if axioms is None:
        return FinalCheck(
            outcome=Outcome.REJECTED,
            axioms=dict.fromkeys(names),
            code=FailureCode.AXIOMS_UNPARSED,
            hint="the axiom queries were not run",
            **base,
        )
    found, problems = parse_marked_axioms(output_text(axioms.output), names, file_sha256)
    base["axioms"] = found
    if axioms.exit_code != 0 or problems:
        detail = "; ".join(problems) or f"the axiom run exited with {axioms.exit_code}"
        return FinalCheck(
            outcome=Outcome.REJECTED, code=FailureCode.AXIOMS_UNPARSED, hint=detail[:400], **base
        )
    bad = {n: disallowed_axioms(a or (), allowlist) for n, a in found.items()}
    bad = {n: b for n, b in bad.items() if b}
    if bad:
        hint = "; ".join(f"{n}: {', '.join(b)}" for n, b in bad.items())
        return FinalCheck(
            outcome=Outcome.REJECTED,
            code=FailureCode.DISALLOWED_AXIOMS,
            hint=f"axioms outside the allowlist: {hint}"[:400],
            **base,
        )
    return FinalCheck(outcome=Outcome.ACCEPTED, **base)


def _did_not_start(run: ProcessRun) -> str:
    """Why Lean aborted at start-up ("" if it did not): a failure exit, a start-up failure
    and no message of Lean's (no position)."""
    found = start_failure(run.output)
    if run.exit_code in (0, None) or not found:
        return ""
    return "" if any(m.line for m in read_output(run.output)) else found


def with_second_kernel(check: FinalCheck, second: SecondKernel | None) -> FinalCheck:
    """A failing second kernel turns an accepted check into a rejected one, on the record."""
    if second is None:
        return check
    update: dict[str, Any] = {"second_kernel": second}
    if check.outcome is Outcome.ACCEPTED and not second.ok:
        update |= {
            "outcome": Outcome.REJECTED,
            "code": FailureCode.LEAN_ERROR,
            "hint": f"{second.tool} rejected the module (exit {second.exit_code})",
        }
    return check.model_copy(update=update)


def _statements(
    run: ProcessRun | None, names: Sequence[str], salt: str
) -> dict[str, elaborated.Elaboration | None]:
    if run is None or elaborated.PREFIX not in run.output:
        return {}  # not asked, or the command did not run: nothing is claimed
    return elaborated.parse([m.text for m in read_output(run.output)], names, salt)


class FinalChecker:
    """`final_check` of the Verifier protocol, by cold `lake env lean` runs."""

    is_replay = False

    def __init__(
        self,
        paths: LeanPaths,
        *,
        memory_mb: int | None = 16384,
        allowlist: frozenset[str] = STANDARD_AXIOMS,
        sandbox: Mode = "auto",
        recorder: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        self.paths = paths
        self.memory_mb = memory_mb
        self.allowlist = allowlist
        self.sandbox = sandbox
        self.recorder = recorder
        """Told every final check's raw answer (`check --record`: `replay.LeanRecorder.write`)."""
        self._cache: OleanCache | None = None  # the trusted checker's, for this run

    def final_check(self, file: Path, names: Sequence[str], *, timeout_s: float) -> FinalCheck:
        file = file.resolve()
        try:
            text = file.read_text(encoding="utf-8")
        except OSError as exc:
            return FinalCheck(
                outcome=Outcome.UNAVAILABLE,
                file_sha256="",
                code=FailureCode.UNAVAILABLE,
                hint=f"cannot read {file}: {exc}",
            )
        sha = hashlib.sha256(text.encode()).hexdigest()
        if bad := guard.bad_names(names):
            # A name with spaces or newlines would splice a command into the copy.
            return FinalCheck(
                outcome=Outcome.REJECTED,
                file_sha256=sha,
                axioms=dict.fromkeys(names),
                code=FailureCode.AXIOMS_UNPARSED,
                hint=f"not a single declaration name: {bad!r}",
            )
        try:
            run = self._runner(timeout_s, file)
        except LeanSetupError as exc:  # [lean] sandbox = "required" and no sandbox here
            return FinalCheck(
                outcome=Outcome.UNAVAILABLE,
                file_sha256=sha,
                code=FailureCode.UNAVAILABLE,
                hint=str(exc)[:400],
            )
        build = run(file)
        axioms = statements = None
        if names and build.exit_code == 0 and not build.timed_out:
            axioms = self._axiom_run(file, text, names, sha, run)
            source = elaborated.command_source(self.paths.project)
            if source is not None:
                addition = elaborated.query(names, sha, source)
                statements = self._copy_run(file, text, addition, run)
        if self.recorder is not None:
            self.recorder(
                {
                    "kind": "final",
                    "file_sha256": sha,
                    "names": list(names),
                    "response": {
                        "build": build.to_raw(),
                        "axioms": axioms.to_raw() if axioms else None,
                        "statements": statements.to_raw() if statements else None,
                    },
                }
            )
        return final_from_runs(
            sha,
            names,
            build,
            axioms,
            command=(self.paths.lake, "env", "lean", JSON, *LEAN_OPTIONS, str(file)),
            toolchain=read_toolchain(self.paths.project),
            mathlib_rev=read_manifest_rev(self.paths.project),
            allowlist=self.allowlist,
            statements=statements,
        )

    def trusted_check(self, job: CheckJob, *, timeout_s: float) -> TrustedRun:
        """The trusted checker on `job` (issue #25), with this checker's limits and sandbox;
        a module compiled for an earlier job of this run is reused (`OleanCache`)."""
        from paperlint.lean.trusted import (
            OleanCache,
            TrustedChecker,
            live_tools,
            recorded_exchange,
        )

        if self._cache is None:
            self._cache = OleanCache()
        checker = TrustedChecker(live_tools(self.paths), memory_mb=self.memory_mb,
                                 sandbox=self.sandbox, cache=self._cache)  # fmt: skip
        run = checker.trusted_check(job, timeout_s=timeout_s)
        if self.recorder is not None:
            self.recorder(recorded_exchange(job, run))
        return run

    def _runner(self, timeout_s: float, file: Path) -> Callable[[Path], ProcessRun]:
        """Runs `lake env lean PATH`, confined when the sandbox is active: the project, the
        toolchain and the checked file's folder read-only, the copies' folder read-only too,
        nothing writable but the sandbox's own fresh /tmp (its home)."""
        base = [self.paths.project, *sandbox.toolchain_dirs(self.paths.lake), file.parent]

        def run(path: Path) -> ProcessRun:
            confined = sandbox.confinement(self.sandbox, readonly=[*base, path.parent], writable=[])
            return run_lean(
                self.paths.lake,
                self.paths.project,
                path,
                timeout_s=timeout_s,
                memory_mb=self.memory_mb,
                confined=confined,
            )

        # Fails here, before any Lean starts, when the sandbox is required and unavailable.
        sandbox.confinement(self.sandbox, readonly=base, writable=[])

        return run

    def _axiom_run(
        self,
        file: Path,
        text: str,
        names: Sequence[str],
        sha: str,
        run: Callable[[Path], ProcessRun],
    ) -> ProcessRun:
        return self._copy_run(file, text, marked_axiom_queries(names, sha), run)

    def _copy_run(
        self, file: Path, text: str, addition: str, run: Callable[[Path], ProcessRun]
    ) -> ProcessRun:
        # A copy: the file whose sha256 is recorded stays exactly as built.
        scratch = Path(tempfile.mkdtemp(prefix="paperlint-axioms-"))
        try:
            copy = scratch / file.name
            copy.write_text(insert_before_trailing_end(text, addition), encoding="utf-8")
            return run(copy)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    def close(self) -> None:
        if self._cache is not None:
            self._cache.close()
            self._cache = None
