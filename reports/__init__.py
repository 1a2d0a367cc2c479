"""Reports: rendered from records only; never calls a model or Lean."""
