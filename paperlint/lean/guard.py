"""The refusal scan before anything reaches Lean (design §7, lean.md §6.0).

The scan itself lives in `paperlint.lean.hygiene` (another module, built in parallel); this
adapter calls its `refusal_findings(text)` when it exists and otherwise refuses nothing, so the
verifiers work before it lands. The axiom check and the final build stay the guarantee.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from importlib import import_module

# A `#print axioms` argument must be a single identifier: a name with a space or a newline
# could smuggle a command into the query.
_NAME = re.compile(r"[^\s,()\[\]{}:;#\"]+")


def _scanner() -> Callable[[str], Sequence[object]] | None:
    try:
        module = import_module("paperlint.lean.hygiene")
    except ImportError:
        return None
    scan = getattr(module, "refusal_findings", None)
    return scan if callable(scan) else None


# A `sorry` is not dangerous, only incomplete, and statement checks elaborate `:= sorry` on
# purpose: Lean's answer (a sorry warning) already rejects it where a proof is expected.
_LEAN_JUDGES = frozenset({"sorry", "admit"})


def _describe(finding: object) -> str:
    if isinstance(finding, str):
        return finding
    render = getattr(finding, "render", None)
    if callable(render):
        return str(render())
    parts = [
        str(value)
        for attr in ("line", "rule", "code", "message", "text")
        if (value := getattr(finding, attr, None)) is not None
    ]
    return ": ".join(parts) if parts else repr(finding)


def refusals(candidate: str) -> tuple[str, ...]:
    """Why `candidate` must not reach Lean; empty when the scan passes or does not exist yet."""
    scan = _scanner()
    if scan is None:
        return ()
    return tuple(
        _describe(f)
        for f in scan(candidate)
        if getattr(f, "blocking", True) and getattr(f, "rule", None) not in _LEAN_JUDGES
    )


def bad_names(names: Sequence[str]) -> tuple[str, ...]:
    return tuple(n for n in names if not _NAME.fullmatch(n))
