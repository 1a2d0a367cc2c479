"""The source tree of a TeX project: root discovery, safe reading, decoding, and flattening
of `\\input`/`\\include`/`\\subfile`/`\\import` (and local `.sty`/`.cls`) into one text with a
source map.

Nothing outside the project folder is ever opened: every path is resolved and checked first.
"""

from __future__ import annotations

import bisect
import errno
import importlib
import os
import re
import stat
from array import array
from collections.abc import Callable
from pathlib import Path
from typing import Any

from paperlint.configfiles import WORKSPACE_MARKER
from paperlint.errors import InputError
from paperlint.preflight import lazyre, prepass
from paperlint.preflight.draft import DraftDiagnostic, DraftFileEntry
from paperlint.preflight.record import Record

HUGE_FILE_BYTES = 8 * 1024 * 1024
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_DEPTH = 40
_INCLUDE = lazyre.pattern(
    r"\\(?P<cmd>input|include|subfile|subfileinclude|import|subimport|inputfrom|subinputfrom"
    r"|includefrom|subincludefrom|usepackage|RequirePackage|documentclass|LoadClass"
    r"|includeonly)(?![A-Za-z@])\*?"
)
_NAME_HINTS = {"main": 3, "paper": 2, "ms": 2, "article": 1, "manuscript": 2, "arxiv": 1}
_BAD_HINTS = (
    "draft",
    "old",
    "backup",
    "rebuttal",
    "poster",
    "slides",
    "response",
    "cover",
    "letter",
    "reply",
    "review",
    "talk",
    "abstract",
    "copy",
    "bak",
    "tmp",
    "test",
)


class SourceFile(Record):
    """One project file as read: its cleaned text and where its lines start."""

    __slots__ = ("rel", "text", "line_starts")
    rel: str
    text: str  # the cleaned text, while the project is flattened; "" afterwards
    # 8 bytes a line (a list of ints holds 36): a large paper has a million lines
    line_starts: array[int]

    def __init__(self, rel: str, text: str, line_starts: array[int]) -> None:
        self.rel = rel
        self.text = text
        self.line_starts = line_starts


class Segment(Record):
    """A stretch of the flat text and the file offset it was copied from."""

    __slots__ = ("flat_start", "length", "file", "file_offset")
    flat_start: int
    length: int
    file: str
    file_offset: int

    def __init__(self, flat_start: int, length: int, file: str, file_offset: int) -> None:
        self.flat_start = flat_start
        self.length = length
        self.file = file
        self.file_offset = file_offset


class FlatSource(Record):
    """The flattened document: `text` plus a map from offsets back to (file, line)."""

    __slots__ = (
        "project",
        "root",
        "text",
        "real_project",
        "segments",
        "files",
        "entries",
        "diagnostics",
        "local_packages",
        "local_classes",
        "_starts",
        "_reals",
    )
    project: Path
    root: str
    text: str
    real_project: str  # `project` with its symlinks resolved (real_path)
    segments: list[Segment]
    files: dict[str, SourceFile]
    entries: list[DraftFileEntry]
    diagnostics: list[DraftDiagnostic]
    local_packages: set[str]
    local_classes: set[str]
    _starts: list[int]
    _reals: dict[str, str]  # each path resolved once a build (`real`)

    def __init__(self, project: Path, root: str, text: str = "", real_project: str = "") -> None:
        self.project = project
        self.root = root
        self.text = text
        self.real_project = real_project
        self.segments = []
        self.files = {}
        self.entries = []
        self.diagnostics = []
        self.local_packages = set()
        self.local_classes = set()
        self._starts = []
        self._reals = {}

    def real(self, path: Path) -> str:
        """`real_path(path)`, worked out once a build (an `\\input`'s candidates are checked
        and then read by the same name)."""
        key = os.fspath(path)
        found = self._reals.get(key)
        if found is None:
            found = self._reals[key] = real_path(path)
        return found

    def holds(self, path: Path) -> bool:
        """Whether `path`, with symlinks resolved, lies inside the project folder."""
        return _within(self.real_project or real_path(self.project), self.real(path))

    def relative(self, path: Path) -> str:
        """`path` (inside the project) relative to the project, symlinks resolved."""
        return Path(self.real(path)).relative_to(self.real_project).as_posix()

    def locate(self, pos: int) -> tuple[str, int]:
        """The (file, 1-based line) of an offset in the flat text."""
        file, line, _column = self.position(pos)
        return file, line

    def position(self, pos: int) -> tuple[str, int, int]:
        """The (file, 1-based line, 1-based column) of an offset in the flat text.

        The pre-pass blanks comments and verbatim in place, so offsets are the file's own."""
        if not self.segments:
            return self.root, 1, 1
        if not self._starts:
            self._starts = [s.flat_start for s in self.segments]
        index = max(bisect.bisect_right(self._starts, pos) - 1, 0)
        seg = self.segments[index]
        source = self.files[seg.file]
        offset = seg.file_offset + min(max(pos - seg.flat_start, 0), seg.length)
        line = bisect.bisect_right(source.line_starts, offset)
        return seg.file, line, offset - source.line_starts[line - 1] + 1


