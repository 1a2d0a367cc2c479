"""Regular expressions compiled where first used, not when their module is imported, and
compiled once per machine rather than once per process.

Compiling preflight's 66 patterns was about a quarter of its import time, and a paper uses only
some of them. `pattern(r"...")` at module level stands in for `re.compile(r"...")`: the first
attribute read on it (`.search`, `.finditer`, …) compiles the pattern and puts the compiled
one in its place in the defining module, so every later use there is a plain `re.Pattern`
with no extra call. A copy held elsewhere (`from m import NAME`, a tuple) keeps working
through the stand-in, one attribute lookup slower. `tests/preflight/test_imports.py` holds
preflight to no compile at import.

Compiling the ~45 patterns a long paper uses was still ~6 ms of a ~60 ms build
(`docs/workspace.md`, "Outside the workspace"): `re` parses a pattern and compiles it to its C
engine's program in Python. The program is plain data (`re._compiler.compile` hands a list of
ints, the group count and the group names to `_sre.compile`), so it is kept in the user's
cache (`paperlint.usercache`), in one file per exact Python build; a later process hands the
kept program straight to `_sre.compile`, which checks it is a well-formed program before
using it. What is kept is what `re` itself would hand over (`_program` does what
`re._compiler.compile` does; `tests/preflight/test_lazyre.py` holds the two equal for every
pattern of preflight). Anything unexpected (another Python's internals, an unreadable or
foreign file, a folder that cannot be written) means `re.compile`, as without a cache.
"""

from __future__ import annotations

import _sre  # type: ignore[import-not-found]  # re's C engine, loaded with re itself
import re
import sys
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from pathlib import Path

# (pattern, flags) -> what `_sre.compile` takes after the pattern: flags, code, groups - 1,
# group index, index group. Loaded at the first compile of a process; None: no cache.
Program = tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]
_programs: dict[tuple[str, int], Program] | None = None
_added: dict[tuple[str, int], Program] = {}
_usable = True  # False once this Python's `re` internals are not the ones `_program` knows


class _Pending:
    __slots__ = ("_source", "_flags", "_home", "_compiled")

    def __init__(self, source: str, flags: int, home: dict[str, Any]) -> None:
        self._source = source
        self._flags = flags
        self._home = home
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = compile_kept(self._source, self._flags)
            home = self._home
            for key in [key for key, value in home.items() if value is self]:
                home[key] = compiled
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"pattern({self._source!r}, {self._flags})"


def pattern(source: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(source, flags)`, done at the first use (see the module's docstring); call
    it only in a module's top level, as `NAME = pattern(...)`."""
    home = sys._getframe(1).f_globals
    return cast("re.Pattern[str]", _Pending(source, flags, home))


def compile_kept(source: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(source, flags)`, from the program kept in the user's cache when there is
    one; a program made here is added to the cache when the process ends."""
    global _programs, _usable
    flags = int(flags)
    if not _usable:
        return re.compile(source, flags)
    if _programs is None:
        _programs = _load()
    key = (source, flags)
    kept = _programs.get(key)
    if kept is not None:
        try:
            return cast("re.Pattern[str]", _sre.compile(source, *kept))
        except Exception:  # not a program of this engine: made afresh below
            del _programs[key]
    try:
        made = _program(source, flags)
        compiled = cast("re.Pattern[str]", _sre.compile(source, *made))
    except re.error:
        raise
    except Exception:  # `re`'s internals are not the ones `_program` knows
        _usable = False
        return re.compile(source, flags)
    if not _added:
        import atexit

        atexit.register(_save)
    _programs[key] = _added[key] = made
    return compiled


def _program(source: str, flags: int) -> Program:
    """What `re._compiler.compile(source, flags)` hands to `_sre.compile` after the pattern."""
    from re import _compiler, _parser  # type: ignore[attr-defined]

    parsed = _parser.parse(source, flags)
    code = [int(op) for op in _compiler._code(parsed, flags)]
    state = parsed.state
    groupindex = {str(name): int(index) for name, index in state.groupdict.items()}
    indexgroup: list[str | None] = [None] * state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    return (int(flags | state.flags), code, state.groups - 1, groupindex, tuple(indexgroup))


def cache_file() -> Path:
    """This Python build's file of kept programs."""
    from paperlint.usercache import cache_dir

    version = ".".join(map(str, sys.version_info[:3]))
    name = f"{sys.implementation.name}-{version}-{_sre.MAGIC}.marshal"
    return cache_dir() / "regex" / name


def _load() -> dict[tuple[str, int], Program]:
    """The kept programs, if the file is this Python build's; else none."""
    import marshal

    try:
        data = marshal.loads(cache_file().read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    if not isinstance(data, dict) or data.get("python") != sys.version:
        return {}
    programs = data.get("programs")
    return programs if isinstance(programs, dict) else {}


def _save() -> None:
    """Add the programs made in this process to the file (as one atomic replace; a process
    that saves at the same time may lose its additions, never the file). Not through
    `paperlint.store`'s atomic write: that module imports pydantic, which preflight's path
    does not, and scrubs what it writes of API keys, which this binary file holds none of."""
    import marshal
    import os

    path = cache_file()
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        programs = {**_load(), **_added}
        data = marshal.dumps({"python": sys.version, "programs": programs})
        temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        temporary.write_bytes(data)
        os.replace(temporary, path)
    except OSError:
        return
