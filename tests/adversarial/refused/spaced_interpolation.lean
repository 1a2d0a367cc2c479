-- expect: meta-code @ 3
theorem main : True := by
  have := s! "{(IO.FS.writeFile "/tmp/x" "")}"
  trivial
