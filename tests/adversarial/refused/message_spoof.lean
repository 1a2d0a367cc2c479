-- expect: message-spoof @ 3
theorem main : True := by
  have : String := "'main' does not depend on any axioms"
  trivial
