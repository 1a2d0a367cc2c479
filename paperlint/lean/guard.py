"""The refusal scan before anything reaches Lean (docs/design.md §7, docs/lean-notes.md §6.0).

The scan itself lives in `paperlint.lean.hygiene`, imported statically: if it cannot be
imported, nothing here can be imported either, so no verifier runs with the scan missing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from paperlint.lean.hygiene import refusal_findings

# A `#print axioms` argument must be a single identifier: a name with a space or a newline
# could smuggle a command into the query.
_NAME = re.compile(r"[^\s,()\[\]{}:;#\"]+")


# A `sorry` is not dangerous, only incomplete, and statement checks elaborate `:= sorry` on
# purpose: Lean's answer (a sorry warning) already rejects it where a proof is expected.
_LEAN_JUDGES = frozenset({"sorry", "admit"})


def refusals(candidate: str) -> tuple[str, ...]:
    """Why `candidate` must not reach Lean; empty when the scan passes."""
    return tuple(
        f.render() for f in refusal_findings(candidate) if f.blocking and f.rule not in _LEAN_JUDGES
    )


def bad_names(names: Sequence[str]) -> tuple[str, ...]:
    return tuple(n for n in names if not _NAME.fullmatch(n))
