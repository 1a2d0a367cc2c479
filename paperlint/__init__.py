"""paperlint: check the proofs in a mathematics or statistics paper against Lean 4 + Mathlib."""

__version__ = "0.1.0"
