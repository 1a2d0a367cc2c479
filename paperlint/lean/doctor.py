"""`paperlint doctor`: is every piece a real check needs present? (docs/lean-notes.md §8.2)

One line per piece: what was found and the exact command that fixes it. Read-only and offline:
nothing is imported that has side effects (`find_spec`, not `import`), nothing is downloaded,
and `lake` runs only with a short timeout in `lean-project/`. Exit 0 only when a real check
could run; optional pieces (TeX) are reported but do not change that.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from paperlint.lean.pins import (
    MATHLIB_REV_EXPECTED,
    TOOLCHAIN_PREFIX,
    LeanPaths,
    Pins,
    build_dir,
    is_bundled,
    project_origin,
    read_pins,
    read_toolchain,
)

PACKAGES = (
    "typer",
    "pylatexenc",
    "pdfminer",
    "pydantic",
    "lean_interact",
    "litellm",
    "jinja2",
    "networkx",
)
# litellm's provider prefixes and the environment variable each reads by default.
PROVIDER_KEYS: dict[str, str] = {
    "anthropic": "ANTHROPIC_API_KEY",
    "openai": "OPENAI_API_KEY",
    "gemini": "GEMINI_API_KEY",
    "mistral": "MISTRAL_API_KEY",
    "deepseek": "DEEPSEEK_API_KEY",
    "openrouter": "OPENROUTER_API_KEY",
    "groq": "GROQ_API_KEY",
    "xai": "XAI_API_KEY",
    "together_ai": "TOGETHERAI_API_KEY",
    "azure": "AZURE_API_KEY",
}
_LOCAL_PROVIDERS = ("ollama", "ollama_chat", "paperlint-replay", "hosted_vllm")
_RELEASE = re.compile(r"leanprover/lean4:v4\.\d+\.\d+$")
_LAKE_LEAN_VERSION = re.compile(r"Lean \(?version (?P<v>[0-9][^\s,)]*)")


@dataclass(frozen=True)
class DoctorCheck:
    name: str
    ok: bool
    found: str
    fix: str = ""
    required: bool = True

    def line(self) -> str:
        status = "OK  " if self.ok else ("MISS" if self.required else "opt ")
        text = f"[{status}] {self.name}: {self.found}"
        return text if self.ok or not self.fix else f"{text}\n         fix: {self.fix}"


@dataclass(frozen=True)
class Report:
    checks: tuple[DoctorCheck, ...]
    pins: Mapping[str, str | None]

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks if c.required)

    def missing(self) -> list[DoctorCheck]:
        return [c for c in self.checks if c.required and not c.ok]

    def to_json(self) -> dict[str, object]:
        return {
            "ok": self.ok,
            "checks": [asdict(c) for c in self.checks],
            "pins": dict(self.pins),
        }

    def text(self) -> str:
        lines = [c.line() for c in self.checks]
        pins = ", ".join(f"{k}={v}" for k, v in self.pins.items() if v)
        lines.append(f"pins: {pins}")
        verdict = (
            "ready: a real check can run"
            if self.ok
            else f"not ready: {len(self.missing())} missing piece(s): "
            + ", ".join(c.name for c in self.missing())
        )
        lines.append(verdict)
        return "\n".join(lines)


# --- Python ---------------------------------------------------------------------------------


def python_checks() -> list[DoctorCheck]:
    checks = []
    for name in PACKAGES:
        spec = importlib.util.find_spec(name)
        dist = "pdfminer.six" if name == "pdfminer" else name.replace("_", "-")
        checks.append(
            DoctorCheck(
                f"python: {name}",
                spec is not None,
                "importable" if spec else "not installed",
                f"pip install -e . (or pip install {dist})",
            )
        )
    spec = importlib.util.find_spec("lean_interact")
    if spec is not None and spec.origin:
        # Its import runs os.makedirs(<package dir>/cache): a read-only site-packages breaks it.
        folder = Path(spec.origin).parent
        writable = (folder / "cache").is_dir() or os.access(folder, os.W_OK)
        checks.append(
            DoctorCheck(
                "python: lean_interact cache directory",
                writable,
                f"{folder} writable" if writable else f"{folder} is read-only",
                "install paperlint into a virtual environment you own",
            )
        )
    return checks


def tex_checks() -> list[DoctorCheck]:
    found = shutil.which("latexmk")
    return [
        DoctorCheck(
            "tex: latexmk (optional: compiled-PDF cross-checks)",
            found is not None,
            found or "not on PATH",
            "apt-get install latexmk texlive-latex-recommended",
            required=False,
        )
    ]


# --- Lean -----------------------------------------------------------------------------------


def sandbox_check(mode: str = "auto") -> DoctorCheck:
    """Whether every Lean process would run inside bubblewrap (sandbox.py)."""
    from paperlint.lean.sandbox import INSTALL_HINT, MODES, sandbox_status

    status = sandbox_status(next((m for m in MODES if m == mode), "auto"))
    found = f"active ({status.detail})" if status.active else f"not active: {status.detail}"
    return DoctorCheck(
        f"lean: sandbox (bubblewrap, [lean] sandbox = {mode!r})",
        status.active,
        found,
        INSTALL_HINT if status.bwrap is None and mode != "off" else "",
        required=mode == "required",
    )


def _run(cmd: Sequence[str], cwd: Path, timeout_s: float = 20.0) -> tuple[int | None, str]:
    try:
        done = subprocess.run(
            list(cmd),
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=timeout_s,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, str(exc)
    return done.returncode, (done.stdout + done.stderr).strip()


def _lake_found(paths: LeanPaths) -> str | None:
    return shutil.which(paths.lake)


def _toolchain_check(paths: LeanPaths, pins: Pins, lake: str | None) -> DoctorCheck:
    name = "lean: toolchain installed"
    want = pins.toolchain or "the pinned toolchain (lean-toolchain is missing)"
    fix = (
        f"elan toolchain install {want} (on a networked machine), or "
        f"elan toolchain link {pins.lean_version} <dir-of-extracted-toolchain>"
    )
    elan_home = Path(os.environ.get("ELAN_HOME", Path.home() / ".elan"))
    folder = elan_home / "toolchains" / want.replace("/", "--").replace(":", "---")
    if lake is None:
        return DoctorCheck(name, False, f"{want}: cannot ask, no lake", fix)
    if folder.is_dir() and lake.startswith(str(folder)):
        return DoctorCheck(name, True, f"{want} at {folder}")
    # Not the elan layout: ask lake which Lean it belongs to, from inside the project.
    code, out = _run([lake, "--version"], paths.project)
    match = _LAKE_LEAN_VERSION.search(out)
    have = match["v"] if match else None
    ok = code == 0 and have is not None and f"v{have}" == pins.lean_version
    return DoctorCheck(name, ok, f"lake reports Lean {have or out[:120]!r}; pin {want}", fix)


def _in_project(project: Path, command: str) -> str:
    """The fix for a step run inside the project; the bundled copy is read-only, so there
    the fix is `setup`, which copies it to the user's folder first."""
    if is_bundled(project):
        return f"paperlint setup   (copies the project to {build_dir(project)}, then: {command})"
    return f"cd {project} && {command}"


