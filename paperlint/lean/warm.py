"""The warm verifier: one lean-interact REPL, a header imported once, candidates on top.

Recipe of docs/lean-notes.md §6. lean-interact is imported lazily (its import creates a directory
and attaches a stdout log handler), and only inside `LeanInteractBackend`: `WarmVerifier` talks to
a small `ReplBackend` protocol returning raw REPL dicts, so tests inject a fake backend and the
dict -> record mapping is the one the replay verifier uses (`paperlint.lean.responses`).

State: REPL session ids keyed by `LeanContext.key()` (header + accepted declarations as text).
A context is prepared by running the header, then each accepted declaration, each on the
previous id, each kept in lean-interact's session cache. A candidate's env is kept only when it
is clean (it is exactly the env the extended context would prepare); a rejected one is dropped
at once, so nothing ever chains on a declaration Lean completed with placeholder sorries.
After a crash, a timeout or a restart all ids are forgotten and the chain is rebuilt from the
text with paperlint's own timeouts, never by lean-interact's untimed lazy replay.
"""

from __future__ import annotations

import logging
import re
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from paperlint.errors import LeanSetupError
from paperlint.lean import elaborated, guard, responses, sandbox
from paperlint.lean.elaborated import Elaboration
from paperlint.lean.final import FinalChecker
from paperlint.lean.messages import MEMORY_HINT, axiom_query, start_failure
from paperlint.lean.pins import LeanPaths, read_toolchain
from paperlint.lean.sandbox import Mode
from paperlint.lean.verifier import (
    AxiomReport,
    FailureCode,
    FinalCheck,
    LeanCheck,
    LeanContext,
    Outcome,
    Verifier,
)

if TYPE_CHECKING:
    from lean_interact import LeanServer

    from paperlint.lean.modules import CheckJob
    from paperlint.lean.trusted import TrustedRun

log = logging.getLogger(__name__)

_HEARTBEATS_SET = re.compile(r"^\s*set_option\s+maxHeartbeats\s+\d+\s*$", re.M)


@dataclass(frozen=True)
class WarmSettings:
    paths: LeanPaths
    # RLIMIT_AS counts memory-mapped .olean files: Mathlib needs GBs (docs/lean-notes.md §3.9).
    memory_hard_limit_mb: int | None = 16384
    memory_budget_fraction: float = 0.7  # restart above this share of the hard limit
    prepare_timeout_s: float = 900.0  # header import + replay of accepted declarations
    restart_every: int = 300  # env snapshots are never freed inside one REPL process
    heartbeats: int = 400000  # added to a header that sets no maxHeartbeats
    # The fork's incremental reuse caches headers across edits; off by default for the verifier.
    incremental: bool = False
    sandbox: Mode = "auto"  # bubblewrap confinement (sandbox.py)


Exchange = dict[str, Any]  # one request/answer pair, as `replay.LeanRecorder` stores it


class ReplBackend(Protocol):
    """What the warm verifier needs from a REPL; raises lean-interact's exceptions as they are."""

    def run(
        self,
        cmd: str,
        env: int | None,
        *,
        timeout_s: float,
        keep: bool,
        all_tactics: bool = False,
        declarations: bool = False,
    ) -> dict[str, Any]:
        """Send one Command; `keep` = add to the session cache (a negative id comes back).

        `all_tactics` (the prover's tools) and `declarations` (candidate checks: the fork's
        per-declaration info, `repl_declarations.py`) are passed only when true, so a test
        double may leave them out.
        """
        ...

    def forget(self, env: int) -> None: ...

    def reset(self) -> None:
        """Forget every session id and kill the process; the next `run` starts a fresh one."""
        ...

    def memory_mb(self) -> float: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class Restart:
    reason: str
    rss_mb: float
    at: float = field(default_factory=time.time)


