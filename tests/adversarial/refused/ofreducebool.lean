-- expect: native-decide @ 3
theorem main : True := by
  exact Lean.ofReduceBool _ _ rfl |> fun _ => trivial
