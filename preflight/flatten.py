"""Flatten a project into one text: includes, subfiles, imports and local packages inline.

TeX resolves `\\input` against the main file's folder (its working directory); `\\import`
and `\\subimport` change that folder for what they read. A local `.sty`/`.cls` named by
`\\usepackage`/`\\documentclass` is inlined right after the command so that the one walker
reads its declarations in order.
"""

from __future__ import annotations

import bisect
import re
from array import array
from pathlib import Path, PurePosixPath

from paperlint.errors import InputError
from paperlint.preflight import lazyre, prepass, texscan
from paperlint.preflight.draft import DraftDiagnostic, DraftFileEntry, Severity
from paperlint.preflight.record import Record
from paperlint.preflight.sourcetree import (
    _INCLUDE,
    HUGE_FILE_BYTES,
    MAX_DEPTH,
    MAX_FILE_BYTES,
    FlatSource,
    Segment,
    SourceFile,
    decode,
    find_root,
    inside,
    is_file,
    looks_binary,
    read_head,
    read_regular,
    real_path,
    sha256_hex,
)

_PACKAGE_CMDS = {"usepackage", "RequirePackage"}
_CLASS_CMDS = {"documentclass", "LoadClass"}
_BEGIN_DOC = lazyre.pattern(r"\\begin\s*\{document\}")
_END_DOC = lazyre.pattern(r"\\end\s*\{document\}")


class _State(Record):
    """The flattening in progress: the text so far, the include stack, what is loaded."""

    __slots__ = (
        "flat",
        "main_dir",
        "parts",
        "length",
        "stack",
        "includeonly",
        "loaded",
        "user_comment_env",
        "defines_comment_env",
        "path_macros",
        "scanned",
    )
    flat: FlatSource
    main_dir: Path
    parts: list[str]
    length: int
    stack: list[str]
    includeonly: set[str] | None
    loaded: set[str]
    user_comment_env: bool
    defines_comment_env: bool
    """A file read defines an environment `comment` (`_flatten`)."""
    path_macros: dict[str, str]
    """Argument-free macros with a plain body defined in the text read so far (`_path`)."""
    scanned: int
    """How many of `parts` `path_macros` holds the definitions of."""

    def __init__(self, flat: FlatSource, main_dir: Path, user_comment_env: bool = False) -> None:
        self.flat = flat
        self.main_dir = main_dir
        self.parts = []
        self.length = 0
        self.stack = []
        self.includeonly = None
        self.loaded = set()
        self.user_comment_env = user_comment_env
        self.defines_comment_env = False
        self.path_macros = {}
        self.scanned = 0

    def emit(self, text: str, file: str, offset: int) -> None:
        if not text:
            return
        self.flat.segments.append(Segment(self.length, len(text), file, offset))
        self.parts.append(text)
        self.length += len(text)


def load_project(path: Path, root: str | None = None) -> FlatSource:
    """Resolve the project folder and main file, then flatten (InputError on bad input)."""
    path = Path(path)
    if not is_file(path) and not _is_dir(path):
        raise InputError("no such file or folder", path=path)
    if is_file(path) and path.suffix.lower() == ".pdf":
        raise InputError(
            "PDF input is not supported yet",
            path=path,
            hint="pass the LaTeX source (a .tex file or the project folder)",
        )
    if path.is_dir():
        project = path
        main = project / root if root else find_root(project)
    else:
        project = path.parent
        main = project / root if root else path
    if not inside(project, main) or not is_file(main):
        raise InputError(f"root file not found in the project folder: {root or main}", path=project)
    data = read_head(main, 8192)
    if data is None:
        raise InputError("cannot read the main file (not a regular file)", path=main)
    if looks_binary(data):
        raise InputError(
            "this is a binary file, not LaTeX source",
            path=main,
            hint="pass the main .tex file or the project folder",
        )
    flat, defines_comment = _flatten(project, main, user_comment_env=False)
    if defines_comment:  # a file it read defines `comment`: read again, keeping those blocks
        flat, _ = _flatten(project, main, user_comment_env=True)
    return flat