def ensure_heartbeats(header: str, heartbeats: int) -> str:
    """A heartbeat limit in the header holds for every later command (docs/lean-notes.md §2.3)."""
    if _HEARTBEATS_SET.search(header):
        return header
    return f"{header.rstrip()}\nset_option maxHeartbeats {heartbeats}"


class _Failed(Exception):
    """Preparation stopped with a typed result; carried out of the retry loop."""

    def __init__(self, check: LeanCheck) -> None:
        super().__init__(check.hint)
        self.check = check


class _StaleEnv(Exception):
    """The REPL no longer knows an id we mapped (it restarted under us)."""


# The process died or lost our state: worth one rebuild of the chain from text before giving
# up on this call. Not ValueError: that is a request the client refused to send (lean-interact
# validates requests), and restarting a Mathlib-loaded REPL would not change it.
_RETRYABLE = (ConnectionAbortedError, BrokenPipeError, ChildProcessError, _StaleEnv)


class WarmVerifier(Verifier):
    def __init__(
        self,
        settings: WarmSettings,
        *,
        backend: ReplBackend | None = None,
        final: FinalChecker | None = None,
        on_restart: Callable[[Restart], None] | None = None,
        recorder: Callable[[Exchange], None] | None = None,
    ) -> None:
        """`on_restart` is told of every restart (the engine logs each as a `lean_restart`
        event); `recorder` of every raw answer, the final checker's too (`check --record`:
        `replay.LeanRecorder.write`). Both are given here: nothing is attached later."""
        self.settings = settings
        self._backend = backend if backend is not None else LeanInteractBackend(settings)
        self._final = (
            final
            if final is not None
            else FinalChecker(
                settings.paths,
                memory_mb=settings.memory_hard_limit_mb,
                sandbox=settings.sandbox,
                recorder=recorder,
            )
        )
        self.on_restart = on_restart
        self._importing = False  # the header import is running (a crash there is remembered)
        self._envs: dict[str, int] = {}  # LeanContext.key() of a prefix -> session id
        self._broken: dict[str, LeanCheck] = {}  # prefixes that failed: text-keyed, so final
        self._header: str | None = None
        self._calls = 0
        self._disabled: str | None = None  # set after a MemoryError: stop using Lean this run
        self.restarts: list[Restart] = []
        self.recorder = recorder

    # --- Verifier protocol ------------------------------------------------------------------

    def check(self, context: LeanContext, candidate: str, *, timeout_s: float) -> LeanCheck:
        start = time.monotonic()
        refused = guard.refusals(candidate)
        if refused:
            return LeanCheck(
                outcome=Outcome.REJECTED,
                code=FailureCode.REFUSED,
                hint="refused before Lean: " + "; ".join(refused)[:400],
            )
        raw = self._call(context, candidate, timeout_s=timeout_s, keep=True, declarations=True)
        duration = time.monotonic() - start
        if isinstance(raw, LeanCheck):
            result = raw.model_copy(update={"duration_s": duration})
            self._record("check", context, candidate, None, result)
            return result
        self._record("check", context, candidate, raw, None)
        result = responses.check_from_response(raw, candidate, duration_s=duration)
        env = raw.get("env")
        if isinstance(env, int):
            if result.accepted:
                # Clean: the very env `context.extended(candidate)` would prepare. Callers
                # often advance with the stripped text; both spellings elaborate the same.
                self._envs[context.extended(candidate).key()] = env
                self._envs[context.extended(candidate.strip()).key()] = env
            else:
                self._backend.forget(env)
        return result

    def print_axioms(
        self, context: LeanContext, names: Sequence[str], *, timeout_s: float
    ) -> AxiomReport:
        bad = guard.bad_names(names)
        if bad or not names:
            return AxiomReport(
                outcome=Outcome.REJECTED,
                axioms=dict.fromkeys(names),
                code=FailureCode.AXIOMS_UNPARSED,
                hint=f"not a single declaration name: {bad!r}" if bad else "no names to query",
            )
        query = axiom_query(names)
        raw = self._call(context, query, timeout_s=timeout_s, keep=False)
        if isinstance(raw, LeanCheck):
            self._record("axioms", context, query, None, raw, names=names)
            return AxiomReport(
                outcome=raw.outcome, axioms=dict.fromkeys(names), code=raw.code, hint=raw.hint
            )
        self._record("axioms", context, query, raw, None, names=names)
        return responses.axioms_from_response(raw, names)

    def final_check(self, file: Path, names: Sequence[str], *, timeout_s: float) -> FinalCheck:
        return self._final.final_check(file, names, timeout_s=timeout_s)

    def trusted_check(self, job: CheckJob, *, timeout_s: float) -> TrustedRun:
        return self._final.trusted_check(job, timeout_s=timeout_s)

    def elaborate_statements(
        self,
        context: LeanContext,
        names: Sequence[str],
        *,
        timeout_s: float,
        declaration: str = "",
    ) -> dict[str, Elaboration | None] | None:
        """`#paperlint_statement` on `context`, after `declaration` (a gated statement, whose
        `sorry` body is fine here) in the same command. The query text is ours, so it is not
        scanned; `declaration` is, as every model-written text is."""
        source = elaborated.command_source(self.settings.paths.project)
        if source is None or not names or guard.bad_names(names) or guard.refusals(declaration):
            return None
        cmd = elaborated.query(names, context.key(), source, declaration=declaration)
        raw = self._call(context, cmd, timeout_s=timeout_s, keep=False)
        if isinstance(raw, LeanCheck):
            self._record("statement", context, cmd, None, raw, names=names, declaration=declaration)
            return None
        self._record("statement", context, cmd, raw, None, names=names, declaration=declaration)
        return elaborated.parse(elaborated.repl_texts(raw), names, context.key())

    def close(self) -> None:
        self._backend.close()
        self._envs.clear()
        self._final.close()

    # --- the REPL conversation --------------------------------------------------------------

    def command(
        self, context: LeanContext, cmd: str, *, timeout_s: float, all_tactics: bool = False
    ) -> dict[str, Any] | LeanCheck:
        """One probe command on `context` for the prover's tools (issue #13), never cached.

        The refusal scan runs first, as for `check`; the raw answer is returned for the tools
        to read (`sorries`, `tactics`, `Try this:` messages). Never an acceptance.
        """
        refused = guard.refusals(cmd)
        if refused:
            return LeanCheck(
                outcome=Outcome.REJECTED,
                code=FailureCode.REFUSED,
                hint="refused before Lean: " + "; ".join(refused)[:400],
            )
        raw = self._call(context, cmd, timeout_s=timeout_s, keep=False, all_tactics=all_tactics)
        if isinstance(raw, LeanCheck):
            self._record("command", context, cmd, None, raw, all_tactics=all_tactics)
        else:
            self._record("command", context, cmd, raw, None, all_tactics=all_tactics)
        return raw

    def _call(
        self,
        context: LeanContext,
        cmd: str,
        *,
        timeout_s: float,
        keep: bool,
        all_tactics: bool = False,
        declarations: bool = False,
    ) -> dict[str, Any] | LeanCheck:
        """Prepare `context` and run `cmd` on it; a raw answer, or a typed failure."""
        if self._disabled:
            return LeanCheck(
                outcome=Outcome.UNAVAILABLE, code=FailureCode.UNAVAILABLE, hint=self._disabled
            )
        self._housekeeping()
        for attempt in (1, 2):
            self._importing = False
            try:
                env = self._prepare(context)
                extra: dict[str, Any] = {"all_tactics": True} if all_tactics else {}
                if declarations:
                    extra["declarations"] = True
                raw = self._backend.run(cmd, env, timeout_s=timeout_s, keep=keep, **extra)
            except _Failed as failed:
                return failed.check
            except TimeoutError as exc:
                self._restart("timeout")
                return responses.check_from_exception(exc)
            except MemoryError as exc:
                self._disabled = f"Lean disabled for this run after a MemoryError: {exc}"[:400]
                self._restart("memory_error")
                return responses.check_from_exception(exc)
            except _RETRYABLE as exc:
                self._restart(f"{type(exc).__name__} (attempt {attempt})")
                if self._importing and (why := start_failure(str(exc))):
                    # Lean aborted before reading the header: the address-space limit is
                    # below what Lean reserves at start-up. The machine's limit, not a dead
                    # worker (which the pool would replace, to die the same way).
                    self._disabled = MEMORY_HINT.format(why=why)
                    return LeanCheck(
                        outcome=Outcome.UNAVAILABLE,
                        code=FailureCode.UNAVAILABLE,
                        hint=self._disabled,
                    )
                if self._importing:
                    # Importing Mathlib killed the REPL (out of memory, most likely): it would
                    # again, so this run stops paying for it.
                    self._disabled = (
                        f"Lean disabled for this run: the REPL died importing the header "
                        f"({type(exc).__name__}: {exc}); see `python -m paperlint.lean.firstrun`"
                    )[:400]
                    return responses.check_from_exception(exc)
                if attempt == 1:
                    continue
                return responses.check_from_exception(exc)
            except Exception as exc:  # the backend boundary: no stray exception leaves Lean
                return responses.check_from_exception(exc)
            if responses.is_stale_env(raw) and attempt == 1:
                # The REPL lost an id we still mapped (a silent restart): rebuild from text.
                self._restart("unknown environment")
                continue
            return raw
        raise AssertionError("unreachable: the loop returns on its second attempt")

    def _prepare(self, context: LeanContext) -> int:
        """The session id of `context`, running only the part of the chain not yet cached."""
        if self._header is not None and self._header != context.header:
            self._restart("header changed")
        self._header = context.header
        if (cached := self._envs.get(context.key())) is not None:
            return cached
        done = 0
        env: int | None = None
        for i in range(len(context.accepted), -1, -1):
            prefix = LeanContext(header=context.header, accepted=context.accepted[:i])
            if (hit := self._envs.get(prefix.key())) is not None:
                done, env = i, hit
                break
        timeout = self.settings.prepare_timeout_s
        if env is None:
            key = LeanContext(header=context.header).key()
            header = ensure_heartbeats(context.header, self.settings.heartbeats)
            self._importing = True
            env = self._step(key, header, None, FailureCode.HEADER_FAILED, "the header", timeout)
            self._importing = False
        for i in range(done, len(context.accepted)):
            key = LeanContext(header=context.header, accepted=context.accepted[: i + 1]).key()
            what = f"accepted declaration {i + 1}"
            env = self._step(
                key, context.accepted[i], env, FailureCode.PRIOR_DECL_FAILED, what, timeout
            )
        return env

    def _step(
        self, key: str, text: str, env: int | None, code: FailureCode, what: str, timeout: float
    ) -> int:
        """Run one link of the chain and cache its id under the prefix `key`."""
        if (known := self._broken.get(key)) is not None:
            # Elaboration is deterministic: do not re-import Mathlib to fail the same way.
            raise _Failed(known)
        raw = self._backend.run(text, env, timeout_s=timeout, keep=True)
        if responses.is_stale_env(raw):
            raise _StaleEnv("the REPL lost the environment it was asked to extend")
        checked = responses.check_from_response(raw, text)
        new_env = raw.get("env")
        if checked.accepted and isinstance(new_env, int):
            self._envs[key] = new_env
            return new_env
        if isinstance(new_env, int):
            self._backend.forget(new_env)
        # Not the candidate's fault: the run cannot go on in this context (docs/lean-notes.md §6.1).
        failed = checked.model_copy(
            update={
                "outcome": Outcome.UNAVAILABLE,
                "code": code,
                "hint": f"{what} does not elaborate cleanly: {checked.hint}",
            }
        )
        self._broken[key] = failed
        raise _Failed(failed)

    def _housekeeping(self) -> None:
        self._calls += 1
        if self._calls % self.settings.restart_every == 0:
            self._restart("count")
            return
        limit = effective_memory_limit_mb(self.settings.memory_hard_limit_mb)
        if limit and self._backend.memory_mb() > self.settings.memory_budget_fraction * limit:
            self._restart("memory")

    def _restart(self, reason: str) -> None:
        try:
            rss = self._backend.memory_mb()
        except Exception:  # a dead process has no memory figure; the restart matters more
            rss = 0.0
        event = Restart(reason=reason, rss_mb=rss)
        self.restarts.append(event)
        log.info("restarting the Lean REPL: %s (rss %.0f MB)", reason, rss)
        if self.on_restart is not None:
            self.on_restart(event)
        self._envs.clear()
        try:
            self._backend.reset()
        except Exception as exc:  # the next run starts a fresh process anyway
            log.warning("resetting the Lean REPL failed: %r", exc)

    def _record(
        self,
        kind: str,
        context: LeanContext,
        text: str,
        raw: dict[str, Any] | None,
        failure: LeanCheck | None,
        *,
        names: Sequence[str] = (),
        declaration: str = "",
        all_tactics: bool = False,
    ) -> None:
        if self.recorder is None:
            return
        self.recorder(
            {
                "kind": kind,
                "declaration": declaration,
                "all_tactics": all_tactics,
                "context": context,
                "text": text,
                "names": list(names),
                "response": raw,
                "failure": None
                if failure is None
                else {"outcome": failure.outcome, "code": failure.code, "hint": failure.hint},
            }
        )


