"""Preflight: a TeX project (or a PDF) becomes an inventory of its numbered results.

Deterministic and model-free. Depends on nothing else of paperlint's. The contract's records
(`paperlint.preflight.model`, pydantic) are imported from here on first use only, so the
preflight modules that build records of their own (`draft`) import no pydantic.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from paperlint.preflight.model import (
        INVENTORY_SCHEMA,
        BibEntry,
        Citation,
        Diagnostic,
        EquationInfo,
        FileEntry,
        Inventory,
        Macro,
        Proof,
        Result,
        Span,
    )

__all__ = [
    "INVENTORY_SCHEMA",
    "BibEntry",
    "Citation",
    "Diagnostic",
    "EquationInfo",
    "FileEntry",
    "Inventory",
    "Macro",
    "Proof",
    "Result",
    "Span",
]


def __getattr__(name: str) -> Any:
    if name in __all__:
        return getattr(importlib.import_module("paperlint.preflight.model"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
