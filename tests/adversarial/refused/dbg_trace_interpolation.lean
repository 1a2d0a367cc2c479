-- expect: meta-code @ 3
theorem main : True := by
  exact dbg_trace "{IO.println 1}"; trivial
