"""Regular expressions compiled where first used, not when their module is imported.

Compiling preflight's 66 patterns was about a quarter of its import time, and a paper uses only
some of them. `pattern(r"...")` at module level stands in for `re.compile(r"...")`: the first
attribute read on it (`.search`, `.finditer`, …) compiles the pattern and puts the compiled
one in its place in the defining module, so every later use there is a plain `re.Pattern`
with no extra call. A copy held elsewhere (`from m import NAME`, a tuple) keeps working
through the stand-in, one attribute lookup slower. `tests/preflight/test_imports.py` holds
preflight to no compile at import.
"""

from __future__ import annotations

import re
import sys
from typing import Any, cast


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
            compiled = self._compiled = re.compile(self._source, self._flags)
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
