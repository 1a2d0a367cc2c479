"""Names and relations the engine and the validator derive from the records the same way."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from paperlint.blueprint.model import Blueprint


def safe_name(result_id: str) -> str:
    """A file-system safe folder name for a result id (ids contain ':' and '@')."""
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in result_id)


def transitive_deps(blueprint: Blueprint, order: list[str]) -> dict[str, list[str]]:
    """Result id -> every result it depends on (statement or proof), in queue order."""
    direct = {e.id: [*e.statement_uses, *e.proof_uses] for e in blueprint.entries}
    rank = {rid: i for i, rid in enumerate(order)}
    out: dict[str, list[str]] = {}
    for rid in direct:
        seen: set[str] = set()
        stack = list(direct[rid])
        while stack:
            dep = stack.pop()
            if dep in seen or dep == rid or dep not in direct:
                continue
            seen.add(dep)
            stack.extend(direct[dep])
        out[rid] = sorted(seen, key=lambda d: rank.get(d, 1 << 30))
    return out