# --- lean-interact ----------------------------------------------------------------------------


def import_lean_interact() -> Any:
    """Import lean-interact with its side effects contained (docs/lean-notes.md §3.13)."""
    try:
        import lean_interact
    except OSError as exc:  # its import creates <package>/cache
        raise LeanSetupError(
            f"lean-interact cannot create its cache directory ({exc}). Install paperlint into "
            "a virtual environment you own."
        ) from exc
    # Its rich handler writes to stdout, which carries paperlint's JSON output.
    logger = logging.getLogger("lean_interact")
    logger.handlers = [logging.StreamHandler(sys.stderr)]
    logger.setLevel(logging.WARNING)
    logger.propagate = False
    return lean_interact


def preflight(paths: LeanPaths) -> None:
    """What lean-interact would only `assert` or log as a warning, checked loudly."""
    if read_toolchain(paths.project) is None:
        raise LeanSetupError(f"no lean-toolchain in {paths.project}; run `paperlint doctor`")
    if not paths.repl_binary.is_file():
        raise LeanSetupError(
            f"no REPL binary at {paths.repl_binary}; run `paperlint setup` on a networked "
            "machine (or set PAPERLINT_REPL_DIR)"
        )
    if read_toolchain(paths.repl_dir) != read_toolchain(paths.project):
        raise LeanSetupError(
            f"the REPL in {paths.repl_dir} is built for {read_toolchain(paths.repl_dir)}, the "
            f"project pins {read_toolchain(paths.project)}: .olean files would not load"
        )


