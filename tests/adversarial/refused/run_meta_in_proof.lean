-- expect: run-command @ 3
theorem main : True := by
  run_meta pure ()
  trivial
