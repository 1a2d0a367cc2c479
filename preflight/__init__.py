"""Preflight: a TeX project (or a PDF) becomes an inventory of its numbered results.

Deterministic and model-free. Depends on nothing else of paperlint's.
"""

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
