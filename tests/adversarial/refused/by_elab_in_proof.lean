-- expect: meta-code @ 3
theorem main : True := by
  exact (by_elab return Lean.mkConst ``True.intro)
