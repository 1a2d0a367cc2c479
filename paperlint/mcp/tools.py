"""The one registry of verbs: read from the typer app, so the MCP tools cannot drift from the CLI.

Every command of `paperlint` is a tool unless `EXCLUDED` says why not; its input schema is
built from the command's own parameters (types, choices, defaults, help), and a call becomes
the same command line a person would type, run as `python -m paperlint …` in a subprocess
with `--format json` where the command has it. So a flag added to the CLI is a tool argument
at once, and the MCP side has no copy of any command's logic.

What a tool call returns (structured, with the same text as a fallback):

- `success`: the command ran and gave an answer (exit 0, 1 or 4). It is NOT the verdict or
  Lean's `ok`: a `lean scan` that finds a `sorry` succeeded (exit 1, findings listed).
- `exit_code` and `result` (the command's JSON output, when it printed JSON);
- on failure, `error`: a code (`usage`, `internal`, `interrupted`, `timeout`) and a one-line
  `hint`;
- output is bounded (`MAX_TEXT`, `MAX_JSON` characters): beyond it `truncated` is true and the
  hint says how to get the rest (`-o FILE`, `paperlint report`). Lines are 1-based, as
  paperlint's own diagnostics and records are.

`check` and `resume` can run for hours, so they start a job and return its id at once;
`job_status` polls it (state, elapsed, the progress lines so far, the result when done).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Final, get_args, get_origin

EXCLUDED: Final[dict[str, str]] = {
    "setup": "installs a toolchain over the network; a person runs it once",
    "mcp": "the server itself",
}
JOBS: Final = frozenset({"check", "resume"})
# What each tool does to the user's files (MCP tool annotations: a client may run a read-only
# tool unasked and must confirm a destructive one). Every verb is listed (tests/mcp): a new
# command has to say which it is.
READ_ONLY: Final = "read-only"  # reads only (Lean may run; nothing is written)
WRITES: Final = "writes"  # adds or updates records, reports or the library; removes nothing
DESTRUCTIVE: Final = "destructive"  # may replace or remove what exists (`--fresh`, a reset)
EFFECTS: Final[dict[str, str]] = {
    "status": READ_ONLY,
    "config": READ_ONLY,
    "doctor": READ_ONLY,
    "preflight": READ_ONLY,
    "validate": READ_ONLY,
    "replay": READ_ONLY,
    "lean scan": READ_ONLY,
    "lean search": READ_ONLY,
    "lean goals": READ_ONLY,
    "library list": READ_ONLY,
    "library show": READ_ONLY,
    "library candidates": READ_ONLY,
    "runs choose": READ_ONLY,
    "report": WRITES,
    "resume": WRITES,
    "runs add": WRITES,
    "library promote": WRITES,
    "migrate": WRITES,
    "check": DESTRUCTIVE,  # --fresh replaces an earlier check
    "batch": DESTRUCTIVE,  # --fresh too
    "revise": DESTRUCTIVE,  # resets results (a snapshot keeps them; `--undo`)
    "library remove": DESTRUCTIVE,
}
MAX_TEXT: Final = 16_000
MAX_JSON: Final = 200_000
TIMEOUT_S: Final = 600.0
EXIT_ERRORS: Final = {2: "usage", 3: "internal", 130: "interrupted"}
_TEXT: Final = "text"  # the default of a text-or-json `--format` (paperlint.cli.plain.Format)


@dataclass(frozen=True)
class Param:
    name: str
    flag: str | None  # None: a positional argument
    schema: dict[str, Any]
    required: bool
    is_flag: bool = False
    negative: str | None = None  # `--no-x` of a boolean with a secondary option


@dataclass(frozen=True)
class Verb:
    name: str  # the tool's name: the command path joined by `_` (`lean_scan`)
    path: tuple[str, ...]  # the command path (`("lean", "scan")`)
    description: str
    params: tuple[Param, ...]
    has_format: bool
    job: bool
    effect: str = WRITES  # READ_ONLY, WRITES or DESTRUCTIVE (EFFECTS)

    def input_schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {p.name: p.schema for p in self.params},
            "required": [p.name for p in self.params if p.required],
            "additionalProperties": False,
        }

    def argv(self, arguments: dict[str, Any]) -> list[str]:
        """The command line for `arguments` (validated against the schema's names)."""
        known = {p.name for p in self.params}
        unknown = sorted(set(arguments) - known)
        if unknown:
            raise ValueError(f"unknown argument(s) {', '.join(unknown)} for {self.name}")
        argv = list(self.path)
        for param in self.params:
            value = arguments.get(param.name)
            if value is None:
                if param.required:
                    raise ValueError(f"missing required argument {param.name!r}")
                continue
            if param.flag is None:
                argv += [str(v) for v in value] if isinstance(value, list) else [str(value)]
            elif param.is_flag:
                if value:
                    argv.append(param.flag)
                elif param.negative:
                    argv.append(param.negative)
            else:
                argv += [param.flag, str(value)]
        if self.has_format:
            argv += ["--format", "json"]
        return argv


def _schema(annotation: Any, help_text: str, default: Any) -> dict[str, Any]:
    if get_origin(annotation) is not None and type(None) in get_args(annotation):
        annotation = next(a for a in get_args(annotation) if a is not type(None))
    schema: dict[str, Any]
    if get_origin(annotation) is list:
        schema = {"type": "array", "items": {"type": "string"}}
    elif annotation is bool:
        schema = {"type": "boolean"}
    elif annotation is int:
        schema = {"type": "integer"}
    elif annotation is float:
        schema = {"type": "number"}
    elif isinstance(annotation, type) and issubclass(annotation, Enum):
        schema = {"type": "string", "enum": [str(m.value) for m in annotation]}
    else:
        schema = {"type": "string"}
    if help_text:
        schema["description"] = " ".join(help_text.split())
    if default is not None and not isinstance(default, Enum) and default != ():
        schema["default"] = default
    return schema


def _params(command: Any) -> tuple[tuple[Param, ...], bool]:
    params: list[Param] = []
    has_format = False
    for p in command.params:
        if p.name in ("help",):
            continue
        if "--format" in (p.opts or []) and p.default in (_TEXT, "text"):
            has_format = True  # text or json: always json through MCP, the structured output
            continue
        annotation = p.type_descriptor.annotation
        schema = _schema(annotation, p.help or "", p.default)
        if "--format" in (p.opts or []):  # a format of the command's own (`report`'s md, html…)
            params.append(Param("format", "--format", schema, bool(p.required)))
            continue
        if p.param_type_name == "argument":
            params.append(Param(p.name, None, schema, bool(p.required)))
            continue
        long = next((o for o in p.opts if o.startswith("--")), p.opts[0])
        negative = p.secondary_opts[0] if p.secondary_opts else None
        params.append(
            Param(
                p.name, long, schema, bool(p.required), bool(getattr(p, "is_flag", False)), negative
            )
        )
    return tuple(params), has_format


def registry(root: Any) -> dict[str, Verb]:
    """Every command of the CLI's root (click) command as a Verb, by tool name; the CLI hands
    itself in (`paperlint.cli.mcp_cmd.verbs`), so this package never imports it."""
    verbs: dict[str, Verb] = {}

    def walk(command: Any, path: tuple[str, ...]) -> None:
        subcommands = getattr(command, "commands", None)
        if subcommands:
            for name, sub in subcommands.items():
                walk(sub, (*path, name))
            return
        if " ".join(path) in EXCLUDED:
            return
        params, has_format = _params(command)
        doc = (command.help or "").strip()
        name = "_".join(path)
        job = " ".join(path) in JOBS
        if job:
            doc += " Starts a job: poll it with job_status."
        effect = EFFECTS.get(" ".join(path), WRITES)
        verbs[name] = Verb(name, path, doc, params, has_format, job, effect)

    walk(root, ())
    return verbs


# ----------------------------------------------------------------------------------- calls


def _command(argv: list[str]) -> list[str]:
    return [sys.executable, "-m", "paperlint", *argv]


def outcome(
    exit_code: int | None, stdout: str, stderr: str, *, timed_out: bool = False
) -> dict[str, Any]:
    """The structured answer to a call (pure: tested without a subprocess)."""
    out: dict[str, Any] = {"success": False, "exit_code": exit_code, "truncated": False}
    if timed_out:
        out["error"] = {"code": "timeout", "hint": f"the call took over {TIMEOUT_S:.0f} s"}
        return out
    result: Any = None
    text = stdout.strip()
    if text.startswith(("{", "[")):
        try:
            result = json.loads(text)
        except json.JSONDecodeError:
            result = None
    if result is not None and len(text) > MAX_JSON:
        result = None
        out["truncated"] = True
        out["hint"] = "the JSON is too large to return: write it to a file (-o FILE) and read it"
    out["result"] = result
    out["stderr"] = _bounded(stderr)
    if exit_code in EXIT_ERRORS:
        out["error"] = {"code": EXIT_ERRORS[exit_code], "hint": _hint(stderr)}
    else:
        out["success"] = exit_code is not None
    return out


def _bounded(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 40] + "\n… (cut; output bounded)"


def _hint(stderr: str) -> str:
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for line in lines:
        if line.startswith("hint:"):
            return line.removeprefix("hint:").strip()
    return lines[-1][:300] if lines else "no message"


def call(verb: Verb, arguments: dict[str, Any], *, cwd: Path | None = None) -> dict[str, Any]:
    """Run one verb to completion (not for jobs)."""
    try:
        argv = verb.argv(arguments)
    except ValueError as exc:
        return {"success": False, "exit_code": None, "truncated": False,
                "error": {"code": "usage", "hint": str(exc)}}  # fmt: skip
    try:
        proc = subprocess.run(
            _command(argv), capture_output=True, text=True, timeout=TIMEOUT_S, cwd=cwd,
            stdin=subprocess.DEVNULL, check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return outcome(None, "", "", timed_out=True)
    return outcome(proc.returncode, proc.stdout, proc.stderr)


@dataclass
class Job:
    id: str
    argv: list[str]
    process: subprocess.Popen[str]
    stdout: Path
    stderr: Path
    started: float = field(default_factory=time.monotonic)

    def status(self) -> dict[str, Any]:
        code = self.process.poll()
        out: dict[str, Any] = {
            "job_id": self.id,
            "command": " ".join(["paperlint", *self.argv]),
            "state": "running" if code is None else "done",
            "elapsed_s": round(time.monotonic() - self.started, 1),
        }
        err = self.stderr.read_text(encoding="utf-8", errors="replace")
        if code is None:
            out["progress"] = _bounded("\n".join(err.splitlines()[-20:]))
            return out
        out.update(outcome(code, self.stdout.read_text(encoding="utf-8"), err))
        return out


class Jobs:
    """Background checks, polled by id; each job's output goes to files, never to our stdout."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder or Path(tempfile.mkdtemp(prefix="paperlint-mcp-"))
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()

    def start(self, verb: Verb, arguments: dict[str, Any]) -> dict[str, Any]:
        try:
            argv = verb.argv(arguments)
        except ValueError as exc:
            return {"success": False, "error": {"code": "usage", "hint": str(exc)}}
        job_id = uuid.uuid4().hex[:12]
        stdout, stderr = self.folder / f"{job_id}.out", self.folder / f"{job_id}.err"
        with stdout.open("w") as out, stderr.open("w") as err:
            env = {**os.environ, "NO_COLOR": "1"}
            process = subprocess.Popen(
                _command(argv),  # not a terminal: progress comes as plain lines, polled
                stdout=out, stderr=err, stdin=subprocess.DEVNULL, text=True, env=env,
            )  # fmt: skip
        with self._lock:
            self._jobs[job_id] = Job(job_id, argv, process, stdout, stderr)
        return {"success": True, "job_id": job_id, "state": "running"}

    def status(self, job_id: str) -> dict[str, Any]:
        with self._lock:
            job = self._jobs.get(job_id)
        if job is None:
            known = ", ".join(self._jobs) or "none"
            return {"success": False, "error": {"code": "unknown_job", "hint": f"jobs: {known}"}}
        return job.status()

    def close(self) -> None:
        for job in self._jobs.values():
            if job.process.poll() is None:
                job.process.terminate()