def _flatten(project: Path, main: Path, *, user_comment_env: bool) -> tuple[FlatSource, bool]:
    """The paper from `main` as one text, and whether a file it read defines an environment
    `comment`. A paper that does uses it as content (a math gloss), not as the `comment`
    package's block LaTeX skips; that is known only once its files are read, so a reading that
    dropped such blocks and then met the definition is done again keeping them. Only the
    files the paper reads count, never another file of its folder."""
    flat = FlatSource(project=project, root="", real_project=real_path(project))
    flat.root = rel = flat.relative(main)
    state = _State(flat=flat, main_dir=main.parent, user_comment_env=user_comment_env)
    _expand(state, rel, main.parent, depth=0, mode="root")
    for source in flat.files.values():
        source.text = ""  # read only while expanding: the flat text holds what the walk needs
    flat.text = "".join(state.parts)
    return flat, state.defines_comment_env


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False


def _load(state: _State, rel: str) -> SourceFile | None:
    flat = state.flat
    if rel in flat.files:
        return flat.files[rel]
    path = flat.project / rel
    try:
        size = path.stat().st_size
    except OSError:
        return None
    regular = read_regular(path)
    if regular is None and size <= MAX_FILE_BYTES:
        return None  # a FIFO, a device, or a file that changed: never read, never waited on
    data = regular or b""
    if size > MAX_FILE_BYTES:
        _diag(
            flat,
            "error",
            rel,
            None,
            "huge-file",
            f"file larger than {MAX_FILE_BYTES} bytes skipped",
        )
        return None
    if looks_binary(data):
        _diag(flat, "error", rel, None, "binary-file", "binary file, not LaTeX source: skipped")
        return None
    if size > HUGE_FILE_BYTES:
        _diag(flat, "warning", rel, None, "huge-file", f"very large source file ({size} bytes)")
    flat.entries.append(DraftFileEntry(path=rel, sha256=sha256_hex(data)))
    text, fallback = decode(data)
    del data, regular  # each copy of a large file's text is freed as soon as the next exists
    if fallback:
        _diag(flat, "warning", rel, None, "decoding", "not valid UTF-8; read as Latin-1")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if prepass.defines_comment_env(text):
        state.defines_comment_env = True
    starts = array("q", [0])
    starts.extend(map(re.Match.end, re.finditer("\n", text)))
    source = SourceFile(
        rel=rel,
        text=prepass.clean(text, user_comment_env=state.user_comment_env),
        line_starts=starts,
    )
    flat.files[rel] = source
    return source


def _diag(
    flat: FlatSource,
    sev: Severity,
    file: str,
    line: int | None,
    code: str,
    msg: str,
    column: int | None = None,
) -> None:
    flat.diagnostics.append(
        DraftDiagnostic(severity=sev, file=file, line=line, column=column, code=code, message=msg)
    )


def _line(source: SourceFile, offset: int) -> int:
    return bisect.bisect_right(source.line_starts, offset)


def _body_window(text: str, mode: str) -> tuple[int, int]:
    # A subfile contributes only its document body; the root stops at \end{document}.
    start, end = 0, len(text)
    if mode == "subfile":
        begin = _BEGIN_DOC.search(text)
        start = begin.end() if begin else 0
    if mode in ("root", "subfile"):
        stop = _END_DOC.search(text, start)
        end = stop.start() if stop and mode == "subfile" else (stop.end() if stop else end)
    return start, end


_ENDINPUT_SCAN = lazyre.pattern(
    r"\\(?P<word>endinput|if[A-Za-z@]*|fi)(?![A-Za-z@])|\\.|(?P<brace>[{}])", re.S
)


def _endinput(text: str, pos: int, end: int) -> int:
    """Where TeX stops reading a file: the end of the line holding its `\\endinput` (the rest
    of that line is still read), for an `\\endinput` outside every group and conditional; one
    inside them is code that may never run (a package's `\\ifdefined\\x\\endinput\\fi` guard, a
    definition holding it), and the file is read to its end."""
    if "\\endinput" not in text:
        return end
    braces = conditionals = 0
    for match in _ENDINPUT_SCAN.finditer(text, pos, end):
        word = match.group("word")
        if match.group("brace") is not None:
            braces += 1 if match.group("brace") == "{" else -1
        elif word == "fi":
            conditionals = max(conditionals - 1, 0)
        elif word is not None and word.startswith("if"):
            named = prepass.is_named_conditional(text, match.start())
            conditionals += word not in prepass.NOT_CONDITIONALS and not named
        elif word == "endinput" and braces <= 0 and conditionals == 0:
            newline = text.find("\n", match.end(), end)
            return end if newline < 0 else newline + 1
    return end