def lean_checks(paths: LeanPaths) -> list[DoctorCheck]:
    pins = read_pins(paths.project)
    project = paths.project
    exists = (project / "lakefile.toml").is_file()
    checks = [
        DoctorCheck(
            "lean: Lake project",
            exists,
            f"{project} ({project_origin(project)})"
            if exists
            else f"no lakefile.toml in {project}",
            "reinstall paperlint (the wheel bundles the project), or set [lean] project_dir",
        ),
        DoctorCheck(
            "lean: lean-project/lean-toolchain pins a v4 release",
            bool(pins.toolchain and _RELEASE.match(pins.toolchain)),
            f"{pins.toolchain} in {project}" if pins.toolchain else f"missing in {project}",
            f"write `{TOOLCHAIN_PREFIX}v4.X.Y` into {project}/lean-toolchain",
        ),
    ]
    elan = shutil.which("elan")
    checks.append(
        DoctorCheck(
            "lean: elan",
            elan is not None,
            elan or "not on PATH",
            "install elan from your package manager (Debian/Ubuntu: apt-get install elan) or "
            "from https://github.com/leanprover/elan/releases; then `paperlint setup`",
            required=False,  # a toolchain's own `lake` works without the elan proxy
        )
    )
    lake = _lake_found(paths)
    checks.append(
        DoctorCheck(
            "lean: lake",
            lake is not None,
            lake or f"no `{paths.lake}` on PATH",
            f"elan toolchain install {pins.toolchain or '<the pin in lean-toolchain>'} "
            "(networked machine), or set PAPERLINT_LAKE",
        )
    )
    checks.append(_toolchain_check(paths, pins, lake))
    rev = pins.mathlib_rev
    checks.append(
        DoctorCheck(
            "lean: lake-manifest.json (mathlib resolved)",
            rev is not None,
            (
                f"mathlib {pins.mathlib_tag} -> {rev}"
                + ("" if rev == MATHLIB_REV_EXPECTED else f" (expected {MATHLIB_REV_EXPECTED})")
            )
            if rev
            else "missing: `lake update` has not run",
            _in_project(project, "lake update   (or: paperlint setup)"),
        )
    )
    mathlib = project / ".lake" / "packages" / "mathlib"
    built = mathlib / ".lake" / "build" / "lib" / "lean" / "Mathlib.olean"
    checks.append(
        DoctorCheck(
            "lean: Mathlib built",
            built.is_file(),
            str(built) if built.is_file() else f"no {built}",
            _in_project(project, "lake exe cache get && lake build   (needs network)"),
        )
    )
    own = project / ".lake" / "build" / "lib" / "lean" / "PaperlintLean.olean"
    checks.append(
        DoctorCheck(
            "lean: lean-project built",
            own.is_file(),
            str(own) if own.is_file() else f"no {own}",
            _in_project(project, "lake build"),
        )
    )
    checks.append(checker_check(paths))
    checks.append(repl_check(paths, pins))
    return checks


