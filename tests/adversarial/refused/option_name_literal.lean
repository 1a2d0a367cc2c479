-- expect: debug-option @ 3
theorem main : True := by
  exact (Lean.withOptions (·.setBool `debug.skipKernelTC true) trivial)
