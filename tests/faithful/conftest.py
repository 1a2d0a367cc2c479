from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from paperlint.lean.replay import ReplayVerifier
from paperlint.lean.verifier import LeanContext, Verifier
from tests.faithful.lean_answers import Author, Rule
from tests.lean_edge.conftest import pytest_collection_modifyitems  # `lean` tests skip

__all__ = ["pytest_collection_modifyitems"]

HEADER = "import Mathlib\nset_option maxHeartbeats 400000\nset_option autoImplicit false"
CONTEXT = LeanContext(header=HEADER)


@pytest.fixture
def replayed(tmp_path: Path) -> Callable[..., tuple[Any, Author]]:
    """Run `fn` once against hand-written rules (writing lean.jsonl), then again against
    `ReplayVerifier` reading that file; return the replayed result and the author."""

    def run(rules: Sequence[Rule], fn: Callable[[Verifier], Any]) -> tuple[Any, Author]:
        author = Author(rules)
        authored = fn(author)
        author.write(tmp_path)
        result = fn(ReplayVerifier(tmp_path))
        assert _strip(result) == _strip(authored)  # the replay path agrees with the author
        return result, author

    return run


def _strip(value: Any) -> Any:
    """A result without its replay flags and durations, for comparing two runs."""
    if hasattr(value, "model_dump"):
        value = value.model_dump()
    elif hasattr(value, "__dataclass_fields__"):
        value = {k: _strip(getattr(value, k)) for k in value.__dataclass_fields__}
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k not in {"replay", "duration_s"}}
    if isinstance(value, list | tuple):
        return [_strip(v) for v in value]
    return value
