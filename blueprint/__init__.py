"""Blueprint: each result mapped to a planned Lean declaration, and the dependency graph."""
