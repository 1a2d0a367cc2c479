-- expect: meta-code @ 3
theorem main : True := by
  exact (throwError "{1}" : Lean.MetaM True) |> fun _ => trivial