def confined_lake(paths: LeanPaths, mode: Mode) -> str:
    """`lake` for lean-interact: a script running the real one inside bubblewrap, when the
    sandbox is active (lean-interact builds the `lake env repl` command itself)."""
    confined = sandbox.confinement(
        mode,
        readonly=[paths.project, paths.repl_dir, paths.cache, *sandbox.toolchain_dirs(paths.lake)],
        writable=[],
    )
    if confined is None:
        return paths.lake
    folder = Path(tempfile.mkdtemp(prefix="paperlint-sandbox-"))
    return str(sandbox.wrapper_script(confined, paths.lake, folder, cwd=paths.project))


class LeanInteractBackend:
    """`ReplBackend` over lean-interact's plain `LeanServer`, started on first use.

    Not `AutoLeanServer`: after its process dies it silently replays the header and every
    cached declaration with no timeout, and restarts on the host's (not the cgroup's) memory
    figure. Here a dead process raises (`ChildProcessError` from `LeanServer.run_dict`), so
    only `WarmVerifier`'s timed rebuild ever replays a context, and each restart is recorded.
    Env ids are the REPL's own; nothing is kept in a session cache."""

    def __init__(self, settings: WarmSettings) -> None:
        self._settings = settings
        self._server: LeanServer | None = None

    def _ensure(self) -> LeanServer:
        if self._server is not None:
            return self._server
        paths = self._settings.paths
        preflight(paths)
        li = import_lean_interact()
        lake = confined_lake(paths, self._settings.sandbox)
        config = li.LeanREPLConfig(
            project=li.LocalProject(directory=str(paths.project), auto_build=False, lake_path=lake),
            local_repl_path=str(paths.repl_dir),
            build_repl=False,  # built by `paperlint setup`; never implicitly, never offline
            lake_path=lake,
            # RLIMIT_AS (address space, .olean maps included); the cgroup's RSS limit is
            # honoured by the restart policy in `_housekeeping` instead.
            memory_hard_limit_mb=self._settings.memory_hard_limit_mb,
            cache_dir=str(paths.cache),
            enable_parallel_elaboration=False,  # lean4#7570; the final check matches (final.py)
            enable_incremental_optimization=self._settings.incremental,
            verbose=False,  # verbose paths print lake's output on our stdout
        )
        self._server = li.LeanServer(config)
        return self._server

    def run(
        self,
        cmd: str,
        env: int | None,
        *,
        timeout_s: float,
        keep: bool,
        all_tactics: bool = False,
        declarations: bool = False,
    ) -> dict[str, Any]:
        server = self._ensure()
        from lean_interact import Command
        from lean_interact.interface import LeanError

        # a plain LeanServer has no session cache: `keep` is honoured by our own rebuild
        response = server.run(
            Command(
                cmd=cmd,
                env=env,
                all_tactics=all_tactics or None,
                # the fork's DeclarationInfo list; the upstream REPL ignores the field
                declarations=declarations or None,
            ),
            timeout=timeout_s,
        )
        if isinstance(response, LeanError):
            return {"message": response.message}
        dumped: dict[str, Any] = response.model_dump(by_alias=True, exclude_none=True)
        return dumped

    def forget(self, env: int) -> None:
        return None  # the REPL keeps every env until the process ends (`restart_every`)

    def reset(self) -> None:
        if self._server is not None:
            server, self._server = self._server, None
            server.kill()  # the next `run` starts a fresh process

    def memory_mb(self) -> float:
        return float(self._server.get_memory_usage()) if self._server is not None else 0.0

    def close(self) -> None:
        self.reset()


# --- memory -----------------------------------------------------------------------------------

_CGROUP_V2 = Path("/sys/fs/cgroup/memory.max")
_CGROUP_V1 = Path("/sys/fs/cgroup/memory/memory.limit_in_bytes")


def cgroup_memory_limit_mb(
    files: Sequence[Path] = (_CGROUP_V2, _CGROUP_V1),
) -> int | None:
    """The memory limit of this process's cgroup (v2 `memory.max`, else v1), in MiB; None
    when there is none ("max", a v1 "unlimited" near 2**63, or no file)."""
    for path in files:
        try:
            text = path.read_text(encoding="ascii").strip()
        except (OSError, UnicodeDecodeError):
            continue
        if text == "max" or not text.isdigit():
            return None
        value = int(text)
        return None if value >= 1 << 60 else value // (1024 * 1024)
    return None


def effective_memory_limit_mb(configured: int | None) -> int | None:
    """The smaller of `[lean] memory_mb` and the cgroup's limit: a container's OOM killer
    acts on the cgroup, whatever the host has."""
    group = cgroup_memory_limit_mb()
    if configured is None:
        return group
    return min(configured, group) if group else configured
