"""The version pins of the Lean edge, and where the Lean pieces live on disk.

This is the one module that reads the pins: the toolchain from `lean-project/lean-toolchain`,
the Mathlib tag from `lean-project/lakefile.toml`, the resolved Mathlib commit from
`lean-project/lake-manifest.json` (written by `lake update`, so absent until `paperlint setup`
ran), and the REPL fork tag, which lean-interact derives from its REPL version and the
toolchain. Reports print `Pins.summary()`; nothing else hard-codes a version.
"""

from __future__ import annotations

import json
import os
import shutil
import tomllib
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

# lean-interact 0.11.6 asks for the fork's `v1.3.19` family (`DEFAULT_REPL_VERSION`); the tag
# for a toolchain is f"{REPL_VERSION}_lean-toolchain-{lean_version}" (docs/lean-notes.md §13.2).
REPL_GIT_URL = "https://github.com/augustepoiroux/repl"
REPL_VERSION = "v1.3.19"
LEAN_INTERACT_PIN = "0.11.6"
# What mathlib's `v4.35.0` tag resolved to in a downstream manifest (docs/lean-notes.md §13.1).
# Only a cross-check: the manifest written by `lake update` is the authority once it exists.
MATHLIB_REV_EXPECTED = "56a005855ea17e0b0958f73ec801ae140b0a1679"
TOOLCHAIN_PREFIX = "leanprover/lean4:"
CHECKER_EXE = "paperlint_checker"  # the `lean_exe` of lean-project/lakefile.toml

_ENV_PROJECT = "PAPERLINT_LEAN_PROJECT"
_ENV_CACHE = "PAPERLINT_LEAN_CACHE"
_ENV_REPL = "PAPERLINT_REPL_DIR"
_ENV_LAKE = "PAPERLINT_LAKE"


@dataclass(frozen=True)
class Pins:
    toolchain: str | None  # e.g. "leanprover/lean4:v4.35.0"; None when the file is missing
    mathlib_tag: str | None  # the lakefile's `rev`
    mathlib_rev: str | None  # the manifest's resolved commit; None before `lake update`
    lean_interact_installed: str | None

    @property
    def lean_version(self) -> str | None:
        if self.toolchain is None:
            return None
        return self.toolchain.removeprefix(TOOLCHAIN_PREFIX)

    @property
    def repl_tag(self) -> str | None:
        version = self.lean_version
        return f"{REPL_VERSION}_lean-toolchain-{version}" if version else None

    def summary(self) -> dict[str, str | None]:
        """The pins as a report prints them."""
        return {
            "toolchain": self.toolchain,
            "mathlib_tag": self.mathlib_tag,
            "mathlib_rev": self.mathlib_rev,
            "mathlib_rev_expected": MATHLIB_REV_EXPECTED,
            "lean_interact": self.lean_interact_installed,
            "lean_interact_pin": LEAN_INTERACT_PIN,
            "repl_git": REPL_GIT_URL,
            "repl_tag": self.repl_tag,
        }


def read_toolchain(project: Path) -> str | None:
    try:
        text = (project / "lean-toolchain").read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return text or None


