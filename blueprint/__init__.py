"""Blueprint: each result mapped to a planned Lean declaration, and the dependency graph."""

from paperlint.blueprint.build import build_blueprint
from paperlint.blueprint.fingerprint import normalise_tex, tex_sha256
from paperlint.blueprint.graph import dependency_order, dependents, graph_of, predecessors
from paperlint.blueprint.model import BLUEPRINT_SCHEMA, Blueprint, BlueprintEntry

__all__ = [
    "BLUEPRINT_SCHEMA",
    "Blueprint",
    "BlueprintEntry",
    "build_blueprint",
    "dependency_order",
    "dependents",
    "graph_of",
    "normalise_tex",
    "predecessors",
    "tex_sha256",
]
