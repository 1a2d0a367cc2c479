"""Names and relations the engine and the validator derive from the records the same way."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from paperlint.errors import InputError

if TYPE_CHECKING:
    from paperlint.blueprint.model import Blueprint
    from paperlint.preflight.model import Inventory


def safe_name(result_id: str) -> str:
    """A file-system safe folder name for a result id (ids contain ':' and '@')."""
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in result_id)


def shared_folders(result_ids: Iterable[str]) -> list[tuple[str, str]]:
    """Pairs of result ids whose folders (`safe_name`) would be one folder, on any file system:
    `lem:a` and `lem_a`, and `lem:A` and `lem:a` where case does not count (macOS, Windows).
    Each result's evidence would overwrite the other's."""
    first: dict[str, str] = {}
    pairs: list[tuple[str, str]] = []
    for rid in result_ids:
        folder = safe_name(rid).casefold()
        if folder in first and first[folder] != rid:
            pairs.append((first[folder], rid))
        else:
            first.setdefault(folder, rid)
    return pairs


def refuse_shared_folders(inventory: Inventory) -> None:
    """Two results whose evidence folders would be one (`layout.shared_folders`) stop the
    check before anything is written: one's evidence would overwrite the other's."""
    pairs = shared_folders(r.id for r in inventory.results)
    if not pairs:
        return
    first, second = pairs[0]
    where = inventory.result(second)
    raise InputError(
        f"the labels `{first}` and `{second}` would share one evidence folder "
        f"(`audits/{safe_name(second)}`): one result's evidence would overwrite the other's",
        path=where.span.file if where is not None else None,
        line=where.span.start_line if where is not None else None,
        hint="rename one of the two labels (and its \\ref's), then check again",
    )


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
