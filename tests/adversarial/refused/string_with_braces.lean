-- expect: meta-code @ 3
theorem main : True := by
  have : String := "{x}"
  trivial
