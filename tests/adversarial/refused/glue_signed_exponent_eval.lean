-- expect: glued-token @ 2
theorem main (n : Nat) : Nat := 2E+3#eval IO.FS.writeFile "/tmp/x" "y"