def checker_check(paths: LeanPaths) -> DoctorCheck:
    """The trusted checker every verified verdict rests on (issue #25, docs/checker.md)."""
    binary = paths.checker_binary
    ok = binary.is_file() and os.access(binary, os.X_OK)
    return DoctorCheck(
        "lean: trusted checker built",
        ok,
        str(binary) if ok else f"no {binary}",
        _in_project(paths.project, "lake build paperlint_checker   (or: paperlint setup)"),
    )


def repl_check(paths: LeanPaths, pins: Pins) -> DoctorCheck:
    name = "lean: REPL built with the same toolchain"
    fix = (
        "paperlint setup   (networked machine: clones the fork at "
        f"{pins.repl_tag} into {paths.repl_dir} and runs `lake build`), "
        "or set PAPERLINT_REPL_DIR / [lean] repl_dir"
    )
    binary = paths.repl_binary
    if not (binary.is_file() and os.access(binary, os.X_OK)):
        return DoctorCheck(name, False, f"no REPL binary at {binary}", fix)
    theirs = read_toolchain(paths.repl_dir)
    if theirs != pins.toolchain:
        built = theirs or "an unknown toolchain (no lean-toolchain beside it)"
        pinned = pins.toolchain or "nothing (lean-toolchain is missing)"
        return DoctorCheck(name, False, f"REPL built for {built}, project pins {pinned}", fix)
    return DoctorCheck(name, True, f"{binary} ({theirs})")


# --- models ---------------------------------------------------------------------------------


def provider_key(model: str) -> str | None:
    """The API-key variable litellm reads for `model`; None when none is needed."""
    prefix = model.split("/", 1)[0] if "/" in model else ""
    if prefix in _LOCAL_PROVIDERS:
        return None
    if prefix in PROVIDER_KEYS:
        return PROVIDER_KEYS[prefix]
    if model.startswith("claude"):
        return PROVIDER_KEYS["anthropic"]
    if model.startswith(("gpt-", "o1", "o3", "o4", "chatgpt")):
        return PROVIDER_KEYS["openai"]
    if model.startswith("gemini"):
        return PROVIDER_KEYS["gemini"]
    return None


def model_checks(models: Mapping[str, Sequence[str]]) -> list[DoctorCheck]:
    """Whether each configured role's key is set; only presence is ever printed."""
    configured = {role: list(ms) for role, ms in models.items() if ms}
    if not configured:
        present = [v for v in PROVIDER_KEYS.values() if os.environ.get(v)]
        return [
            DoctorCheck(
                "models: configured roles",
                False,
                "no model configured"
                + (f" (keys present: {', '.join(present)})" if present else ""),
                "set [models] in paperlint.toml, e.g. prover = ['anthropic/claude-...']",
            )
        ]
    checks = []
    for role, ms in configured.items():
        for model in ms:
            var = provider_key(model)
            ok = var is None or bool(os.environ.get(var))
            found = "no key needed" if var is None else f"{var} {'set' if ok else 'not set'}"
            checks.append(
                DoctorCheck(
                    f"models: {role} ({model})", ok, found, f"export {var}=..." if var else ""
                )
            )
    return checks


# --- together -------------------------------------------------------------------------------


def run_doctor(
    paths: LeanPaths, models: Mapping[str, Sequence[str]], *, sandbox: str = "auto"
) -> Report:
    checks = [*python_checks(), *tex_checks(), *lean_checks(paths), sandbox_check(sandbox)]
    checks += model_checks(models)
    return Report(checks=tuple(checks), pins=read_pins(paths.project).summary())


def lean_ready(paths: LeanPaths) -> tuple[bool, str]:
    """Whether the warm verifier can start; else the doctor's reasons, one sentence each."""
    python = [c for c in python_checks() if c.name.startswith("python: lean_interact")]
    checks = [c for c in (*python, *lean_checks(paths)) if c.required and not c.ok]
    if not checks:
        return True, ""
    reasons = "; ".join(f"{c.name}: {c.found}" for c in checks)
    return False, f"Lean is not set up ({reasons}). Run `paperlint doctor` for the fixes."
