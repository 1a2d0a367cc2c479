"""Every Lean process paperlint starts runs confined: bubblewrap, no network, few files.

Model-written Lean is refused before Lean sees it when it holds meta-level code, but the scan is
a filter, not a proof: code that slipped through would run with the user's rights while Lean
elaborates. So the warm REPL, the final `lake env lean`, the probes and `replay` start Lean
inside bubblewrap (Debian `bubblewrap`): every namespace unshared (no network), the system
directories, the toolchain, the Lake project and the REPL read-only, only a scratch folder
writable, a fresh `/tmp`, and an environment cleared to a few variables (so no secret in an
environment variable can be printed into a diagnostic). The memory and time limits stay.

Each confined process's home is its own fresh `/tmp` (`SANDBOX_HOME`: a tmpfs that bubblewrap
mounts for that process alone and that vanishes with it), never a folder of the host: binding
the host's `/tmp` as the home, as paperlint once did, made the host's real `/tmp` writable to
every Lean process. The only host folders a process may write are the ones its caller names.

`[lean] sandbox`: "auto" (the default: confine when bubblewrap works, say so when it does not),
"required" (refuse to start Lean without it) or "off". `paperlint doctor` reports which.
Command construction is pure (`bwrap_argv`); `probe` runs `/bin/true` under the real bwrap
once, because inside some containers bubblewrap exists but cannot create namespaces.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Literal

from paperlint.errors import LeanSetupError

Mode = Literal["auto", "required", "off"]
MODES: tuple[Mode, ...] = ("auto", "required", "off")
# Mounted read-only when they exist (as symlinks when they are symlinks, as on merged-/usr).
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
SYSTEM_FILES = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/localtime", "/etc/nsswitch.conf")
KEPT_ENV = ("PATH", "LANG", "LC_ALL", "ELAN_HOME", "LEAN_PATH", "LEAN_SRC_PATH", "LAKE_HOME")
SANDBOX_HOME = "/tmp"  # inside the sandbox: its own tmpfs (`--tmpfs /tmp` in `bwrap_argv`)
INSTALL_HINT = "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap)"


@dataclass(frozen=True)
class SandboxStatus:
    """Whether Lean runs confined on this machine, and why not."""

    active: bool
    mode: Mode
    detail: str  # the bwrap path, or why the sandbox is unavailable
    bwrap: str | None = None


@dataclass(frozen=True)
class Confinement:
    """What one confined Lean process may see: read-only paths, writable paths, its folder."""

    bwrap: str
    readonly: tuple[Path, ...] = ()
    writable: tuple[Path, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)

    def argv(self, command: Sequence[str], *, cwd: Path) -> list[str]:
        return bwrap_argv(
            self.bwrap,
            command,
            readonly=self.readonly,
            writable=self.writable,
            cwd=cwd,
            env=self.env,
        )


def bwrap_argv(
    bwrap: str,
    command: Sequence[str],
    *,
    readonly: Sequence[Path],
    writable: Sequence[Path],
    cwd: Path,
    env: Mapping[str, str],
    system_dirs: Sequence[str] = SYSTEM_DIRS,
    system_files: Sequence[str] = SYSTEM_FILES,
) -> list[str]:
    """The bubblewrap command line that runs `command` confined (pure; paths as given)."""
    argv = [bwrap, "--unshare-all", "--die-with-parent", "--new-session", "--clearenv"]
    for name in system_dirs:
        path = Path(name)
        if path.is_symlink():
            argv += ["--symlink", os.readlink(path), name]
        else:
            argv += ["--ro-bind-try", name, name]
    for name in system_files:
        argv += ["--ro-bind-try", name, name]
    argv += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    for path in _unique(readonly):
        argv += ["--ro-bind", str(path), str(path)]
    for path in _unique(writable):  # after the read-only ones: a scratch inside them wins
        argv += ["--bind", str(path), str(path)]
    for key, value in sorted(env.items()):
        argv += ["--setenv", key, value]
    argv += ["--chdir", str(cwd), "--", *command]
    return argv


def _unique(paths: Sequence[Path]) -> list[Path]:
    return list(dict.fromkeys(p for p in paths if str(p)))


def kept_env(environ: Mapping[str, str]) -> dict[str, str]:
    """The few variables Lean and elan need; everything else (tokens, keys) stays outside.

    The home is the sandbox's own `/tmp`. elan finds its toolchains through `$ELAN_HOME`,
    else `$HOME/.elan`: with the home moved, the host's elan folder is named explicitly."""
    env = {key: environ[key] for key in KEPT_ENV if key in environ}
    env["HOME"] = SANDBOX_HOME
    elan = elan_home(environ)
    if "ELAN_HOME" not in env and elan.is_dir():
        env["ELAN_HOME"] = str(elan.resolve())
    return env


