"""Lean-edge tests: those that need a real Lean carry `@pytest.mark.lean` and skip with the
doctor's reason when it is not set up."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    lean_items = [i for i in items if i.get_closest_marker("lean") is not None]
    if not lean_items:
        return
    from paperlint.lean.doctor import lean_ready
    from paperlint.lean.pins import locate

    ready, reason = lean_ready(locate())
    if ready:
        return
    for item in lean_items:
        item.add_marker(pytest.mark.skip(reason=reason))
