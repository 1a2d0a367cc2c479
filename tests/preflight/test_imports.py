"""Importing preflight does no work the build may not need: no regex compiled (each pattern is
compiled where first used, by `re` or from the user's cache: `paperlint.preflight.lazyre`), no
heavy library, and no dataclass created (creating one costs as much as compiling a regex, and
`dataclasses` imports `inspect`: a record is a `record.Record`, an immutable one a
`NamedTuple`). Counted, not timed, so the test holds on a loaded machine; each count runs in a
fresh interpreter."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("pydantic", "typer", "rich", "click", "litellm", "jinja2", "pdfminer", "networkx")

_PROBE = """
import dataclasses, json, re, sys
from paperlint.preflight import lazyre

compiled = []
created = []
real_compile, real_process = re._compile, dataclasses._process_class
real_kept = lazyre.compile_kept
PASSED = ("re", "functools", "paperlint.preflight.lazyre")

def spy(real):
    def compile(*args, **kwargs):
        frame = sys._getframe(1)
        while frame is not None and frame.f_globals.get("__name__") in PASSED:
            frame = frame.f_back
        compiled.append(frame.f_globals.get("__name__", "?") if frame is not None else "?")
        return real(*args, **kwargs)
    return compile

def spy_process(cls, *args, **kwargs):
    created.append(cls.__module__ + "." + cls.__qualname__)
    return real_process(cls, *args, **kwargs)

re._compile, dataclasses._process_class = spy(real_compile), spy_process
lazyre.compile_kept = spy(real_kept)  # a program from the cache compiles without `re._compile`
import paperlint.preflight.inventory
at_import = [m for m in compiled if m.startswith("paperlint.preflight")]
made = [c for c in created if c.startswith("paperlint.preflight")]
loaded = sorted({m.split(".")[0] for m in sys.modules})
from paperlint.preflight import prepass
prepass.clean("a % comment\\n\\\\verb|x| b")  # shows the spy sees a compile when one happens
used = [m for m in compiled if m.startswith("paperlint.preflight")]
print(json.dumps({"at_import": at_import, "made": made, "loaded": loaded, "used": used}))
"""


def _probe() -> dict[str, list[str]]:
    out = subprocess.run(
        [sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True
    ).stdout
    data: dict[str, list[str]] = json.loads(out.splitlines()[-1])
    return data


def test_importing_preflight_compiles_no_regex_and_stays_in_budget() -> None:
    data = _probe()
    assert data["used"], "the spy saw no compile at all: the count below would prove nothing"
    assert data["at_import"] == [], f"compiled at import (use lazyre.pattern): {data['at_import']}"
    assert data["made"] == [], f"dataclasses made at import: {data['made']}"
    assert not set(HEAVY) & set(data["loaded"]), sorted(set(HEAVY) & set(data["loaded"]))


def test_sha256_hex_is_sha256() -> None:
    """Preflight's SHA-256 (CPython's own module, not OpenSSL's) gives hashlib's digests."""
    import hashlib

    from hypothesis import given
    from hypothesis import strategies as st

    from paperlint.preflight.sourcetree import sha256_hex

    @given(st.binary(max_size=5000))
    def same(data: bytes) -> None:
        assert sha256_hex(data) == hashlib.sha256(data).hexdigest()

    same()
    assert sha256_hex(b"abc").startswith("ba7816bf")  # FIPS 180-2's example