def decode(data: bytes) -> tuple[str, bool]:
    """Decode as UTF-8, else Latin-1; the flag says whether the fallback was needed."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), False
    except UnicodeDecodeError:
        return data.decode("latin-1"), True


def looks_binary(data: bytes) -> bool:
    return b"\x00" in data[:8192]


def real_path(path: Path | str) -> str:
    """`path` with every symlink resolved (`os.path.realpath`), or "" for a name the OS
    rejects or a symlink loop (which `realpath` alone would return unresolved)."""
    try:
        real = os.path.realpath(path)
    except (OSError, ValueError):
        return ""
    try:
        os.stat(real)
    except OSError as error:
        if error.errno == errno.ELOOP:
            return ""
    return real  # a name that does not exist (yet) still lies somewhere


def inside(project: Path, path: Path) -> bool:
    """Whether `path`, with symlinks resolved, lies inside the project folder."""
    return _within(real_path(project), real_path(path))


def _within(root: str, real: str) -> bool:
    """Whether the resolved path `real` lies in the resolved folder `root` ("": unresolvable)."""
    if not root or not real:
        return False
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def is_file(path: Path) -> bool:
    """`Path.is_file` that answers False for names the OS rejects (too long, NUL bytes)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def read_bytes_safely(project: Path, path: Path) -> bytes | None:
    """The bytes of a project file, or None when it is outside, missing or unreadable."""
    if not inside(project, path) or not is_file(path):
        return None
    return read_regular(path)


def read_head(path: Path, size: int) -> bytes | None:
    """The first `size` bytes of a regular file (None for a FIFO, a device or an error)."""
    return _read_guarded(path, size, whole=False)


def read_regular(path: Path, limit: int | None = None) -> bytes | None:
    """The bytes of `path` if it is a regular file of at most `limit` bytes, else None.

    Opened non-blocking and checked with `fstat` on the open descriptor, so a FIFO or a device
    named `x.tex` (even one swapped in after a `stat`) never blocks or streams forever.
    """
    return _read_guarded(path, MAX_FILE_BYTES if limit is None else limit, whole=True)


def _read_guarded(path: Path, limit: int, *, whole: bool) -> bytes | None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except (OSError, ValueError):
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or (whole and info.st_size > limit):
            return None
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(limit + 1 if whole else limit)
        return None if whole and len(data) > limit else data
    except OSError:
        return None
    finally:
        os.close(fd)


def _strip_doc(text: str) -> str:
    return prepass.strip_comments_and_verbatim(text)


def is_root_candidate(text: str) -> bool:
    clean = _strip_doc(text)
    return "\\documentclass" in clean and "\\begin{document}" in clean


def inputs_class(text: str, class_files: set[str]) -> bool:
    """A main file that gets its `\\documentclass` from a file it `\\input`s (a shared
    preamble): it begins the document and inputs one of the files that name a class."""
    clean = _strip_doc(text)
    return "\\begin{document}" in clean and bool(_included_names(text) & class_files)


def is_plain_root(text: str) -> bool:
    """A plain-TeX or AMS-TeX paper: no LaTeX class, ends with `\\bye` or `\\enddocument`."""
    clean = _strip_doc(text)
    return "\\documentclass" not in clean and bool(
        re.search(r"\\(?:bye|enddocument)(?![A-Za-z@])", clean)
    )


