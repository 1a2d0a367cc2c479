"""Secrets by value: every API key the run was given is masked wherever text leaves the process.

A provider may echo the key it refused in its error message, and that message reaches events,
records, reports and the terminal. Matching key *shapes* (`sk-…`) misses every other shape, so
the values themselves are registered (`remember`: each environment variable a role's
`api_key_env` names, each header value of a role whose name says it carries a credential, and
each variable named like a provider key, which litellm reads by itself)
and masked by `scrub`, which the file writers (`paperlint.store`), the crash log and the
terminal streams (`paperlint.cli.root`) apply to everything they write. A value is also masked
in the forms it takes inside JSON, HTML and a Python repr.

Values shorter than `MIN_LENGTH` are not registered: masking a short common string would
corrupt ordinary text, and no provider issues keys that short.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import sys
from _thread import allocate_lock  # threading's Lock; not threading (~1 ms at start-up)
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, BinaryIO, TextIO

MASK = "[redacted]"
MIN_LENGTH = 8
_CREDENTIAL_HEADER = re.compile(r"auth|key|token|secret|cookie|password", re.IGNORECASE)

_lock = allocate_lock()
_values: tuple[str, ...] = ()
_encoded: tuple[bytes, ...] = ()


def forms(value: str) -> set[str]:
    """`value` as written raw, inside a JSON string, in HTML and in a Python repr."""
    import html  # here: every command starts through this module, few register a secret
    import json

    found = {value, json.dumps(value)[1:-1], html.escape(value), repr(value)[1:-1]}
    found.add(json.dumps(value, ensure_ascii=False)[1:-1])
    return {form for form in found if len(form) >= MIN_LENGTH}


def remember(values: Iterable[str | None]) -> None:
    """Register secret values to mask from now on (idempotent, for the whole process)."""
    global _values, _encoded
    new = {form for value in values if value and len(value) >= MIN_LENGTH for form in forms(value)}
    with _lock:
        merged = set(_values) | new
        if len(merged) == len(_values):
            return
        _values = tuple(sorted(merged, key=len, reverse=True))  # longest first
        _encoded = tuple(value.encode("utf-8") for value in _values)


def remember_roles(roles: Mapping[str, object]) -> None:
    """The secrets a config's `[roles]` point at: the value of each `api_key_env` in the
    environment, and credential-looking header values (`Authorization`, `X-Api-Key`, …)."""
    values: list[str | None] = []
    for settings in roles.values():
        env = getattr(settings, "api_key_env", None)
        if env:
            values.append(os.environ.get(env))
        headers = getattr(settings, "headers", None) or {}
        for name, value in headers.items():
            if _CREDENTIAL_HEADER.search(name):
                values.append(value)
                values.append(value.partition(" ")[2])  # `Bearer <key>`: the key alone too
    remember(values)


_PROVIDER_ENV = re.compile(r"(API_KEY|_TOKEN|_SECRET|_SECRET_KEY)$")


def remember_provider_env() -> None:
    """Environment variables named like a provider's key (`OPENAI_API_KEY`, `HF_TOKEN`, …):
    litellm reads them by itself when a role names no `api_key_env`."""
    remember(value for name, value in os.environ.items() if _PROVIDER_ENV.search(name))


def scrub(text: str) -> str:
    """`text` with every registered secret masked."""
    for value in _values:
        if value in text:
            text = text.replace(value, MASK)
    return text


def scrub_bytes(data: bytes) -> bytes:
    for value in _encoded:
        if value in data:
            data = data.replace(value, MASK.encode())
    return data


class _ScrubbedBytes(io.RawIOBase):
    """The byte side of a `ScrubbedStream` (the MCP server writes bytes to stdout)."""

    def __init__(self, inner: BinaryIO) -> None:
        self.inner = inner

    def write(self, data: Any) -> int:
        self.inner.write(scrub_bytes(bytes(data)))
        return len(data)

    def flush(self) -> None:
        self.inner.flush()

    def writable(self) -> bool:
        return True


class ScrubbedStream(io.TextIOBase):
    """A terminal stream that masks the registered secrets in everything written to it, as
    text or through its `buffer`."""

    def __init__(self, inner: TextIO) -> None:
        self.inner = inner

    @property
    def buffer(self) -> BinaryIO:
        return _ScrubbedBytes(self.inner.buffer)  # type: ignore[return-value]

    def write(self, text: str) -> int:
        self.inner.write(scrub(text))
        return len(text)

    def flush(self) -> None:
        self.inner.flush()

    def isatty(self) -> bool:
        return self.inner.isatty()

    def fileno(self) -> int:
        return self.inner.fileno()

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.inner, "encoding", None) or "utf-8"

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return getattr(self.inner, "errors", None)


@contextlib.contextmanager
def scrubbed_terminal() -> Iterator[None]:
    """stdout and stderr mask the registered secrets while a command runs."""
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = ScrubbedStream(out), ScrubbedStream(err)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err


def forget() -> None:
    """Drop every registered value (tests)."""
    global _values, _encoded
    with _lock:
        _values, _encoded = (), ()