def _expand(state: _State, rel: str, base: Path, *, depth: int, mode: str) -> None:
    source = _load(state, rel)
    if source is None:
        return
    state.stack.append(rel)
    text = source.text
    pos, end = _body_window(text, mode)
    end = _endinput(text, pos, end)
    for match in _INCLUDE.finditer(text, pos, end):
        if match.start() < pos:
            continue
        args_end, targets = _targets(state, match, text, base, rel)
        if any("\\" in target[0] for target in targets):
            before = text[pos : match.start()]
            targets = [(_path(state, name, before), kind, at) for name, kind, at in targets]
        state.emit(text[pos:args_end], rel, pos)
        pos = args_end
        for target, kind, new_base in targets:
            _include(state, source, match.start(), target, kind, new_base, depth)
    state.emit(text[pos:end], rel, pos)
    state.stack.pop()


def _targets(
    state: _State, match: re.Match[str], text: str, base: Path, rel: str
) -> tuple[int, list[tuple[str, str, Path]]]:
    cmd = match.group("cmd")
    pos = match.end()
    if cmd in _PACKAGE_CMDS or cmd in _CLASS_CMDS:
        args, pos = texscan.read_args(text, pos, "[{")
        ext = ".sty" if cmd in _PACKAGE_CMDS else ".cls"
        names = texscan.split_keys(args[1] or "")
        return pos, [(n + ext, "package", state.main_dir) for n in names]
    if cmd == "includeonly":
        args, pos = texscan.read_args(text, pos, "{")
        state.includeonly = {
            PurePosixPath(k).as_posix().removesuffix(".tex")
            for k in texscan.split_keys(args[0] or "")
        }
        return pos, []
    if cmd in ("import", "subimport", "inputfrom", "subinputfrom", "includefrom", "subincludefrom"):
        args, pos = texscan.read_args(text, pos, "{{")
        folder = (args[0] or "").strip()
        start = base if cmd.startswith("sub") else state.main_dir
        new_base = start / folder
        return pos, [((args[1] or "").strip(), "import", new_base)]
    group = texscan.read_group(text, pos)
    if group is not None and text[texscan.skip_spaces(text, pos)] == "{":
        name, pos = group
    else:
        bare = re.compile(r"[ \t]*([^\s{}\\%]+)").match(text, pos)
        if bare is None or cmd != "input":
            return pos, []
        name, pos = bare.group(1), bare.end()
    kind = "subfile" if cmd.startswith("subfile") else cmd
    return pos, [(name.strip().strip('"'), kind, base)]


_PATH_MACRO = lazyre.pattern(
    r"\\(?:(?:re|provide|new)command\*?\s*\{?\s*\\(?P<name>[A-Za-z@]+)\s*\}?"
    r"|[gex]?def\s*\\(?P<dname>[A-Za-z@]+))\s*\{(?P<body>[^{}#%]*)\}"
)
_PATH_WORD = lazyre.pattern(r"\\([A-Za-z@]+)\s*")


def _path(state: _State, name: str, before: str) -> str:
    """A file name written with argument-free macros, as TeX expands it: `\\jobname` is the
    main file's name without its extension, a macro defined in the text read before the
    command (`\\newcommand{\\dir}{sections}`, `\\def\\dir{…}`, the last definition) is its
    body (`\\input{\\dir/intro}`). Any other macro is left as written (not found, and said)."""
    parts = state.parts
    for text in [*parts[state.scanned :], before]:
        for match in _PATH_MACRO.finditer(text):
            state.path_macros[match.group("name") or match.group("dname")] = match.group("body")
    state.scanned = len(parts)
    known = {**state.path_macros, "jobname": PurePosixPath(state.flat.root).stem}
    for _ in range(8):  # a macro naming a macro; a loop stops here
        expanded = _PATH_WORD.sub(lambda m: known.get(m.group(1), m.group(0)), name)
        if expanded == name:
            break
        name = expanded
    return name


