"""The user's cache folder for paperlint (`$XDG_CACHE_HOME/paperlint`, else
`~/.cache/paperlint`): what can be rebuilt at any time and is kept only to save start-up time.

Nothing of a paper or a workspace goes here, and nothing here is evidence: deleting the folder
changes no verdict. Today it holds jinja2's compiled templates (`jinja_bytecode`): compiling
report.html's template was ~0.11 s of every report written, most of a finished check's resume
(issue #30; `docs/workspace.md`); and preflight's compiled regular expressions
(`paperlint.preflight.lazyre`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from jinja2 import BytecodeCache, Environment

# What an environment compiles into a template's code besides its source: jinja2 keys its cache
# by template name and source only, so environments that differ in these (report.html
# autoescapes, prompts do not) must not share a folder.
_COMPILED_OPTIONS = (
    "autoescape",
    "block_start_string",
    "block_end_string",
    "variable_start_string",
    "variable_end_string",
    "comment_start_string",
    "comment_end_string",
    "line_statement_prefix",
    "line_comment_prefix",
    "trim_blocks",
    "lstrip_blocks",
    "newline_sequence",
    "keep_trailing_newline",
    "optimized",
    "undefined",
    "extensions",
)


def cache_dir() -> Path:
    """`$XDG_CACHE_HOME/paperlint`, or `~/.cache/paperlint` (not created here)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "paperlint"


def jinja_bytecode(env: Environment) -> BytecodeCache | None:
    """jinja2's bytecode cache for `env`'s options in `cache_dir()/jinja2/<options>`, or None
    (templates compiled in memory, as without a cache) when the folder cannot be made. jinja2
    keys each entry by the template's name, and checks the source's sha1 and its own bytecode
    format (jinja2 and Python versions) on load: an edited template, another version or other
    options is compiled afresh, never served stale."""
    import hashlib  # here: its OpenSSL module is ~3 ms of preflight's start-up

    from jinja2 import FileSystemBytecodeCache

    options = repr([(name, _stable(getattr(env, name, None))) for name in _COMPILED_OPTIONS])
    folder = cache_dir() / "jinja2" / hashlib.sha256(options.encode()).hexdigest()[:16]
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return None
    if not os.access(folder, os.W_OK | os.X_OK):
        return None
    return FileSystemBytecodeCache(str(folder))


def _stable(value: object) -> object:
    """`value` as text that is the same in every process (no object addresses)."""
    if isinstance(value, dict):
        return sorted(value)
    if callable(value):
        return f"{getattr(value, '__module__', '')}.{getattr(value, '__qualname__', '')}"
    return value