def _included_names(text: str) -> set[str]:
    names: set[str] = set()
    clean = _strip_doc(text)
    pattern = r"\\(?:input|include|subfile|import|subimport)\s*(?:\{[^}]*\}\s*)?\{([^}]*)\}"
    for match in re.finditer(pattern, clean):
        name = match.group(1).strip()
        names.add(Path(name).name.removesuffix(".tex"))
    for match in re.finditer(r"\\input\s+([^\s{}\\]+)", clean):
        names.add(Path(match.group(1)).name.removesuffix(".tex"))
    return names


def _score(path: Path, text: str, project: Path) -> int:
    stem = path.stem.lower()
    score = _NAME_HINTS.get(stem, 0) * 10
    score -= sum(15 for hint in _BAD_HINTS if hint in stem)
    score += min(len(re.findall(r"\\(?:input|include|section)\b", text)), 20)
    score -= 2 * (len(path.relative_to(project).parts) - 1)
    return score


def _tex_files(project: Path) -> list[Path]:
    """The `.tex` files under `project`, as `project.rglob("*.tex")` lists them (symbolic links
    to folders not entered), faster: a paper's repository may hold tens of thousands of data
    files (50,012 in 2,000 folders: 0.11 -> 0.06 s; docs/preflight.md). A check's workspace
    is passed over, its files and folders: its `source/` and snapshots are copies of the paper
    as it was checked, never the paper (seen by the walk's own listing, no extra call)."""
    found: list[Path] = []
    for folder, dirs, files in os.walk(project):
        if WORKSPACE_MARKER in files:
            dirs.clear()
            continue
        names = [name for name in files if name.endswith(".tex")]
        names += [name for name in dirs if name.endswith(".tex")]  # rglob lists these too
        if names:
            base = Path(folder)
            found.extend(base / name for name in names)
    return found


def find_root(project: Path) -> Path:
    """Rank the main-file candidates of a folder; raise InputError on none or a tie."""
    texts: dict[Path, str] = {}
    for path in sorted(_tex_files(project)):
        data = read_bytes_safely(project, path)
        if data is not None and not looks_binary(data):
            texts[path] = decode(data)[0]
    classes = {p.stem for p, t in texts.items() if "\\documentclass" in _strip_doc(t)}
    candidates = [
        p
        for p, t in texts.items()
        if is_root_candidate(t) or inputs_class(t, classes) or is_plain_root(t)
    ]
    candidates = [
        p
        for p in candidates
        if not re.search(r"\\documentclass(\[[^]]*\])?\{standalone\}", texts[p])
    ]
    included = set().union(*(_included_names(t) for t in texts.values())) if texts else set()
    top = [p for p in candidates if p.stem not in included] or candidates
    if not top:
        raise InputError(
            "no main .tex file found (none has \\documentclass and \\begin{document})",
            path=project,
            hint="pass the main file, or --root FILE",
        )
    scored = sorted(((_score(p, texts[p], project), p) for p in top), key=lambda s: -s[0])
    if len(scored) > 1 and scored[0][0] == scored[1][0]:
        names = ", ".join(str(p.relative_to(project)) for _, p in scored if _ == scored[0][0])
        raise InputError(
            f"several candidate main files: {names}",
            path=project,
            hint="choose one with --root FILE",
        )
    return scored[0][1]


def sha256_hex(data: bytes) -> str:
    """SHA-256 of `data` in hex, from CPython's own implementation when it has one: the one
    `hashlib` falls back to without OpenSSL, importable without loading libcrypto (`hashlib`
    adds ~4 ms to the pre-commit hook's start-up; docs/ci.md)."""
    return str(_sha256(data).hexdigest())


def _sha256_constructor() -> Callable[[bytes], Any]:
    for module in ("_sha2", "_sha256"):  # CPython 3.12+, 3.11
        try:
            return importlib.import_module(module).sha256  # type: ignore[no-any-return]
        except (ImportError, AttributeError):
            continue
    from hashlib import sha256  # an interpreter without them (PyPy)

    return sha256


_sha256 = _sha256_constructor()