def elan_home(environ: Mapping[str, str]) -> Path:
    """Where elan keeps its toolchains: `$ELAN_HOME`, else `$HOME/.elan` (of the host)."""
    if environ.get("ELAN_HOME"):
        return Path(environ["ELAN_HOME"])
    return Path(environ.get("HOME") or Path.home()) / ".elan"


@lru_cache(maxsize=4)
def probe(bwrap: str | None) -> tuple[bool, str]:
    """Whether bubblewrap can confine a process here: run `/bin/true` under it once."""
    if bwrap is None:
        return False, f"bubblewrap is not installed; {INSTALL_HINT}"
    argv = bwrap_argv(bwrap, ["/bin/true"], readonly=(), writable=(), cwd=Path("/"), env={})
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return False, f"bubblewrap could not run: {exc}"
    if done.returncode != 0:
        why = (done.stderr or done.stdout).strip().splitlines()[-1:] or [f"exit {done.returncode}"]
        return False, f"bubblewrap cannot create namespaces here: {why[0][:200]}"
    return True, bwrap


def sandbox_status(mode: Mode = "auto", *, bwrap: str | None = None) -> SandboxStatus:
    if mode == "off":
        return SandboxStatus(False, mode, 'switched off ([lean] sandbox = "off")')
    found = bwrap or shutil.which("bwrap")
    ok, detail = probe(found)
    return SandboxStatus(ok, mode, detail, found if ok else None)


def confinement(
    mode: Mode,
    *,
    readonly: Sequence[Path],
    writable: Sequence[Path],
    environ: Mapping[str, str] | None = None,
) -> Confinement | None:
    """The confinement to start Lean with; None when off or unavailable in "auto" mode.

    `writable` are the only host folders the process may write; its home is its own fresh
    `/tmp` (`SANDBOX_HOME`). Raises LeanSetupError when the mode is "required" and
    bubblewrap cannot confine here.
    """
    status = sandbox_status(mode)
    if not status.active or status.bwrap is None:
        if mode == "required":
            raise LeanSetupError(
                f'[lean] sandbox = "required", but {status.detail}; Lean was not started'
            )
        return None
    env = kept_env(environ if environ is not None else os.environ)
    return Confinement(status.bwrap, tuple(readonly), tuple(writable), env)


def toolchain_dirs(lake: str, environ: Mapping[str, str] | None = None) -> list[Path]:
    """Where the toolchain lives: elan's home, and the installation `lake` resolves into."""
    environ = environ if environ is not None else os.environ
    found: list[Path] = []
    elan = elan_home(environ)
    if elan.is_dir():
        found.append(elan.resolve())
    real = shutil.which(lake) or lake
    if Path(real).is_absolute():
        found.append(Path(real).resolve().parent.parent)
    return found


def wrapper_script(confined: Confinement, real: str, folder: Path, *, cwd: Path) -> Path:
    """An executable that runs `real` with its arguments inside the confinement.

    lean-interact starts `lake env repl` itself; it is given this script as its `lake`.
    """
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "lake-sandboxed"
    argv = confined.argv([real], cwd=cwd)
    script.write_text("#!/bin/sh\nexec " + shlex.join(argv) + ' "$@"\n', encoding="utf-8")
    script.chmod(0o700)
    return script
