theorem main : 'a' = 'a' := by
  have : "no braces here" = "no braces here" := rfl
  rfl
