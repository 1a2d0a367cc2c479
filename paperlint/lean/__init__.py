"""The Lean edge. Only `paperlint.lean.warm` imports lean-interact, and only lazily."""
