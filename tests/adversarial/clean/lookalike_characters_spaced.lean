theorem main : 'a' ≠ 'b' ∧ "s" ≠ "t" := by
  decide
