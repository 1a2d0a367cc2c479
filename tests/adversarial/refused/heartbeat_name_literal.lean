-- expect: resource-limit @ 3
theorem main : True := by
  exact (Lean.withOptions (·.setNat `maxHeartbeats 0) trivial)