def read_mathlib_tag(project: Path) -> str | None:
    try:
        config = tomllib.loads((project / "lakefile.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return None
    for req in config.get("require", []):
        if isinstance(req, dict) and req.get("name") == "mathlib":
            rev = req.get("rev")
            return str(rev) if rev is not None else None
    return None


def read_manifest_rev(project: Path, package: str = "mathlib") -> str | None:
    try:
        manifest = json.loads((project / "lake-manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    for pkg in manifest.get("packages", []):
        if isinstance(pkg, dict) and pkg.get("name") == package:
            rev = pkg.get("rev")
            return str(rev) if rev is not None else None
    return None


def installed_version(dist: str) -> str | None:
    # importlib.metadata, not `import lean_interact`: that import creates a directory.
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def read_pins(project: Path) -> Pins:
    return Pins(
        toolchain=read_toolchain(project),
        mathlib_tag=read_mathlib_tag(project),
        mathlib_rev=read_manifest_rev(project),
        lean_interact_installed=installed_version("lean-interact"),
    )


@dataclass(frozen=True)
class LeanPaths:
    """Where the Lake project, lean-interact's cache, the REPL and `lake` are."""

    project: Path
    cache: Path
    repl_dir: Path
    lake: str  # an absolute path when found, else the bare name "lake"

    @property
    def repl_binary(self) -> Path:
        # Hard-coded in lean-interact's LeanServer.start.
        return self.repl_dir / ".lake" / "build" / "bin" / "repl"

    @property
    def checker_binary(self) -> Path:
        """The trusted checker `lake build paperlint_checker` writes (docs/checker.md)."""
        return self.project / ".lake" / "build" / "bin" / CHECKER_EXE


def default_project_dir() -> Path:
    """The Lake project a check uses, never found through the current folder:
    $PAPERLINT_LEAN_PROJECT, else a source checkout's lean-project/, else the per-user copy
    `paperlint setup` makes, else the copy bundled in the installed package (read-only:
    `setup` copies it before building)."""
    if env := os.environ.get(_ENV_PROJECT):
        return Path(env).resolve()
    for candidate in (checkout_project_dir(), user_project_dir(), bundled_project_dir()):
        if (candidate / "lakefile.toml").is_file():
            return candidate
    return user_project_dir()


def checkout_project_dir() -> Path:
    """lean-project/ beside the package in a source checkout (editable install)."""
    return Path(__file__).resolve().parents[2] / "lean-project"


def bundled_project_dir() -> Path:
    """The pinned project shipped in the wheel as package data."""
    return Path(__file__).resolve().parents[1] / "lean_project"


def user_project_dir() -> Path:
    """Where `setup` puts the user's writable copy: $XDG_DATA_HOME/paperlint/lean-project."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "paperlint" / "lean-project"


def build_dir(project: Path) -> Path:
    """Where `project` is built: in place, except the copy bundled in the installed package
    (read-only, and never to be written under site-packages), which `setup` copies to
    `user_project_dir()` and builds there."""
    return user_project_dir() if is_bundled(project) else project


def is_bundled(project: Path) -> bool:
    return project.resolve() == bundled_project_dir().resolve()


def project_origin(project: Path) -> str:
    """Which of the places above `project` is, in words for `doctor`."""
    places = {
        checkout_project_dir(): "source checkout",
        user_project_dir(): "your copy, made by `paperlint setup`",
        bundled_project_dir(): "bundled with paperlint, read-only; `paperlint setup` copies it "
        f"to {user_project_dir()} and builds it there",
    }
    resolved = project.resolve()
    for place, words in places.items():
        if resolved == place.resolve():
            return words
    return "configured ([lean] project_dir or $PAPERLINT_LEAN_PROJECT)"


def find_lake(toolchain: str | None) -> str:
    """The toolchain's own `lake` when elan installed it, else `lake` on PATH.

    The real binary avoids the elan proxy's download attempt and its dependence on the working
    directory (docs/lean-notes.md §9).
    """
    if env := os.environ.get(_ENV_LAKE):
        return env
    if toolchain:
        elan_home = Path(os.environ.get("ELAN_HOME", Path.home() / ".elan"))
        folder = toolchain.replace("/", "--").replace(":", "---")
        real = elan_home / "toolchains" / folder / "bin" / "lake"
        if real.is_file() and os.access(real, os.X_OK):
            return str(real)
    return shutil.which("lake") or "lake"


def locate(
    project: Path | None = None, *, repl_dir: Path | None = None, lake: str | None = None
) -> LeanPaths:
    project = (project or default_project_dir()).resolve()
    # the REPL, lean4checker and the declaration index: beside the folder the project is built
    # in (for the bundled copy, the user's data folder; never site-packages)
    cache = Path(os.environ.get(_ENV_CACHE) or build_dir(project).parent / ".li-cache").resolve()
    if repl_dir is None:
        env = os.environ.get(_ENV_REPL)
        tag = read_pins(project).repl_tag or f"{REPL_VERSION}_lean-toolchain-unknown"
        # The same layout lean-interact's git path produces, so either way of building works.
        repl_dir = Path(env) if env else cache / "augustepoiroux" / "repl" / f"repl_{tag}"
    return LeanPaths(
        project=project,
        cache=cache,
        repl_dir=repl_dir.resolve(),
        lake=lake or find_lake(read_toolchain(project)),
    )


def resolve_paths(project_dir: str | None = None, repl_dir: str | None = None) -> LeanPaths:
    """`locate` from config strings (`[lean] project_dir`, `repl_dir`); None means default."""
    return locate(
        Path(project_dir) if project_dir else None,
        repl_dir=Path(repl_dir) if repl_dir else None,
    )
