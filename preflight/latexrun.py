"""Compile a scratch copy of a TeX project with latexmk and read back its `.aux`.

The user's folder is only read: the project is copied into a temporary folder and compiled
there, and the copy is removed afterwards. Shell escape is never enabled (`-no-shell-escape`
and `shell_escape=f` in the environment), TeX may not write outside the copy
(`openout_any=p`), latexmk reads no rc file (a project's `latexmkrc` is Perl code), and the
whole process group is killed on timeout.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path, PurePosixPath

from paperlint.errors import InputError
from paperlint.preflight import lazyre
from paperlint.preflight.auxfile import AuxData, parse_aux

log = logging.getLogger(__name__)

INSTALL_HINT = "install TeX Live (`apt-get install latexmk texlive-latex-extra`) or drop --latex"
XETEX_HINT = "install xelatex (`apt-get install texlive-xetex`) or drop --latex"
DEFAULT_TIMEOUT_S = 300.0
DRAFT_GRAPHICS = r"-usepretex=\PassOptionsToPackage{draft}{graphicx}"
_LOG_TAIL_LINES = 40
_MAX_ERRORS = 20
_ERROR_LINE = lazyre.pattern(r"^(?:! |\S+\.(?:tex|sty|cls|bbl|aux):\d+: )")
# Folders never copied into the scratch tree: version control and paperlint's own workdirs.
_SKIP_DIRS = frozenset({".git", ".hg", ".svn", "__pycache__"})
# Build outputs a user's folder may hold from an earlier compile. Copying them would let
# latexmk trust a stale .fdb_latexmk and hand back an old .aux; .bbl is kept (papers ship one
# without the .bib) and so are PDFs (figures).
_BUILD_OUTPUTS = frozenset(
    {".aux", ".fdb_latexmk", ".fls", ".log", ".out", ".toc", ".lof", ".lot", ".blg", ".xdv"}
    | {".bcf", ".run.xml", ".thm", ".loe", ".synctex.gz", ".synctex", ".nav", ".snm", ".vrb"}
)
_XETEX_PACKAGE = lazyre.pattern(
    r"\\(?:usepackage|RequirePackage)\s*(?:\[[^\]]*\])?\s*\{[^}]*\b(?:fontspec|unicode-math)\b"
)
_PROGRAM_MAGIC = lazyre.pattern(r"^%\s*!\s*TEX\s+(?:TS-)?program\s*=\s*(\w+)", re.I | re.M)
# A latexmkrc is Perl and is never run (-norc), but it is read as text for the engine it asks
# for: `$pdf_mode = 5` (xelatex) or 4 (lualatex), or an engine named in `$pdflatex = '…'`.
_RC_NAMES = frozenset({"latexmkrc", ".latexmkrc"})
_RC_UNICODE_ENGINE = lazyre.pattern(
    r"^[^#\n]*(?:\$pdf_mode\s*=\s*[45]\b|\$pdflatex\s*=\s*['\"](?:xe|lua)latex)", re.M
)


class CompileStatus(StrEnum):
    OK = "ok"  # latexmk finished without errors
    ERRORS = "errors"  # TeX reported errors; the .aux holds what was written before/after
    TIMEOUT = "timeout"  # killed; the .aux may be partial or missing
    NO_AUX = "no-aux"  # no .aux was written at all


@dataclass(frozen=True)
class CompileResult:
    status: CompileStatus
    aux: AuxData
    engine: str  # "pdflatex" or "xelatex"
    compiled_with: str  # e.g. "latexmk 4.79 / pdflatex"
    returncode: int | None
    seconds: float
    log_tail: str
    errors: tuple[str, ...] = ()  # TeX's error lines from the whole log, first ones first

    def summary(self) -> str:
        if self.status is CompileStatus.ERRORS and not self.aux.labels:
            return f"{self.compiled_with} stopped before writing any label (rc {self.returncode})"
        return {
            CompileStatus.OK: f"compiled with {self.compiled_with}",
            CompileStatus.ERRORS: f"{self.compiled_with} reported errors (rc {self.returncode});"
            " labels are from the .aux it still wrote",
            CompileStatus.TIMEOUT: f"{self.compiled_with} timed out after {self.seconds:.0f} s",
            CompileStatus.NO_AUX: f"{self.compiled_with} wrote no .aux (rc {self.returncode})",
        }[self.status]


def find_latexmk() -> str:
    """The path of latexmk, or an InputError saying how to get it."""
    path = shutil.which("latexmk")
    if path is None:
        raise InputError("--latex needs latexmk, which is not installed", hint=INSTALL_HINT)
    return path


def latexmk_version(latexmk: str) -> str:
    out = subprocess.run(
        [latexmk, "-v"], capture_output=True, text=True, timeout=30, check=False
    ).stdout
    match = re.search(r"Version\s+(\S+)", out)
    return f"latexmk {match.group(1)}" if match else "latexmk"


def choose_engine(texts: list[str]) -> str:
    """xelatex when the project loads fontspec or unicode-math or asks for it; else pdflatex."""
    for text in texts:
        magic = _PROGRAM_MAGIC.search(text)
        if magic and magic.group(1).lower() in {"xelatex", "lualatex"}:
            return "xelatex"
        if _XETEX_PACKAGE.search(_strip_comments(text)) or _RC_UNICODE_ENGINE.search(text):
            return "xelatex"
    return "pdflatex"


def latexmk_command(latexmk: str, root_name: str, engine: str) -> list[str]:
    """latexmk without `-halt-on-error`: later passes still run, so the .aux is complete."""
    mode = "-xelatex" if engine == "xelatex" else "-pdf"
    return [
        latexmk,
        mode,
        "-norc",
        "-f",
        "-interaction=nonstopmode",
        "-file-line-error",
        "-no-shell-escape",
        # Draft graphics: a missing or unreadable figure is not fatal and images are not
        # embedded. Numbering does not depend on images; only page numbers might move.
        DRAFT_GRAPHICS,
        root_name,
    ]


def safe_env() -> dict[str, str]:
    """The environment for TeX: no shell escape, no reads or writes outside the working folder.

    `openin_any=p` (paranoid, like `openout_any`) refuses absolute paths, `..` and dot files
    for `\\openin`/`\\read` and `\\input`, so a paper cannot read `/etc/…` or
    `/proc/self/environ`; files found by kpathsea's own search (packages, fonts) still open.

    kpathsea lets environment variables override texmf.cnf, so these hold whatever the
    installation's configuration says; the user's own TEXMFHOME/TEXINPUTS stay usable.
    """
    env = dict(os.environ)
    env.update(shell_escape="f", shell_escape_commands="", openout_any="p", openin_any="p")
    return env


def compile_project(
    project_dir: Path,
    root: str,
    *,
    timeout: float = DEFAULT_TIMEOUT_S,
    engine: str | None = None,
    edit: Callable[[Path], object] | None = None,
) -> CompileResult:
    """Compile a scratch copy of `project_dir` whose main file is `root` (relative).

    `edit`, when given, may change the scratch copy (its root folder) before the compile.
    """
    latexmk = find_latexmk()
    if not (project_dir / root).is_file():
        raise InputError(f"the main file {root} is not in the project folder", path=project_dir)
    texts = _project_texts(project_dir)
    engine = engine or choose_engine(texts)
    if engine == "xelatex" and shutil.which("xelatex") is None:
        raise InputError("this paper needs xelatex, which is not installed", hint=XETEX_HINT)
    compiled_with = f"{latexmk_version(latexmk)} / {engine}"
    root_path = PurePosixPath(root)
    with tempfile.TemporaryDirectory(prefix="paperlint-latex-") as tmp:
        scratch = Path(tmp) / "src"
        copy_project(project_dir, scratch)
        if edit is not None:
            edit(scratch)
        workdir = scratch / root_path.parent
        command = latexmk_command(latexmk, root_path.name, engine)
        started = time.monotonic()
        returncode, output = _run(command, cwd=workdir, timeout=timeout)
        seconds = time.monotonic() - started
        aux_name = root_path.with_suffix(".aux").name
        aux = parse_aux(aux_name, read=lambda name: _read_inside(scratch, workdir / name))
        log_text = _read_inside(scratch, workdir / root_path.with_suffix(".log").name) or output
    status = _status(returncode, aux_name, aux)
    return CompileResult(
        status=status,
        aux=aux,
        engine=engine,
        compiled_with=compiled_with,
        returncode=returncode,
        seconds=seconds,
        log_tail=_tail(log_text),
        errors=error_lines(log_text),
    )


def copy_project(source: Path, target: Path) -> None:
    """Copy the regular files of `source` into `target`; links are followed only inside it."""
    for rel, real in project_files(source):
        if _is_build_output(rel.name):
            continue
        dest = target / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(real, dest)


def project_files(source: Path) -> Iterator[tuple[Path, Path]]:
    """(relative path, real path) of every regular file whose real path is inside `source`.

    Linked folders are not entered (`os.walk` default) and linked files count only when they
    point inside the project: paperlint never reads outside the paper's folder.
    """
    base = source.resolve()
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIP_DIRS)
        here = Path(dirpath)
        for name in sorted(filenames):
            real = (here / name).resolve()
            if real.is_file() and real.is_relative_to(base):
                yield (here / name).relative_to(base), real


def _is_build_output(name: str) -> bool:
    return any(name.endswith(suffix) for suffix in _BUILD_OUTPUTS)


def _run(command: list[str], *, cwd: Path, timeout: float) -> tuple[int | None, str]:
    log.debug("running %s in %s", command, cwd)
    proc = subprocess.Popen(
        command,
        cwd=cwd,
        env=safe_env(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
        start_new_session=True,
    )
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        out, _ = proc.communicate()
        return None, out
    return proc.returncode, out


def _kill_group(proc: subprocess.Popen[str]) -> None:
    with contextlib.suppress(ProcessLookupError):  # already gone
        os.killpg(proc.pid, signal.SIGKILL)


def _status(returncode: int | None, aux_name: str, aux: AuxData) -> CompileStatus:
    if returncode is None:
        return CompileStatus.TIMEOUT
    if aux_name in aux.missing:
        return CompileStatus.NO_AUX
    return CompileStatus.OK if returncode == 0 else CompileStatus.ERRORS


def _read_inside(scratch: Path, path: Path) -> str | None:
    path = path.resolve()
    if not path.is_relative_to(scratch.resolve()) or not path.is_file():
        return None
    return path.read_text(encoding="utf-8", errors="replace")


def _project_texts(project_dir: Path) -> list[str]:
    return [
        real.read_text(encoding="utf-8", errors="replace")
        for rel, real in project_files(project_dir)
        if rel.suffix in {".tex", ".sty", ".cls"} or rel.name in _RC_NAMES
    ]


def _strip_comments(text: str) -> str:
    return re.sub(r"(?<!\\)%.*", "", text)


def error_lines(log_text: str, *, limit: int = _MAX_ERRORS) -> tuple[str, ...]:
    """`! …` lines and `file:line: …` lines (-file-line-error), in order, deduplicated."""
    found: dict[str, None] = {}
    for line in log_text.splitlines():
        if _ERROR_LINE.match(line):
            found.setdefault(line.strip(), None)
            if len(found) >= limit:
                break
    return tuple(found)


def _tail(text: str) -> str:
    return "\n".join(text.splitlines()[-_LOG_TAIL_LINES:])
