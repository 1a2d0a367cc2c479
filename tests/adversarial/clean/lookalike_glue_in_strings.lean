theorem main : "0instance" ++ "run_cmd" = "0instancerun_cmd" := by
  rfl
