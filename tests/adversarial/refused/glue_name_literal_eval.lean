-- expect: glued-token @ 2
theorem main (n : Lean.Name) : Lean.Name := `foo#eval IO.println "hi"