def _include(
    state: _State, source: SourceFile, at: int, name: str, kind: str, base: Path, depth: int
) -> None:
    only = state.includeonly
    line = _line(source, at)
    column = at - source.line_starts[line - 1] + 1
    if not name:
        return
    if kind == "include" and only is not None and name.removesuffix(".tex") not in only:
        message = (
            f"{name!r} is left out by \\includeonly; LaTeX keeps its counters from an "
            "earlier full run, so later numbers may differ (use --latex)"
        )
        _diag(state.flat, "info", source.rel, line, "includeonly", message, column)
        return
    if kind == "package":
        path = _package_path(state, name, base)
    else:
        path = _input_path(state, source, (line, column), name, base)
    if path is None:
        return
    flat = state.flat
    rel = flat.relative(path)
    if rel in state.stack or depth >= MAX_DEPTH:
        cycle = " -> ".join([*state.stack, rel])
        message = f"{name!r} includes itself ({cycle})"
        _diag(flat, "error", source.rel, line, "include-cycle", message, column)
        return
    state.emit("\n", source.rel, at)
    new_base = path.parent if kind == "import" else base
    mode = "subfile" if kind == "subfile" else "input"
    _expand(state, rel, new_base, depth=depth + 1, mode=mode)
    state.emit("\n", source.rel, at)


def _package_path(state: _State, name: str, base: Path) -> Path | None:
    """A local `.sty`/`.cls`, once (LaTeX loads a package once); None if not in the project."""
    if name in state.loaded:
        return None
    path = _first_existing(state, [base / name, state.main_dir / name])
    if path is not None:
        state.loaded.add(name)
        stem = name.rsplit(".", 1)[0]
        flat = state.flat
        (flat.local_packages if name.endswith(".sty") else flat.local_classes).add(stem)
    return path


_DRIVE = lazyre.pattern(r"[A-Za-z]:[\\/]")  # `C:\\…`, `C:/…`: a Windows absolute path


def _input_path(
    state: _State, source: SourceFile, where: tuple[int, int], name: str, base: Path
) -> Path | None:
    """The file an `\\input`-like command reads, or None with a diagnostic saying why."""
    flat = state.flat
    line, column = where
    absolute = PurePosixPath(name).is_absolute() or _DRIVE.match(name)
    if absolute or name.startswith("~"):
        message = f"absolute path {name!r} is never read"
        _diag(flat, "error", source.rel, line, "path-outside-project", message, column)
        return None
    names = [name] if name.endswith((".tex", ".ltx")) else [name + ".tex", name]
    bases = (base, state.main_dir, (flat.project / source.rel).parent)
    tries = [b / n for b in bases for n in names]
    if any(not flat.holds(p) for p in tries[: len(names)]):
        message = f"{name!r} leaves the project folder and is never read"
        _diag(flat, "error", source.rel, line, "path-outside-project", message, column)
        return None
    path = _first_existing(state, tries)
    if path is None:
        message = f"included file {name!r} not found"
        _diag(flat, "warning", source.rel, line, "missing-input", message, column)
    return path


def _first_existing(state: _State, paths: list[Path]) -> Path | None:
    flat = state.flat
    for path in paths:  # a stat before resolving: most candidates do not exist
        if is_file(path) and flat.holds(path):
            return path
    return None


def project_file_exists(flat: FlatSource, name: str) -> bool:
    """Whether `\\IfFileExists{name}` finds `name` beside the paper: as written or, without an
    extension, with `.tex` (TeX's `\\openin` tries both), in the main file's folder or the
    project's, never outside it. False says only that it is not there: TeX also searches its
    own tree."""
    names = [name] if Path(name).suffix else [name + ".tex", name]
    return any(_project_file(flat, rel) is not None for rel in names)


def read_project_text(flat: FlatSource, rel: str) -> str | None:
    """A project file's text by a path relative to the main file's folder (never outside)."""
    path = _project_file(flat, rel)
    if path is None:
        return None
    data = read_regular(path)
    if data is None or looks_binary(data):
        return None
    return decode(data)[0]


def _project_file(flat: FlatSource, rel: str) -> Path | None:
    """The file `rel` names, beside the main file or at the project's top, never outside."""
    main_dir = (flat.project / flat.root).parent
    return next(
        (
            path
            for path in (main_dir / rel, flat.project / rel)
            if is_file(path) and flat.holds(path)
        ),
        None,
    )
